"""Figure: how often autofix's first proposed move is part of a real capture's verified fix.

For every real SGLang 0.5.23 capture (tests/data/sglang-0.5.23/cases.jsonl) the failure
text is classified from its raw form and from journal renderings of it (``-o short``,
``-o json``, and 8 ranks interleaved), repair moves are proposed for the case's argv,
and the first move counts as right when every edit in it appears in the case's verified
minimal fix or in one of its verified alternative fixes.

    python bench/captures.py [--inferred-only] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autofix.catalog import Catalog, load_catalog
from autofix.classify import classify
from autofix.model import Candidate, EditOp, Gate, Move
from autofix.repair import propose
from autofix.tracebacks import parse_text

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "data" / "sglang-0.5.23" / "cases.jsonl"
FORMS = ("raw", "short", "json", "ranks8")
# What an operator evidently wants kept: the model. Cases whose fix changes the algorithm
# or the drafter exist, so those are not pinned here (the base configs pin them).
PINNED = ("model-path",)


def load_cases() -> list[dict[str, Any]]:
    with open(CASES, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def argv_to_args(argv: list[str]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    i = 0
    while i < len(argv):
        flag = argv[i][2:]
        i += 1
        values: list[str] = []
        while i < len(argv) and not argv[i].startswith("--"):
            values.append(argv[i])
            i += 1
        args[flag] = True if not values else (values[0] if len(values) == 1 else values)
    return args


def render(text: str, form: str) -> str:
    lines = text.splitlines()
    if form == "short":
        return "\n".join(f"May 25 19:34:29 gpu python[67732]: {ln}" for ln in lines)
    if form == "json":
        return "\n".join(json.dumps({"MESSAGE": ln, "_PID": "67732", "SYSLOG_IDENTIFIER": "python"}) for ln in lines)
    if form == "ranks8":
        # The failing process's lines interleaved with 7 other ranks' INFO lines.
        out: list[str] = []
        for n, ln in enumerate(lines):
            out.append(json.dumps({"MESSAGE": ln, "_PID": "67735", "SYSLOG_IDENTIFIER": "python"}))
            for rank in range(8):
                if rank != 3:
                    info = f"[2026-05-25 19:34:{n % 60:02d} TP{rank}] Load weight begin. avail mem=94.2 GB"
                    out.append(json.dumps({"MESSAGE": info, "_PID": str(67732 + rank), "SYSLOG_IDENTIFIER": "python"}))
        return "\n".join(out)
    return text


def _fix_edits(moves: list[dict[str, Any]]) -> set[tuple[str, str, str | None]]:
    out: set[tuple[str, str, str | None]] = set()
    for m in moves:
        op = "drop" if m["op"] == "drop" else "set"
        value = m.get("value")
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        out.add((op, m["flag"].lstrip("-"), None if value is None else str(value)))
    return out


def verified_fixes(case: dict[str, Any]) -> list[set[tuple[str, str, str | None]]]:
    """The capture's minimal fix, its alternatives that passed, and each step of its chain
    that passed (a fix the capture verified on the way: the message's own "Use --x v")."""
    fixes = [_fix_edits(case["minimal_fix"]["moves"])]
    for alt in case.get("alternative_fixes", []):
        if alt.get("result") == "PASS" and alt.get("moves"):
            fixes.append(_fix_edits(alt["moves"]))
    for step in case.get("chain", []):
        if step.get("result") == "PASS" and step.get("moves_applied"):
            fixes.append(_fix_edits(step["moves_applied"]))
    return fixes


def move_in_fix(move: Move, fixes: list[set[tuple[str, str, str | None]]], candidate: Candidate | None = None) -> bool:
    """Every edit of ``move`` is one of a verified fix's (a rename of the candidate's flag
    is that flag dropped and the new one set to its value)."""
    edits = set()
    for e in move.edits:
        if e.op is EditOp.DROP:
            edits.add(("drop", e.target, None))
        elif e.op in (EditOp.SET, EditOp.SCALE):
            value = None if e.value is True else " ".join(e.value) if isinstance(e.value, tuple) else str(e.value)
            edits.add(("set", e.target, value))
        elif e.op is EditOp.RENAME and candidate is not None and candidate.has(e.target):
            held = candidate.arg(e.target)
            value = None if held is True else " ".join(held) if isinstance(held, tuple) else str(held)
            edits |= {("drop", e.target, None), ("set", str(e.value), value)}
        else:
            return False
    return any(edits <= fix for fix in fixes)


@dataclass(frozen=True)
class Outcome:
    case: str
    form: str
    class_id: str | None
    first: str | None
    inferred: bool
    right: bool
    fix: str


def evaluate(catalog: Catalog, forms: tuple[str, ...] = FORMS) -> Iterator[Outcome]:
    for case in load_cases():
        candidate = Candidate.build(argv_to_args(case["argv"]))
        fixes = verified_fixes(case)
        for form in forms:
            journal = parse_text(render(case["traceback"], form))
            diagnosis = classify(journal, catalog, Gate.PREFLIGHT)
            proposals = propose(candidate, diagnosis, catalog, pinned=PINNED)
            first = proposals[0].move if proposals else None
            yield Outcome(
                case=case["id"],
                form=form,
                class_id=diagnosis.failure.class_id,
                first=first.label() if first else None,
                inferred=bool(first and first.inferred),
                right=bool(first and move_in_fix(first, fixes, candidate)),
                fix=case["minimal_fix"]["moves_text"],
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inferred-only", action="store_true", help="switch the curated classes off")
    parser.add_argument("--verbose", action="store_true", help="one line per case")
    args = parser.parse_args()
    catalog = load_catalog()
    if args.inferred_only:
        catalog = catalog.without_classes()
    outcomes = list(evaluate(catalog))
    by_case: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_case.setdefault(o.case, []).append(o)
    all_forms_right = [c for c, os_ in by_case.items() if all(o.right for o in os_)]
    classified = [c for c, os_ in by_case.items() if os_[0].class_id]
    print(f"catalogue: {'off (inferred moves only)' if args.inferred_only else f'{len(catalog.classes)} classes'}")
    print(f"captures: {len(by_case)}; forms per capture: {', '.join(FORMS)}")
    print(f"first move part of the verified fix, in every form: {len(all_forms_right)}/{len(by_case)}")
    print(f"classified to a curated class: {len(classified)}/{len(by_case)}")
    for form in FORMS:
        right = sum(o.right for o in outcomes if o.form == form)
        print(f"  {form:<7} {right}/{len(by_case)}")
    wrong = [os_[0] for c, os_ in by_case.items() if c not in all_forms_right]
    if wrong or args.verbose:
        print("\ncases whose first move is not part of the verified fix:" if wrong else "")
        for o in wrong:
            print(f"  {o.case:<46} class={o.class_id} first={o.first!r} fix={o.fix!r}")
    if args.verbose:
        print()
        for c, os_ in by_case.items():
            o = os_[0]
            print(f"  {'ok ' if c in all_forms_right else '-- '}{c:<46} {o.class_id or '(inferred)':<36} {o.first}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


# --- searches against the real SGLang (shared by bench/captures_search.py and the tests) ----

MODELS = ROOT / "tests" / "data" / "models"
FILES = ROOT / "tests" / "data" / "sglang-0.5.23" / "files"


def real_argv(case: dict[str, Any]) -> list[str]:
    """The case's argv with {models} and {files} pointing at the committed fixtures."""
    return [a.replace("{models}", str(MODELS)).replace("{files}", str(FILES)) for a in case["argv"]]


def bench_unit(case_id: str) -> str:
    """A unit name of this benchmark process alone (runs of several versions side by side)."""
    import os
    import re

    return f"bench-{os.getpid()}-" + re.sub(r"[^A-Za-z0-9_.@-]", "-", case_id)


def base_yaml(case: dict[str, Any], python: str, max_attempts: int = 12) -> str:
    """A base config that searches the case with preflight only, on this machine."""
    import yaml

    data = {
        "name": case["id"],
        "host": "local",
        # The lock on a real host is the machine's, per unit: each benchmark run has its own.
        "service": {"unit": bench_unit(case["id"])},
        "launch": {"python": python, "args": argv_to_args(real_argv(case))},
        "gates": {"preflight": {"timeout": 120}},
        "search": {"max_attempts": max_attempts, "pinned": ["model-path", "device"]},
    }
    return yaml.safe_dump(data, sort_keys=False)
