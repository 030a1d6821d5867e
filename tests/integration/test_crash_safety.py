"""The record under stress: two writers on one SQLite store; autofix SIGKILLed at random
points of a sim run and resumed, again and again."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..conftest import ROOT
from .helpers import left_running

pytestmark = pytest.mark.integration

WRITER = """
import sys
from autofix.model import AttemptState, Candidate, GateVerdict, Gate
from autofix.store import open_store
store = open_store(sys.argv[1])
run = store.create_run(name=sys.argv[2], base_path="b", base_text="", host="h", target="t")
for i in range(int(sys.argv[3])):
    a = store.begin_attempt(run.id, Candidate.build({"i": i, "w": sys.argv[2]}), parent_id=None, move=None, host="h", target_version="v")
    store.finish_attempt(a.id, state=AttemptState.FAILED, verdicts=[GateVerdict(Gate.PREFLIGHT, False, 0.01)], failure=None)
print(run.id)
"""


def test_two_writers_on_one_sqlite_store_lose_nothing(tmp_path: Path) -> None:
    """Two processes writing 150 attempts each at once: all 300 there, none twice."""
    url = f"sqlite:///{tmp_path / 'runs.db'}"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, url, name, "150"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for name in ("a", "b")
    ]
    runs = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        runs.append(int(out.strip()))
    with sqlite3.connect(tmp_path / "runs.db") as conn:
        for run in runs:
            seqs = [r[0] for r in conn.execute("select seq from attempts where run_id = ? order by seq", (run,))]
            assert seqs == list(range(1, 151))
        assert conn.execute("select count(*) from attempts where state = 'running'").fetchone()[0] == 0


def _has_run(db: Path) -> bool:
    if not db.exists():
        return False
    with sqlite3.connect(db) as conn:
        try:
            return conn.execute("select count(*) from runs where id = 1").fetchone()[0] == 1
        except sqlite3.OperationalError:  # killed before the migrations made the table
            return False


def test_random_sigkills_then_resume(tmp_path: Path) -> None:
    """Killed at random moments five times, resumed each time: the store stays sound,
    every attempt appears once, nothing is left running, and the run ends passed."""
    rng = random.Random(int(os.environ.get("AUTOFIX_TEST_KILL_SEED", "20261202")))
    env = {**os.environ, "AUTOFIX_SIM_LOAD_S": "1.5", "TMPDIR": str(tmp_path)}
    env.pop("AUTOFIX_DB", None)
    base = str(ROOT / "examples" / "k26-eagle3.yaml")
    command = [
        sys.executable,
        "-m",
        "autofix.cli",
        "search",
        "--base",
        base,
        "--host",
        "sim",
        "--json",
        "--gates",
        "preflight,start,ready,smoke",
    ]
    rounds = int(os.environ.get("AUTOFIX_TEST_KILL_ROUNDS", "5"))  # more for a longer soak of kills
    kills = 0
    for round_ in range(rounds + 1):
        # A kill before the run was created (a loaded machine is slow to start) leaves
        # nothing to resume: the operator starts again, as here.
        args = [*command, "--resume", "1"] if _has_run(tmp_path / "runs.db") else command
        proc = subprocess.Popen(args, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if round_ < rounds:
            time.sleep(rng.uniform(0.3, 4.0))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            proc.communicate(timeout=60)
            with sqlite3.connect(tmp_path / "runs.db") as conn:  # never corrupt
                assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
            continue
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1])["status"] == "passed"
    assert kills >= 3
    with sqlite3.connect(tmp_path / "runs.db") as conn:
        rows = conn.execute("select seq, state from attempts where run_id = 1 order by seq").fetchall()
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))  # each attempt once, no gaps
    assert all(state != "running" for _, state in rows)
    time.sleep(1.0)
    assert left_running(tmp_path) == []
    print(f"kills survived: {kills} of {rounds} rounds; attempts {len(rows)}, each once, none running")


def _search(tmp_path: Path, *extra: str, hold: str = "") -> subprocess.Popen[str]:
    env = {**os.environ, "AUTOFIX_SIM_LOAD_S": "1", "TMPDIR": str(tmp_path), "AUTOFIX_TEST_HOLD": hold}
    env.pop("AUTOFIX_DB", None)
    command = [sys.executable, "-m", "autofix.cli", "search", "--base", str(ROOT / "examples" / "k26-eagle3.yaml")]
    command += ["--host", "sim", "--json", "--gates", "preflight,start,ready,smoke", *extra]
    return subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _killed_at(proc: subprocess.Popen[str], window: str) -> str:
    """Wait for the controller to reach ``window``, SIGKILL it there; what it said."""
    assert proc.stderr is not None
    said = []
    for line in proc.stderr:
        said.append(line)
        if f"test hold: {window}" in line:
            proc.send_signal(signal.SIGKILL)
            break
    proc.communicate(timeout=60)
    assert any(f"test hold: {window}" in line for line in said), "".join(said)
    return "".join(said)


@pytest.mark.parametrize("window", ["start", "started", "passed"])
def test_a_kill_in_the_worst_windows_then_resume(tmp_path: Path, window: str) -> None:
    """Killed while a candidate starts (recorded, not started; started, not recorded) or
    after the winner passed and before the run closed: --resume stops what the dead
    controller left running and ends passed; a recorded pass is final (no new launch,
    the same winner)."""
    _killed_at(_search(tmp_path, hold=window), window)
    with sqlite3.connect(tmp_path / "runs.db") as conn:
        before = conn.execute("select id, state, launched from attempts order by seq").fetchall()
    out, err = _search(tmp_path, "--resume", "1").communicate(timeout=300)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["status"] == "passed", err
    if window == "passed":
        passed = [a for a, state, _ in before if state == "passed"]
        assert result["winner"]["attempt"] == passed[0]
        assert result["launches"] == sum(launched for *_, launched in before) == 1
        assert "had already passed" in err
    else:
        assert "was left running" in err
    with sqlite3.connect(tmp_path / "runs.db") as conn:
        assert conn.execute("select count(*) from attempts where state = 'running'").fetchone()[0] == 0
    time.sleep(1.0)
    assert left_running(tmp_path) == []
