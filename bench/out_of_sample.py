"""Figures that cannot flatter: every one out of sample, printed beside its in-sample twin.

1. The shared captures, leave-one-family-out: each family (the id's first word: attn, kv,
   spec, par …) is scored with the classes its captures match and the domains of the flags
   its fixes set REMOVED from the catalogue; beside it the same figure in sample.
   First offline-style move (propose) part of a verified fix, and (with --python) a
   preflight search per capture: PASS, attempts vs chain length + 1.
2. Fresh cases nobody tuned for (bench/fresh/, frozen before the engine was changed for
   them): failing argvs written from SGLang's source, real users' commands from public
   issues, flag spellings. Each is searched with `--gates preflight` against the real
   SGLang at --python: PASS, attempts vs minimal chain + 1, the user's intent kept (the
   winner holds every flag and value of one verified fix), and whether the first offline
   move (autofix classify on the base's failure) is part of a verified fix.

    python bench/out_of_sample.py --python ~/.cache/autofix/sglang-0.5.23-cpu/bin/python
    python bench/out_of_sample.py --python …/sglang-0.5.11-cpu/bin/python --fresh-only
    python bench/out_of_sample.py --captures-only          # LOFO first moves, no SGLang needed
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from autofix.catalog import Catalog, load_catalog
from autofix.classify import classify
from autofix.config import parse_base
from autofix.errors import ConfigError
from autofix.hosts.local import LocalHost
from autofix.model import REDACTED, Candidate, EditOp, Gate, Move
from autofix.preflight import Preflight
from autofix.repair import offline_moves, propose
from autofix.run import Runner, SearchOptions
from autofix.store import open_store
from autofix.targets import Target
from autofix.tracebacks import parse_text
from bench.captures import MODELS, argv_to_args, bench_unit, load_cases, move_in_fix, real_argv, verified_fixes

ROOT = Path(__file__).resolve().parent.parent
FRESH = ROOT / "bench" / "fresh"
SETS = (
    "sglang-0.5.23",
    "sglang-0.5.23-second",
    "sglang-0.5.23-third",
    "sglang-0.5.23-fourth",
    "sglang-0.5.23-fifth",
    "sglang-0.5.23-sixth",
    "sglang-0.5.23-seventh",
    "sglang-0.5.23-eighth",
    "sglang-0.5.23-ninth",
    "sglang-0.5.23-tenth",
    "sglang-0.5.23-eleventh",
    "sglang-0.5.23-twelfth",
    "sglang-0.5.23-thirteenth",
    "sglang-0.5.23-fourteenth",
    "sglang-0.5.23-fifteenth",
    "sglang-0.5.23-sixteenth",
    "sglang-0.5.23-seventeenth",
    "sglang-0.5.23-eighteenth",
    "sglang-0.5.23-nineteenth",
    "sglang-0.5.23-twentieth",
    "sglang-0.5.23-twenty-first",
    "sglang-0.5.23-twenty-second",
    "sglang-0.5.23-twenty-third",
    "sglang-0.5.23-twenty-fourth",
    "sglang-0.5.23-twenty-fifth",
    "sglang-0.5.23-twenty-sixth",
    "sglang-0.5.23-twenty-seventh",
    "sglang-0.5.23-twenty-eighth",
    "sglang-0.5.23-twenty-ninth",
    "sglang-0.5.23-thirtieth",
    "sglang-0.5.23-thirty-first",
    "sglang-0.5.23-thirty-second",
    "sglang-0.5.23-thirty-third",
    "sglang-0.5.23-thirty-fourth",
    "sglang-0.5.23-thirty-fifth",
    "sglang-0.5.23-thirty-sixth",
    "sglang-0.5.23-crossover",
    "sglang-0.5.23-crossover2",
    "sglang-0.5.23-crossover3",
    "sglang-0.5.23-crossover4",
    "sglang-0.5.23-crossover5",
    "sglang-0.5.23-crossover6",
    "sglang-0.5.23-crossover7",
    "users",
    "users2",
    "users3",
    "users4",
    "users5",
    "users6",
    "users7",
    "users8",
    "users9",
    "users10",
    "users11",
    "users12",
    "users13",
    "users14",
    "users15",
    "users16",
    "users17",
    "users18",
    "users19",
    "users20",
    "users21",
    "users22",
    "users23",
    "users24",
    "users25",
    "users26",
    "users27",
    "users28",
    "users29",
    "users30",
    "users31",
    "users32",
    "users33",
    "users34",
    "users35",
    "sglang-0.4.10.post2-first",
    "sglang-0.4.10.post2-second",
    "sglang-0.4.10.post2-third",
    "sglang-0.4.10.post2-fourth",
    "sglang-0.4.10.post2-fifth",
    "sglang-0.4.10.post2-sixth",
    "sglang-0.4.10.post2-seventh",
    "sglang-0.4.10.post2-eighth",
    "sglang-0.4.10.post2-ninth",
    "sglang-0.4.10.post2-tenth",
    "sglang-0.4.10.post2-eleventh",
    "sglang-0.4.10.post2-twelfth",
    "sglang-0.4.10.post2-thirteenth",
    "sglang-0.5.11-first",
    "sglang-0.5.11-second",
    "sglang-0.5.11-third",
    "sglang-0.5.11-fourth",
    "sglang-0.5.11-fifth",
    "sglang-0.5.11-sixth",
    "sglang-0.5.11-seventh",
    "sglang-0.5.11-eighth",
    "sglang-0.5.11-ninth",
    "sglang-0.5.11-tenth",
    "sglang-0.5.11-eleventh",
    "sglang-0.5.11-twelfth",
    "sglang-0.5.11-thirteenth",
    "sglang-0.5.11-fourteenth",
    "spellings",
)
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


# --- argv as a user's command spelled it -> base config args -------------------------------


def command_args(argv: list[str]) -> dict[str, Any]:
    """Flags as typed (``--a=b``, ``---x``, a split ``- -x``, glued ``--a--b``) -> YAML args."""
    args: dict[str, Any] = {}
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token == "-" and i < len(argv) and argv[i].startswith("-"):
            name = f"- {argv[i]}"
            i += 1
        elif token.startswith("--"):
            name = token[2:]
        elif token.startswith("-") and not _NUMBER.match(token):
            name = token
        else:
            continue  # a stray value
        value: Any = True
        if "=" in name and not name.startswith("-"):
            name, value = name.split("=", 1)
        values: list[str] = []
        while value is True and i < len(argv) and (not argv[i].startswith("-") or _NUMBER.match(argv[i])):
            if argv[i] == "-" and i + 1 < len(argv) and argv[i + 1].startswith("-"):
                break
            values.append(argv[i])
            i += 1
        if values:
            value = values[0] if len(values) == 1 else values
        args[name] = value
    return args


def with_models(argv: list[str]) -> list[str]:
    return [a.replace("{models}", str(MODELS)) for a in argv]


def canonical_pairs(args: dict[str, Any], catalog: Catalog) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for name, value in args.items():
        shown = " ".join(value) if isinstance(value, list | tuple) else str(value)
        out.add((full_name(name, catalog), as_compared(shown)))
    return out


def as_compared(shown: str) -> str:
    """A value as the comparison sees it: a JSON object or list in one form (SGLang reads
    those flags with json.loads, so spacing and key order say nothing); any other text as
    written."""
    if not shown.lstrip().startswith(("{", "[")):
        return shown
    try:
        return json.dumps(json.loads(shown), sort_keys=True, separators=(",", ":"))
    except ValueError:
        return shown


def full_name(name: str, catalog: Catalog) -> str:
    """The flag a spelling is to the host's parser: its canonical name, or, for a unique
    prefix argparse takes as an abbreviation (--speculative-algo), the one flag it starts."""
    if catalog.knows(name) or not catalog.flags:
        return catalog.canonical(name)
    started = [flag for flag in catalog.flags if flag.startswith(name)]
    return started[0] if len(started) == 1 else catalog.canonical(name)


# --- 1. captures, leave one family out -----------------------------------------------------


def family(case_id: str) -> str:
    return case_id.split("-", 1)[0]


def family_catalog(catalog: Catalog, cases: list[dict[str, Any]]) -> Catalog:
    """The catalogue less what a family's captures taught it: the classes they match,
    the domains of the flags their fixes set."""
    classes: set[str] = set()
    flags: set[str] = set()
    for case in cases:
        diagnosis = classify(parse_text(case["traceback"]), catalog, Gate.PREFLIGHT)
        if diagnosis.failure.class_id:
            classes.add(diagnosis.failure.class_id)
        for fix in [case["minimal_fix"], *case.get("alternative_fixes", [])]:
            for move in fix.get("moves") or []:
                flags.add(catalog.canonical(move["flag"].lstrip("-")))
    return catalog.without(sorted(classes), sorted(flags))


def first_move_right(case: dict[str, Any], catalog: Catalog) -> bool:
    candidate = Candidate.build(argv_to_args(case["argv"]))
    diagnosis = classify(parse_text(case["traceback"]), catalog, Gate.PREFLIGHT)
    proposals = propose(candidate, diagnosis, catalog, pinned=("model-path",))
    return bool(proposals) and move_in_fix(proposals[0].move, verified_fixes(case), candidate)


def captures_lofo(catalog: Catalog) -> tuple[dict[str, tuple[int, int, int]], dict[str, Catalog]]:
    cases = load_cases()
    by_family: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        by_family.setdefault(family(case["id"]), []).append(case)
    rows: dict[str, tuple[int, int, int]] = {}
    held_out: dict[str, Catalog] = {}
    for name, members in sorted(by_family.items()):
        out = family_catalog(catalog, members)
        held_out[name] = out
        inside = sum(first_move_right(c, catalog) for c in members)
        outside = sum(first_move_right(c, out) for c in members)
        rows[name] = (len(members), inside, outside)
    return rows, held_out


# --- searches against the real SGLang --------------------------------------------------------


@dataclass(frozen=True)
class Searched:
    case: str
    failed_first: bool
    passed: bool
    attempts: int
    budget: int
    intent: bool | None  # None: no verified fix to hold it to
    first_offline: bool | None
    winner: str
    # The same, as `autofix classify --python PATH` gives it: the failing frame's source
    # read from the host's install (what the issue asks offline to do when given one).
    first_offline_source: bool | None = None


def base_text(case_id: str, argv: list[str], python: str, max_attempts: int = 12) -> str:
    data = {
        "name": re.sub(r"[^A-Za-z0-9-]", "-", case_id),
        "host": "local",
        # The lock on a real host is the machine's, per unit: each benchmark run has its own.
        "service": {"unit": bench_unit(case_id)},
        "launch": {"python": python, "args": command_args(argv)},
        "gates": {"preflight": {"timeout": 120}},
        "search": {"max_attempts": max_attempts, "pinned": ["model-path", "device"]},
    }
    return yaml.safe_dump(data, sort_keys=False)


def _winner_moves(runner: Runner, run_id: int, winner: Any) -> list[Move]:
    by_id = {a.id: a for a in runner.store.attempts(run_id)}
    moves: list[Move] = []
    node = winner
    while node is not None:
        if node.move is not None:
            moves.append(node.move)
        node = by_id.get(node.parent_id) if node.parent_id else None
    return list(reversed(moves))


def installed_source(purelib: Path, output: str, catalog: Catalog) -> str | None:
    """The failing frame's file as installed under ``purelib`` (None: no frame, or not there)."""
    frame = classify(parse_text(output), catalog, Gate.PREFLIGHT).failure.frame
    if frame is None:
        return None
    path = str(frame.file).replace("\\", "/")
    marker = "site-packages/"
    rel = path[path.rfind(marker) + len(marker) :] if marker in path else path[path.find("sglang/") :]
    try:
        return (purelib / rel).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def offline_right(
    output: str,
    fixes: list[set[tuple[str, str]]],
    base: set[tuple[str, str]],
    catalog: Catalog,
    source: str | None = None,
) -> bool:
    """The first move `autofix classify` proposes for the base's failure (``source``: the
    failing file, as ``--python`` reads it), applied to the base, moves it toward a
    verified fix (every pair it sets is in the fix, every flag it drops is not)."""
    diagnosis = classify(parse_text(output), catalog, Gate.PREFLIGHT)
    moves = offline_moves(diagnosis, catalog, source)
    return bool(moves) and move_toward_fix(moves[0], fixes, catalog)


