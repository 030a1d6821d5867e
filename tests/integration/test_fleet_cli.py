"""Several bases over several sim hosts in one command: every base gets its own run,
the searches run at the same time on different hosts, and bad input stops everything
before anything runs."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from ..conftest import ROOT
from .helpers import cli, launched_and_running, left_running, sim_env

pytestmark = pytest.mark.integration
CORPUS = ROOT / "bench" / "corpus"
BASES = ["seed.yaml", "attn-cp-3.yaml", "eplb-no-ep.yaml"]


def test_three_bases_over_three_sim_hosts(tmp_path: Path) -> None:
    bases = [arg for name in BASES for arg in ("--base", str(CORPUS / name))]
    done = cli(
        "search", *bases, "--hosts", "sim,sim,sim", "--gates", "preflight,start,ready,smoke", "--json",
        cwd=tmp_path,
        load_s="2",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout.strip().splitlines()[-1])["runs"]
    assert [Path(r["base"]).name for r in rows] == BASES  # in the order given
    assert [r["status"] for r in rows] == ["passed"] * 3
    assert [r["launches"] for r in rows] == [1, 1, 1]
    assert len({r["run"] for r in rows}) == 3
    assert rows[1]["winner"]["args"]["attn-cp-size"] == "2"
    # The searches overlapped in time: each sim host ran one at once.
    with sqlite3.connect(tmp_path / "runs.db") as conn:
        spans = [
            (datetime.fromisoformat(a), datetime.fromisoformat(b))
            for a, b in conn.execute("select started_at, ended_at from runs")
        ]
    assert max(a for a, _ in spans) < min(b for _, b in spans)
    # The output names each base's outcome on one line.
    for name in ("seed", "attn-cp-3", "eplb-no-ep"):
        assert f"{name} on sim: passed run" in done.stderr


def test_a_bad_base_stops_everything_before_anything_runs(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text((CORPUS / "seed.yaml").read_text() + "\nbogus_key: 1\n")
    done = cli("search", "--base", str(CORPUS / "seed.yaml"), "--base", str(bad), "--hosts", "sim,sim", cwd=tmp_path)
    assert done.returncode == 2
    assert str(bad) in done.stderr and "bogus_key" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "runs.db").exists()


def test_resume_takes_one_base(tmp_path: Path) -> None:
    seed = str(CORPUS / "seed.yaml")
    done = cli("search", "--base", seed, "--base", seed, "--host", "sim", "--resume", "1", cwd=tmp_path)
    assert done.returncode == 2
    assert "--resume continues one run" in done.stderr


def test_ctrl_c_stops_every_search_of_the_fleet(tmp_path: Path) -> None:
    """SIGINT while two searches load candidates on two sim hosts: exit 130, both runs and
    their attempts in flight recorded interrupted, no candidate left running."""
    bases = ["--base", str(CORPUS / "attn-cp-3.yaml"), "--base", str(CORPUS / "eplb-no-ep.yaml")]
    proc = subprocess.Popen(
        [sys.executable, "-m", "autofix.cli", "search", *bases, "--hosts", "sim,sim", "--gates",
         "preflight,start,ready,smoke"],
        cwd=tmp_path,
        env=sim_env(tmp_path, "8"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    db = tmp_path / "runs.db"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if launched_and_running(db) == 2:
            break
    else:
        proc.kill()
        pytest.fail("the two searches did not both launch")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    with sqlite3.connect(db) as conn:
        runs = conn.execute("select status from runs").fetchall()
        states = [s for (s,) in conn.execute("select state from attempts")]
    assert runs == [("interrupted",), ("interrupted",)]
    assert states.count("interrupted") == 2 and "running" not in states
    time.sleep(1.0)
    assert left_running(tmp_path) == []
