"""The command line contract: exit codes, one-line errors, nothing written on bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT


def autofix(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "TMPDIR": str(cwd)}  # the test's own work dirs
    env.pop("AUTOFIX_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "autofix.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        check=False,
    )


@pytest.mark.parametrize(
    ("yaml_text", "words"),
    [
        (None, "missing.yaml: no such file"),
        ("launch:\n  args: {m: 1}\nhots: sim\n", "base.yaml: hots: unknown key (did you mean host?)"),
        ("launch:\n  args:\n    'bad;rm': 1\n", "base.yaml: launch.args.bad;rm: flag names are"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path: Path, yaml_text: str | None, words: str) -> None:
    """Missing file, unknown key, flag named --bad;rm: exit 2, one line, no runs.db."""
    name = "missing.yaml" if yaml_text is None else "base.yaml"
    if yaml_text is not None:
        (tmp_path / name).write_text(yaml_text)
    done = autofix("search", "--base", name, "--host", "sim", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and words in lines[0]
    assert not (tmp_path / "runs.db").exists()


def test_bad_options_exit_2(tmp_path: Path) -> None:
    """An unknown gate or a bad --host is bad input too."""
    base = tmp_path / "b.yaml"
    base.write_text((ROOT / "examples" / "k26-eagle3.yaml").read_text())
    done = autofix("search", "--base", str(base), "--gates", "preflight,smok", cwd=tmp_path)
    assert done.returncode == 2 and "unknown gate 'smok'" in done.stderr
    done = autofix("search", "--base", str(base), "--host", "a b", cwd=tmp_path)
    assert done.returncode == 2 and "--host" in done.stderr
    assert not (tmp_path / "runs.db").exists()


def test_unknown_run_is_exit_2(tmp_path: Path) -> None:
    """history/show/export of an id the store does not have: exit 2."""
    for cmd in (["history", "9"], ["show", "9"], ["export", "9"]):
        done = autofix(*cmd, cwd=tmp_path)
        assert done.returncode == 2, (cmd, done.stderr)
        assert "no such" in done.stderr


def test_unreachable_store_is_exit_3(tmp_path: Path) -> None:
    """A store that cannot be opened is exit 3."""
    done = autofix("history", "--db", "sqlite:////nonexistent-dir/x/runs.db", cwd=tmp_path)
    assert done.returncode == 3, done.stderr


def test_classify_json_offline() -> None:
    """classify --json reads journal text from stdin and prints the contract's fields."""
    import json

    text = (ROOT / "tests/data/sglang-0.5.23/tracebacks/spec-eagle3-draft-tokens-topk-without-steps.log").read_text()
    done = autofix("classify", "-", "--json", cwd=ROOT, stdin=text)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["class"] == "spec-eagle-params-incomplete"
    assert data["exception"] == "AssertionError"
    assert data["frame"]["function"] == "_handle_eagle_family"
    # Offline there is no argv to compute num-steps from; the class's other moves remain.
    labels = [(m["op"], m["flag"]) for m in data["moves"]]
    assert (
        labels[0] == ("drop", "speculative-eagle-topk")
        and data["moves"][0]["with"][0]["flag"] == "speculative-num-draft-tokens"
    )
    assert ("set", "speculative-num-steps") in labels
    assert set(data) == {"class", "fingerprint", "exception", "message", "frame", "moves"}


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("launch:\n  args: {m: 1}\n  env: " + "[" * 3000 + "]" * 3000 + "\n", "b.yaml: "),
        ("launch:\n  args: {model-path: /m, tp: " + "9" * 4301 + "}\n", "b.yaml: "),
        ('launch:\n  args: {model-path: /m, served-model-name: "\\ud800"}\n', "b.yaml: launch.args.served-model-name"),
        ("launch:\n  args: {m: 1}\n" + "#" * (1 << 20) + "\n", "b.yaml: "),
    ],
    ids=["deep", "bigint", "surrogate", "over-1MB"],
)
def test_hostile_bases_exit_2_in_one_line(tmp_path: Path, text: str, words: str) -> None:
    """Bases that used to raise deep inside PyYAML or at the store: exit 2, one line naming
    the file (and key), no runs.db."""
    (tmp_path / "b.yaml").write_text(text)
    done = autofix("search", "--base", "b.yaml", "--host", "sim", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert words in _one_line(done)
    assert not (tmp_path / "runs.db").exists()


def test_classify_with_stdin_closed_exits_2(tmp_path: Path) -> None:
    """`autofix classify - <&-`: there is no standard input to read; say so."""
    done = subprocess.run(
        ["sh", "-c", f"exec {sys.executable} -m autofix.cli classify - <&-"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "standard input" in _one_line(done)


def _store_with_a_run(tmp_path: Path) -> Path:
    from autofix.model import AttemptState, Candidate, Failure, Gate, GateVerdict, RunStatus
    from autofix.store import open_store

    db = tmp_path / "runs.db"
    store = open_store(f"sqlite:///{db}")
    text = "name: e\nlaunch:\n  python: /usr/bin/python3\n  args: {model-path: /m}\n"
    run = store.create_run(name="e", base_path="e.yaml", base_text=text, host="sim", target="sim")
    a = store.begin_attempt(
        run.id, Candidate.build({"model-path": "/m"}), parent_id=None, move=None, host="sim", target_version="x"
    )
    hostile = "boom \x1b[2J\x1b]0;pwned\x07 \x9b31m \u202eevil"
    store.finish_attempt(
        a.id,
        state=AttemptState.PASSED,
        verdicts=[GateVerdict(Gate.READY, True, 1.0, f"model {hostile}")],
        failure=Failure(Gate.START, None, "fp", "RuntimeError", hostile, None, "Traceback\n" + hostile),
        log_excerpt="[2026] log line " + hostile,
    )
    store.finish_run(run.id, RunStatus.PASSED, a.id)
    store.close()
    return db


@pytest.mark.parametrize(
    ("sql", "words"),
    [
        ("update alembic_version set version_num = '0099'", "schema revision 0099"),
        ("update attempts set state = 'exploded'", "attempts row 1: unknown state 'exploded'"),
        ("update attempts set candidate_json = '{'", "attempts row 1: candidate_json is not valid JSON"),
    ],
)
def test_broken_or_newer_stores_exit_3(tmp_path: Path, sql: str, words: str) -> None:
    """A store from a newer autofix, an unknown state, broken JSON: exit 3, one line."""
    import sqlite3

    db = _store_with_a_run(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute(sql)
    done = autofix("history", "1", cwd=tmp_path)
    assert done.returncode == 3 and words in _one_line(done)


def test_a_database_url_without_its_driver_exits_3(tmp_path: Path) -> None:
    """--db mysql://… where MySQLdb is not installed: exit 3, the URL (no password) and the fix."""
    done = autofix("history", "--db", "mysql://u:pw@db.example/x", cwd=tmp_path)
    line = _one_line(done)
    assert done.returncode == 3 and "mysql://u:***@db.example/x" in line and "pip install" in line


def test_server_text_is_shown_with_control_characters_escaped(tmp_path: Path) -> None:
    """A model id, a server's message and its log lines cannot drive the terminal: show
    prints ESC, BEL, CSI and bidi overrides as visible escapes."""
    _store_with_a_run(tmp_path)
    done = autofix("show", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert raw not in done.stdout + done.stderr
    assert "\\x1b[2J" in done.stdout and "\\u202e" in done.stdout


def _has_open(pid: int, name: str) -> bool:
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}").endswith(name) for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def test_sigint_during_export_leaves_nothing_half_written(tmp_path: Path) -> None:
    """Ctrl-C at any moment of `export -o` once it reads the store: exit 130 (or 0 when
    it had finished), never a traceback, the file either absent or whole, no temp file."""
    import random
    import signal
    import time

    _store_with_a_run(tmp_path)
    rng = random.Random(15)
    env = {**os.environ}
    env.pop("AUTOFIX_DB", None)
    for i in range(12):
        target = tmp_path / f"u{i}.service"
        proc = subprocess.Popen(
            [sys.executable, "-m", "autofix", "export", "1", "-o", str(target)],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.time() + 30
        while not _has_open(proc.pid, "runs.db") and proc.poll() is None and time.time() < deadline:
            time.sleep(0.002)
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
        # -2: ended by the SIGINT itself as it exited, which a shell reports as 130.
        assert proc.returncode in (0, 130, -2) and "Traceback" not in stderr, stderr
        if target.exists():
            assert target.read_text().endswith("WantedBy=multi-user.target\n")
    assert not list(tmp_path.glob(".u*"))


def test_sigint_while_the_command_line_starts_is_quiet(tmp_path: Path) -> None:
    """Ctrl-C while autofix's modules are still importing: 'interrupted', exit 130, no
    traceback (autofix/__main__.py arms this before importing anything of the CLI)."""
    code = (
        "import os, signal, autofix.__main__ as entry\n"
        "signal.signal(signal.SIGINT, entry._interrupted_while_starting)\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "import autofix.cli\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (130, "autofix: interrupted\n")


def test_sigint_after_the_command_finished_is_quiet(tmp_path: Path) -> None:
    """Ctrl-C that lands once the command is done, while Python shuts down (CI caught one
    in threading's exit wait): no 'Exception ignored' traceback, the exit code unchanged."""
    code = (
        "import os, signal, threading, time, autofix.__main__ as entry\n"
        "entry.quiet_interrupts()\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "def late(): time.sleep(0.3); os.kill(os.getpid(), signal.SIGINT); time.sleep(0.3)\n"
        "threading.Thread(target=late).start()\n"
        "print('done')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.stdout == "done\n" and "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 130), done.returncode


def test_sigint_between_the_command_and_exit_is_quiet(tmp_path: Path) -> None:
    """Ctrl-C after a command's own handler let go but before Python exits reaches the top
    level: one 'interrupted' line, no traceback, ended by the interrupt (130 in a shell)."""
    code = "import autofix.__main__ as entry\nentry.quiet_interrupts()\nraise KeyboardInterrupt\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) in ((-2, "autofix: interrupted\n"), (130, "autofix: interrupted\n"))