def move_toward_fix(move: Move, fixes: list[set[tuple[str, str]]], catalog: Catalog) -> bool:
    """``move`` applied to the base moves it toward one of the verified fixes: every pair it
    sets is in the fix (or, for a flag the fix leaves out, is what SGLang uses when the flag
    is left out), every flag it drops is not in it, every name it renames to is."""
    return any(_toward(move, fix, catalog) for fix in fixes)


def _toward(move: Move, fix: set[tuple[str, str]], catalog: Catalog) -> bool:
    fix_flags = {f for f, _ in fix}
    for e in move.edits:
        flag = catalog.canonical(e.target)
        if (
            e.op is EditOp.DROP
            and flag in fix_flags
            and not any(f == flag and _left_out_value(flag, v, catalog) for f, v in fix)
        ):
            # (leaving out a flag whose default is the fix's value launches the fix's server)
            return False
        if e.op is EditOp.RENAME and catalog.canonical(str(e.value)) not in fix_flags:
            return False
        if e.op in (EditOp.SET, EditOp.SCALE):
            shown = " ".join(e.value) if isinstance(e.value, tuple) else "True" if e.value is True else str(e.value)
            if (flag, as_compared(shown)) not in fix and (
                flag in fix_flags or not _left_out_value(flag, shown, catalog)
            ):
                return False
    return True


