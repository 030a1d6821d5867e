"""Measure issue #15's reproductions: secrets, exports, the exit-code contract, escapes.

Each section prints its cases and a count, the way the issue states them ("8 of 11
spellings leak"), so a run before a change and a run after it can be put side by side.
Everything goes through what a user touches: the command line (``autofix search --host
sim``, ``export``, ``show``, ``classify``), and in-process only for the service managers'
host commands (systemd cannot run as PID 1 here; its commands are recorded instead).

Run it in a private network namespace (the sim binds ports), from the checkout:

    unshare -n sh -c 'ip link set lo up && .venv/bin/python bench/hostile.py'
    unshare -n sh -c 'ip link set lo up && .venv/bin/python bench/hostile.py --only secrets,exports'
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.systemd_rules import parse_environment_file, systemd_can_read, systemd_reads  # noqa: E402

EXAMPLE = (ROOT / "examples" / "k26-eagle3.yaml").read_text()
SECTIONS: dict[str, Callable[[Path], None]] = {}


def section(name: str) -> Callable[[Callable[[Path], None]], Callable[[Path], None]]:
    def register(fn: Callable[[Path], None]) -> Callable[[Path], None]:
        SECTIONS[name] = fn
        return fn

    return register


def autofix(*args: str, cwd: Path, stdin: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AUTOFIX_SIM_LOAD_S": "0.2", "TMPDIR": str(cwd), "COLUMNS": "200"}
    env.pop("AUTOFIX_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "autofix.cli", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def stored_bytes(directory: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(directory.glob("runs.db*")) if p.is_file())


def with_env(lines: str) -> str:
    """The seed's example with ``lines`` in place of its launch.env block."""
    old = "  env:\n    NCCL_PROTO: LL\n    NCCL_ALGO: Ring\n"
    assert old in EXAMPLE
    return EXAMPLE.replace(old, lines)


# --- secrets ---------------------------------------------------------------------------------

# (label, launch.env block, the secret's value after YAML, the pieces of it the text shows)
SPELLINGS: list[tuple[str, str, str, list[str]]] = [
    ("plain (control)", "  env:\n    HF_TOKEN: hf_C0ntrolSecret1\n", "hf_C0ntrolSecret1", ["hf_C0ntrolSecret1"]),
    ('"quoted" key', '  env:\n    "HF_TOKEN": hf_DqKeySecret2\n', "hf_DqKeySecret2", ["hf_DqKeySecret2"]),
    ("'quoted' key", "  env:\n    'HF_TOKEN': hf_SqKeySecret3\n", "hf_SqKeySecret3", ["hf_SqKeySecret3"]),
    (">- folded", "  env:\n    HF_TOKEN: >-\n      hf_FoldedSecret4\n", "hf_FoldedSecret4", ["hf_FoldedSecret4"]),
    ("|- literal", "  env:\n    HF_TOKEN: |-\n      hf_LiteralSecret5\n", "hf_LiteralSecret5", ["hf_LiteralSecret5"]),
    (
        "multi-line plain",
        "  env:\n    HF_TOKEN: hf_MultiSecret6\n      continuedSix\n",
        "hf_MultiSecret6 continuedSix",
        ["hf_MultiSecret6", "continuedSix"],
    ),
    (
        '\\ continuation in "…"',
        '  env:\n    HF_TOKEN: "hf_ContSecret7\\\n      continuedSeven"\n',
        "hf_ContSecret7continuedSeven",
        ["hf_ContSecret7", "continuedSeven"],
    ),
    ("# inside quotes", '  env:\n    HF_TOKEN: "hf_Hash#Secret8"\n', "hf_Hash#Secret8", ["hf_Hash", "Secret8"]),
    (
        ", inside quotes (flow)",
        '  env: {NCCL_PROTO: LL, HF_TOKEN: "hf_Comma,Secret9"}\n',
        "hf_Comma,Secret9",
        ["hf_Comma", "Secret9"],
    ),
    ("? KEY", "  env:\n    ? HF_TOKEN\n    : hf_QuestionSecret10\n", "hf_QuestionSecret10", ["hf_QuestionSecret10"]),
    ("escaped key", '  env:\n    "HF\\x5fTOKEN": hf_EscKeySecret11\n', "hf_EscKeySecret11", ["hf_EscKeySecret11"]),
    ("flow mapping", "  env: {HF_TOKEN: hf_FlowSecret12}\n", "hf_FlowSecret12", ["hf_FlowSecret12"]),
]