def _left_out_value(flag: str, shown: str, catalog: Catalog) -> bool:
    """``shown`` is what SGLang uses for ``flag`` when it is not given: the parser's
    default, or the field's fallback where the parser's default is None."""
    info = catalog.flag(flag)
    if info is None or info.kind not in ("value", "list"):
        return False
    left = info.default if info.default is not None else info.fallback
    return left is not None and as_compared(str(left)) == as_compared(shown)


def in_host_spelling(pairs: set[tuple[str, str]], catalog: Catalog) -> set[tuple[str, str]]:
    """A fix verified on 0.5.23, spelled as an older host's parser spells it: a flag the
    host lacks that a later release renamed from one the host has, with the same value
    (--cuda-graph-max-bs-decode 256 is 0.5.11's --cuda-graph-max-bs 256)."""
    out: set[tuple[str, str]] = set()
    for flag, value in pairs:
        older = catalog.older_names(flag)
        out.add((older[0], value) if not catalog.knows(flag) and older else (flag, value))
    return out


def kept(
    fix: set[tuple[str, str]],
    held: set[tuple[str, str]],
    base: set[tuple[str, str]],
    resolved: dict[str, object] | None = None,
    *,
    catalog: Catalog | None = None,
) -> bool:
    """The winner keeps the user's intent: it holds every flag and value of the verified
    fix (as written, or as what SGLang resolved the winner to: 0.5.23 itself turns the
    deprecated `--dp-size N --enable-dp-attention` into attn_dp_size N), and switches on
    nothing that neither the user nor the fix has (--smg-grpc-mode turned on to get past a
    port check changes what the server is; a tuning value added, such as a step count,
    does not)."""
    seen = {k: str(v) for k, v in (resolved or {}).items()}
    # A secret flag's value is kept out of the store (REDACTED there): the winner holds the
    # user's key when it holds the flag.
    # (A flag the winner leaves out launches with what SGLang uses then: the parser's
    # default, or the field's fallback; the fix's pair of that value is held.)
    given = {flag for flag, _ in held}
    holds = all(
        pair in held
        or (pair[0], REDACTED) in held
        or seen.get(pair[0].replace("-", "_")) == pair[1]
        or (catalog is not None and pair[0] not in given and _left_out_value(pair[0], pair[1], catalog))
        for pair in fix
    )
    return holds and not any(value == "True" for _, value in held - fix - base)


def search_cases(
    cases: Iterable[dict[str, Any]], python: str, catalog: Catalog, *, verbose: bool = False
) -> tuple[list[Searched], str]:
    host = LocalHost()
    preflight = Preflight(host, Target("sglang", python, "sglang.launch_server"))
    info = preflight.start()
    host_catalog = catalog.with_parser(info.parser, info.version)
    purelib = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    )  # fmt: skip
    results: list[Searched] = []
    with tempfile.TemporaryDirectory() as tmp:
        store_url = f"sqlite:///{Path(tmp) / 'runs.db'}"
        try:
            for case in cases:
                argv = with_models(case["argv"])
                try:
                    config = parse_base(base_text(case["id"], argv, python), source=f"{case['id']}.yaml")
                except ConfigError as exc:
                    # A base autofix refuses to load (an unexpanded $VAR for a size): no search
                    # runs, the user gets the one-line error; it counts as failed, not passed.
                    results.append(
                        Searched(
                            case["id"],
                            True,
                            False,
                            0,
                            int(case.get("chain_length", 1)) + 1,
                            None,
                            None,
                            f"refused at load: {exc}",
                        )
                    )
                    if verbose:
                        print(f"  fail  0/{results[-1].budget:<2d} refused at load: {exc}", flush=True)
                    continue
                first = preflight.check(config.base, 120)
                fixes = [
                    in_host_spelling(canonical_pairs(command_args(with_models(f)), host_catalog), host_catalog)
                    for f in case.get("fixes", [])
                ]
                offline = (
                    None
                    if first.ok or not fixes
                    else offline_right(
                        first.output, fixes, canonical_pairs(config.base.args_dict(), host_catalog), host_catalog
                    )
                )
                offline_source = (
                    None
                    if first.ok or not fixes
                    else offline_right(
                        first.output, fixes, canonical_pairs(config.base.args_dict(), host_catalog), host_catalog,
                        installed_source(purelib, first.output, host_catalog),
                    )
                )  # fmt: skip
                options = SearchOptions(gates=(Gate.PREFLIGHT,), max_attempts=12, max_time=600, host_label="local")
                runner = Runner(
                    config, options, store=open_store(store_url), host=host, target=preflight.target,
                    catalog=catalog, preflight=preflight, use_cache=False,
                )  # fmt: skip
                result = runner.run()
                winner = result.winner
                by_id = {a.id: a for a in runner.store.attempts(result.run.id)}
                intent: bool | None = None
                label = "-"
                if winner is not None:
                    held = canonical_pairs(
                        {k: (list(v) if isinstance(v, tuple) else v) for k, v in winner.candidate.args}, host_catalog
                    )
                    held = {(f, "True" if v == "True" else v) for f, v in held}
                    base_pairs = canonical_pairs(config.base.args_dict(), host_catalog)
                    resolved = dict(by_id[winner.id].resolved) if winner.id in by_id else {}
                    intent = (
                        any(kept(fix, held, base_pairs, resolved, catalog=host_catalog) for fix in fixes)
                        if fixes
                        else None
                    )
                    label = "; ".join(m.label() for m in _winner_moves(runner, result.run.id, winner)) or "(base)"
                chain = int(case.get("chain_length", 1))
                results.append(
                    Searched(
                        case["id"],
                        not first.ok,
                        winner is not None,
                        result.attempts,
                        chain + 1,
                        intent,
                        offline,
                        label,
                        offline_source,
                    )
                )
                if verbose:
                    r = results[-1]
                    print(
                        f"  {'PASS' if r.passed else 'fail'} {r.attempts:2d}/{r.budget:<2d} intent={r.intent!s:<5} "
                        f"offline={r.first_offline!s:<5} src={r.first_offline_source!s:<5} {r.case:<44} {r.winner}",
                        flush=True,
                    )
        finally:
            preflight.close()
    return results, info.version