def _search(directory: Path, text: str, *before: str) -> tuple[subprocess.CompletedProcess[str], int | None]:
    """``autofix [BEFORE] search`` of ``text`` on the sim, preflight only; its run id."""
    (directory / "b.yaml").write_text(text)
    done = autofix(
        *before, "search", "--base", "b.yaml", "--host", "sim", "--gates", "preflight", "--json", cwd=directory
    )
    try:
        run = json.loads(done.stdout.strip().splitlines()[-1])["run"]
    except (ValueError, IndexError, KeyError):
        run = None
    return done, run


def _exports(directory: Path, run: int | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for fmt in ("unit", "argv", "env", "yaml"):
        done = autofix("export", str(run), "--format", fmt, cwd=directory)
        out[fmt] = done.stdout + done.stderr
    return out


@section("secrets")
def secrets(tmp: Path) -> None:
    print("Secrets in launch.env, 12 YAML spellings (1 control + 11 others): does the value reach runs.db?")
    leaks = 0
    for i, (label, block, value, pieces) in enumerate(SPELLINGS):
        directory = tmp / f"spelling{i}"
        directory.mkdir()
        done, run = _search(directory, with_env(block), "-v", "--log-json")
        loaded = yaml.safe_load(with_env(block))["launch"]["env"]["HF_TOKEN"]
        assert loaded == value, (label, loaded)
        stored = stored_bytes(directory)
        hit = [p for p in pieces if p.encode() in stored]
        exports = _exports(directory, run)
        in_export = [f for f, t in exports.items() if any(p in t for p in pieces)]
        in_logs = any(p in done.stderr + done.stdout for p in pieces)
        if i and hit:
            leaks += 1
        print(
            f"  {label:<24} search exit {done.returncode}  store: {'LEAK ' + ','.join(hit) if hit else 'clean'}"
            f"  logs: {'LEAK' if in_logs else 'clean'}  exports: {','.join(in_export) or 'clean'}"
        )
    print(f"  => {leaks} of {len(SPELLINGS) - 1} other spellings leave the secret in the store")

    print("A secret passed as a flag (api-key, admin-api-key, ssl-keyfile-password):")
    directory = tmp / "flag"
    directory.mkdir()
    text = EXAMPLE.replace(
        "    port: 30001\n",
        "    port: 30001\n    api-key: sk-FlagSecret13\n    admin-api-key: sk-AdminSecret14\n"
        "    ssl-keyfile-password: PwSecret15\n",
    )
    done, run = _search(directory, text, "-v", "--log-json")
    flag_secrets = ["sk-FlagSecret13", "sk-AdminSecret14", "PwSecret15"]
    stored = stored_bytes(directory)
    print(f"  search exit {done.returncode}; in runs.db: {[s for s in flag_secrets if s.encode() in stored]}")
    print(f"  in the logs (-v): {[s for s in flag_secrets if s in done.stderr + done.stdout]}")
    for fmt, text_out in _exports(directory, run).items():
        print(f"  export --format {fmt}: {[s for s in flag_secrets if s in text_out]}")
    unit = directory / "u.service"
    autofix("export", str(run), "-o", str(unit), cwd=directory)
    if unit.exists():
        mode = oct(unit.stat().st_mode & 0o777)
        print(
            f"  export -o u.service: mode {mode}, secrets in it: {[s for s in flag_secrets if s in unit.read_text()]}"
        )


# --- the host's process table ----------------------------------------------------------------


class _Recorder:
    """A local host that records every command; systemctl answers from a capture."""

    def __init__(self, workdir: Path) -> None:
        from autofix.hosts.local import LocalHost

        self.inner = LocalHost(workdir=str(workdir))
        self.workdir = self.inner.workdir
        self.name = "recorded"
        self.user = "ubuntu"
        self.commands: list[list[str]] = []

    def run(self, argv: Sequence[str], **kwargs: Any) -> Any:
        from autofix.hosts.base import CommandResult

        self.commands.append(list(argv))
        plain = [a for a in argv if a not in ("sudo", "-n")]
        if plain[:2] == ["systemctl", "show"]:
            text = (ROOT / "tests" / "data" / "systemd" / "show-running.txt").read_text()
            return CommandResult(tuple(argv), 0, text, "")
        if plain and plain[0] in ("systemd-run", "systemctl"):
            return CommandResult(tuple(argv), 0, "", "")
        return self.inner.run(argv, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _files_holding(root: Path, needles: Sequence[str]) -> list[str]:
    found = []
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            if any(n.encode() in data for n in needles):
                found.append(str(path.relative_to(root)))
    return found


def _cmdlines_holding(needles: Sequence[str]) -> list[str]:
    hits = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if any(n.encode() in cmdline for n in needles):
            hits.append(cmdline.replace(b"\0", b" ").decode(errors="replace")[:120])
    return hits


def _target(kind: str, python: str, module: str, env: tuple[tuple[str, str], ...], config: Any) -> Any:
    """The target as autofix builds it from the config (make_target), where it can know
    the config's secrets; before #15 a Target had no such field."""
    from autofix.targets import Target

    try:
        return Target(kind, python, module, env, secrets=config.secrets)  # type: ignore[call-arg]
    except (TypeError, AttributeError):
        return Target(kind, python, module, env)


@section("host")
def host(tmp: Path) -> None:
    from autofix.config import parse_base
    from autofix.services import ProcessManager
    from autofix.systemd import SystemdManager

    needles = ["hf_HostSecret16", "sk-HostFlag17"]
    text = (
        "launch:\n  args: {model-path: /m, api-key: sk-HostFlag17}\n"
        "  env: {HF_TOKEN: hf_HostSecret16, NCCL_ALGO: Ring}\n"
    )
    config = parse_base(text, source="h.yaml")
    print("systemd manager (sudo -n systemd-run …), commands recorded:")
    workdir = tmp / "systemd"
    recorder = _Recorder(workdir)
    manager = SystemdManager(recorder, sys.executable)  # type: ignore[arg-type]
    target = _target("sglang", "/opt/sglang/.venv/bin/python", "sglang.launch_server", (), config)
    handle = manager.start("autofix-1-1-abc", config.base, target, None)
    during = _files_holding(workdir, needles)
    manager.stop(handle)
    leaked = [" ".join(c)[:140] for c in recorder.commands if any(n in " ".join(c) for n in needles)]
    print(f"  {len(leaked)} of {len(recorder.commands)} host commands hold a secret")
    for line in leaked:
        print(f"    {line}")
    print(f"  files holding a secret while it runs: {during}; after stop: {_files_holding(workdir, needles)}")

    print("process manager (supervise.py), a candidate that runs 2 s:")
    workdir = tmp / "process"
    (tmp / "mods").mkdir()
    (tmp / "mods" / "sleeper.py").write_text("import time\ntime.sleep(2)\n")
    from autofix.hosts.local import LocalHost

    local = LocalHost(workdir=str(workdir))
    target = _target("sglang", sys.executable, "sleeper", (("PYTHONPATH", str(tmp / "mods")),), config)
    pm = ProcessManager(local, sys.executable)
    handle = pm.start("autofix-1-2-def", config.base, target, None)
    time.sleep(0.5)
    in_ps = _cmdlines_holding(needles)
    deadline = time.time() + 30
    while pm.state(handle).running and time.time() < deadline:
        time.sleep(0.2)
    print(f"  process table while it runs: {len(in_ps)} command line(s) hold a secret")
    for line in in_ps:
        print(f"    {line}")
    print(f"  files holding a secret after it ended: {_files_holding(workdir, needles)}")


# --- exports ---------------------------------------------------------------------------------

HOSTILE_ENV = [
    "plain",
    "with space",
    'quote"inside',
    "single'quote",
    "back\\slash",
    "$HOME and ${X}",
    "100%",
    "%n%%",
    ";",
    "a;b",
    "$(rm -rf /)",
    "`reboot`",
    "tab\there",
    "ünïcødé",
    "",
    "-leading-dash",
    "  padded  ",
    "ends with \\",
]

YAML_VALUES = [
    "nan",
    "inf",
    "-inf",
    "1.0",
    "1e3",
    "0x10",
    "010",
    "1_000",
    "1:30",
    "yes",
    "null",
    "~",
    "2001-12-14",
    ".5",
]


def _ctx(args: Mapping[str, object], env: Mapping[str, object]) -> Any:
    from autofix.config import parse_base
    from autofix.export import ExportContext

    text = yaml.safe_dump({"launch": {"python": "/usr/bin/python3", "args": dict(args), "env": dict(env)}})
    config = parse_base(text, source="x.yaml")
    return ExportContext(config, config.base, run_id=1, attempt_id=1)


@section("exports")
def exports(tmp: Path) -> None:
    from autofix.config import parse_base
    from autofix.errors import ConfigError
    from autofix.export import render

    env = {f"E{i}": v for i, v in enumerate(HOSTILE_ENV)}
    ctx = _ctx({"model-path": "/m"}, env)
    text = render("env", ctx)
    back = parse_environment_file(text)
    changed = [(v, back.get(k)) for k, v in env.items() if back.get(k) != v]
    print(f"--format env: {len(changed)} of {len(env)} hostile values change under systemd's EnvironmentFile rules")
    for want, got in changed:
        print(f"    {want!r} -> {got!r}")
    why = systemd_can_read()
    if why is None:
        same = [k for k, v in env.items() if systemd_reads(text, {k: v})]
        print(f"  systemd's own parser (systemd-analyze condition) agrees for {len(same)} of {len(env)}")
    else:
        print(f"  (systemd's own parser not asked: {why})")

    failures = []
    refused = []
    for value in YAML_VALUES:
        try:
            ctx = _ctx({"model-path": "/m", "x": value}, {"E": value})
        except ConfigError:
            refused.append(value)  # not a value the config accepts in the first place
            continue
        try:
            again = parse_base(render("yaml", ctx), source="exported.yaml")
            if again.base.key != ctx.candidate.key:
                failures.append(f"{value!r}: comes back as {again.base.arg('x')!r} / {again.base.env_value('E')!r}")
        except ConfigError as exc:
            failures.append(f"{value!r}: refused on reimport: {exc}")
    tried = len(YAML_VALUES) - len(refused)
    print(f"--format yaml: {len(failures)} of {tried} accepted values do not come back as the same candidate")
    if refused:
        print(f"    (refused by the config as a flag value in the first place: {', '.join(map(repr, refused))})")
    for line in failures:
        print(f"    {line}")


# --- the exit-code contract --------------------------------------------------------------------


def _one_line_verdict(done: subprocess.CompletedProcess[str], codes: tuple[int, ...]) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    traceback = "Traceback (most recent call last)" in done.stderr
    ok = done.returncode in codes and not traceback and len(lines) == 1
    shown = lines[-1][:110] if lines else "(nothing on stderr)"
    return f"{'ok  ' if ok else 'FAIL'} exit {done.returncode}{' traceback' if traceback else ''}: {shown}"


def _make_run(directory: Path) -> int:
    done, run = _search(directory, EXAMPLE)
    assert run is not None, done.stderr
    return run


@section("exits")
def exits(tmp: Path) -> None:
    results: list[tuple[str, str, bool]] = []

    def case(label: str, done: subprocess.CompletedProcess[str], codes: tuple[int, ...] = (2,)) -> None:
        verdict = _one_line_verdict(done, codes)
        results.append((label, verdict, verdict.startswith("ok")))

    def base_case(label: str, text: str) -> None:
        directory = tmp / f"x{len(results)}"
        directory.mkdir()
        (directory / "b.yaml").write_text(text)
        case(label, autofix("search", "--base", "b.yaml", "--host", "sim", "--gates", "preflight", cwd=directory))

    base_case("deeply nested YAML", "launch:\n  args: {m: 1}\n  env: " + "[" * 3000 + "]" * 3000 + "\n")
    base_case("an int of 4,301 digits", "launch:\n  args: {model-path: /m, tp: " + "9" * 4301 + "}\n")
    base_case('"\\ud800"', 'launch:\n  args: {model-path: /m, served-model-name: "\\ud800"}\n')
    big = EXAMPLE + "".join(f"# padding line {i:07d} " + "x" * 80 + "\n" for i in range(12_000))
    base_case("a 1.1 MB base", big)

    directory = tmp / "stdin"
    directory.mkdir()
    env = {**os.environ}
    done = subprocess.run(
        ["sh", "-c", f"exec {sys.executable} -m autofix.cli classify - <&-"],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    case("classify - <&- (closed stdin)", done)

    directory = tmp / "store"
    directory.mkdir()
    run = _make_run(directory)
    db = directory / "runs.db"
    for label, sql in [
        ("a store of a newer schema revision", "update alembic_version set version_num = '0099'"),
        ("an unknown state in a stored row", "update attempts set state = 'exploded' where seq = 1"),
        ("broken JSON in a stored row", "update attempts set candidate_json = '{\"args\": [' where seq = 1"),
    ]:
        copy = directory / f"c{len(results)}.db"
        copy.write_bytes(db.read_bytes())
        with sqlite3.connect(copy) as conn:
            conn.execute(sql)
        case(label, autofix("history", str(run), "--db", f"sqlite:///{copy}", cwd=directory), (3,))
    case(
        "--db mysql://… without its driver",
        autofix("history", "--db", "mysql://u:pw@db.example/x", cwd=directory),
        (3,),
    )

    merge = EXAMPLE.replace("    tp: 8\n", "    <<: {tp: 8}\n")
    directory = tmp / "merge"
    directory.mkdir()
    (directory / "b.yaml").write_text(merge)
    done = autofix("search", "--base", "b.yaml", "--host", "sim", "--gates", "preflight", cwd=directory)
    merged = done.returncode == 0
    results.append(("YAML merge keys (<<:)", f"{'ok  ' if merged else 'FAIL'} exit {done.returncode}", merged))

    results.append(_interrupted_exports(tmp / "sigint", run_from=directory))
    print("The exit-code contract: exit 2 (input) or 3 (store/host), one line, never a traceback")
    for label, verdict, _ in results:
        print(f"  {label:<38} {verdict}")
    print(f"  => {sum(ok for *_, ok in results)} of {len(results)} as the contract says")


def _interrupted_exports(directory: Path, run_from: Path, tries: int = 20) -> tuple[str, str, bool]:
    """SIGINT at random moments of ``export -o``: a traceback, or anything half-written?"""
    import random

    directory.mkdir()
    for name in ("runs.db", "runs.db-wal", "runs.db-shm"):
        if (run_from / name).exists():
            (directory / name).write_bytes((run_from / name).read_bytes())
    rng = random.Random(15)
    tracebacks = bad_files = before_autofix = 0
    # The command a user runs: python -m autofix where it exists (#15), else the CLI module.
    entry = "autofix" if (ROOT / "autofix" / "__main__.py").exists() else "autofix.cli"
    for i in range(tries):
        target = directory / f"u{i}.service"
        env = {**os.environ}
        env.pop("AUTOFIX_DB", None)
        proc = subprocess.Popen(
            [sys.executable, "-m", entry, "export", "1", "-o", str(target)],
            cwd=directory,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(rng.uniform(0.05, 0.9))
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
        if "Traceback" in stderr:
            # Still in the interpreter's own start (runpy finding the module): no autofix
            # code has run yet, nothing of it can handle the signal.
            if "/autofix/" not in stderr:
                before_autofix += 1
            else:
                tracebacks += 1
        if target.exists() and not target.read_text().endswith("WantedBy=multi-user.target\n"):
            bad_files += 1
        bad_files += len(list(directory.glob(f".u{i}.service.*")))
    ok = tracebacks == 0 and bad_files == 0
    return (
        f"SIGINT during export -o ({tries} tries)",
        f"{'ok  ' if ok else 'FAIL'} {tracebacks} traceback(s) from autofix, {bad_files} half-written or stray"
        f" file(s); {before_autofix} in the interpreter's start, before any autofix code",
        ok,
    )


# --- terminal escapes --------------------------------------------------------------------------


@section("escapes")
def escapes(tmp: Path) -> None:
    directory = tmp / "esc"
    directory.mkdir()
    text = EXAMPLE.replace(
        "    port: 30001\n", '    port: 30001\n    served-model-name: "k26\\e[31mRED\\e]0;title\\a"\n'
    )
    (directory / "b.yaml").write_text(text)
    done = autofix(
        "search", "--base", "b.yaml", "--host", "sim", "--gates", "preflight,start,ready,smoke", cwd=directory
    )
    print("Control characters reaching the terminal raw (ESC, BEL):")
    print(f"  search (model id): exit {done.returncode}, raw ESC in its output: {chr(27) in done.stderr + done.stdout}")
    from autofix.model import AttemptState, Candidate, Failure, Gate, GateVerdict
    from autofix.store import open_store

    store = open_store(f"sqlite:///{directory / 'esc.db'}")
    run = store.create_run(name="esc", base_path="b.yaml", base_text=EXAMPLE, host="sim", target="sim")
    attempt = store.begin_attempt(
        run.id, Candidate.build({"m": "1"}), parent_id=None, move=None, host="sim", target_version="x"
    )
    hostile = "boom \x1b[2J\x1b]0;pwned\x07 \x9b31m"
    store.finish_attempt(
        attempt.id,
        state=AttemptState.FAILED,
        verdicts=[GateVerdict(Gate.START, False, 1.0, "server said " + hostile)],
        failure=Failure(Gate.START, None, "fp", "RuntimeError", hostile, None, "Traceback\n" + hostile),
        log_excerpt="[2026] log line " + hostile,
    )
    shown = autofix("show", str(attempt.id), "--db", f"sqlite:///{directory / 'esc.db'}", cwd=directory)
    raw = [c for c in ("\x1b", "\x07", "\x9b") if c in shown.stdout + shown.stderr]
    print(f"  show (server text, log lines): exit {shown.returncode}, raw control characters: {raw}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help=f"comma list out of {','.join(SECTIONS)}")
    args = parser.parse_args(argv)
    chosen = args.only.split(",") if args.only else list(SECTIONS)
    with tempfile.TemporaryDirectory(prefix="autofix-hostile-") as tmp:
        for name in chosen:
            print(f"== {name}")
            try:
                SECTIONS[name](Path(tmp) / name if (Path(tmp) / name).mkdir() is None else Path(tmp))
            except Exception as exc:  # a section that cannot run says so; the others go on
                print(f"  section {name} could not run: {type(exc).__name__}: {exc}")
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