def figures(results: list[Searched]) -> list[str]:
    """PASS, attempts against the budget, intent kept, first offline move: one column."""
    failing = [r for r in results if r.failed_first]
    passed = [r for r in failing if r.passed]
    judged = [r for r in failing if r.intent is not None]
    off = [r for r in failing if r.first_offline is not None]
    src = [r for r in failing if r.first_offline_source is not None]
    n = len(failing) or 1
    mean = sum(r.attempts for r in passed) / len(passed) if passed else 0.0
    budget = sum(r.budget for r in passed) / len(passed) if passed else 0.0
    return [
        f"{len(passed)}/{len(failing)} {100 * len(passed) / n:.0f}%",
        f"{mean:.2f} / {budget:.2f}",
        f"{sum(bool(r.intent) for r in judged)}/{len(judged)}",
        f"{sum(bool(r.first_offline) for r in off)}/{len(off)} {100 * sum(bool(r.first_offline) for r in off) / (len(off) or 1):.0f}%",
        f"{sum(bool(r.first_offline_source) for r in src)}/{len(src)} {100 * sum(bool(r.first_offline_source) for r in src) / (len(src) or 1):.0f}%"
        if src
        else "n/a",
    ]


def side_by_side(columns: dict[str, list[Searched]]) -> str:
    """Every figure in one table: in sample (the captures, full catalogue) first, then
    each out-of-sample column."""
    rows = (
        "preflight search PASS",
        "mean attempts / chain+1",
        "intent kept",
        "first offline move in a fix",
        "  the same with --python",
    )
    cells = {name: figures(results) for name, results in columns.items()}
    width = max(14, *(len(n) for n in cells))
    lines = [" " * 28 + "".join(f"{n:>{width + 2}}" for n in cells)]
    for i, row in enumerate(rows):
        lines.append(f"{row:<28}" + "".join(f"{c[i]:>{width + 2}}" for c in cells.values()))
    return "\n".join(lines)


def summarize(label: str, results: list[Searched]) -> str:
    failing = [r for r in results if r.failed_first]
    passed = [r for r in failing if r.passed]
    within = [r for r in passed if r.attempts <= r.budget]
    judged = [r for r in failing if r.intent is not None]
    kept = [r for r in judged if r.intent]
    off = [r for r in failing if r.first_offline is not None]
    off_ok = [r for r in off if r.first_offline]
    src = [r for r in failing if r.first_offline_source is not None]
    src_ok = [r for r in src if r.first_offline_source]
    mean = sum(r.attempts for r in passed) / len(passed) if passed else 0.0
    budget = sum(r.budget for r in passed) / len(passed) if passed else 0.0
    n = len(failing) or 1
    return (
        f"{label}: {len(failing)} fail first; PASS {len(passed)}/{len(failing)} ({100 * len(passed) / n:.0f} %), "
        f"mean attempts {mean:.2f} (budget chain+1 {budget:.2f}, {len(within)} within), "
        f"intent kept {len(kept)}/{len(judged)}, first offline move in a verified fix {len(off_ok)}/{len(off)}"
        + (f" ({len(src_ok)}/{len(src)} with --python)" if src else "")
        + (f"; {len(results) - len(failing)} pass at once" if len(results) > len(failing) else "")
    )


def load_set(name: str) -> list[dict[str, Any]]:
    path = FRESH / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def capture_cases() -> list[dict[str, Any]]:
    """The shared captures in the fresh cases' shape (argv, fixes as full argvs)."""
    out = []
    for case in load_cases():
        fixes = [real_argv({"argv": case["minimal_fix"]["argv"]})]
        for alt in case.get("alternative_fixes", []):
            if alt.get("result") == "PASS" and alt.get("argv"):
                fixes.append(real_argv({"argv": alt["argv"]}))
        out.append({"id": case["id"], "argv": real_argv(case), "fixes": fixes, "chain_length": case["chain_length"]})
    return out


def main() -> int:
    from autofix import logs

    logs.configure()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", help="the real SGLang env's python (searches need it)")
    parser.add_argument("--captures-only", action="store_true")
    parser.add_argument("--fresh-only", action="store_true")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    catalog = load_catalog()
    started = time.monotonic()
    columns: dict[str, list[Searched]] = {}
    if not args.fresh_only:
        rows, held_out = captures_lofo(catalog)
        total = [sum(r[i] for r in rows.values()) for i in range(3)]
        print("captures, first move part of a verified fix: in sample | family left out")
        for name, (n, inside, outside) in rows.items():
            print(f"  {name:<9} {inside:>3}/{n:<3} | {outside:>3}/{n:<3}")
        print(f"  {'all':<9} {total[1]:>3}/{total[0]:<3} | {total[2]:>3}/{total[0]:<3}")
        if args.python and not args.captures_only:
            cases = capture_cases()
            inside, _ = search_cases(cases, args.python, catalog, verbose=args.verbose)
            outside: list[Searched] = []
            for name, out in held_out.items():
                members = [c for c in cases if family(c["id"]) == name]
                part, _ = search_cases(members, args.python, out, verbose=args.verbose)
                outside.extend(part)
            print(summarize("captures searched, in sample        ", inside))
            print(summarize("captures searched, family left out  ", outside))
            columns["captures IN"] = inside
            columns["captures LOFO"] = outside
    if args.python and not args.captures_only:
        for name in args.sets.split(","):
            results, version = search_cases(load_set(name), args.python, catalog, verbose=args.verbose)
            print(summarize(f"fresh {name} on SGLang {version} (out of sample)", results))
            columns[f"{name} @{version}"] = results
            for r in results:
                if r.failed_first and (not r.passed or r.intent is False or r.attempts > r.budget):
                    print(
                        f"    miss {r.case}: passed={r.passed} attempts={r.attempts} intent={r.intent} winner={r.winner}"
                    )
    if columns:
        print("\nin sample (captures IN: the catalogue was written from them) beside out of sample:")
        print(side_by_side(columns))
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
