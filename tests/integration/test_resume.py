"""The record survives the controller: SIGKILL mid-attempt, then --resume; the cache."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT
from .helpers import cli, launched_and_running, left_running, sim_env

pytestmark = pytest.mark.integration


def history(cwd: Path, run: int) -> list[dict[str, Any]]:
    return list(json.loads(cli("history", str(run), "--json", cwd=cwd).stdout)["attempts"])


def test_sigkill_mid_attempt_then_resume(tmp_path: Path) -> None:
    """Killed while a candidate loads: --resume stops it, marks it interrupted, retries it,
    and the run passes with every attempt recorded once and none left running."""
    base = ROOT / "examples" / "k26-eagle3.yaml"
    proc = subprocess.Popen(
        [sys.executable, "-m", "autofix.cli", "search", "--base", str(base), "--host", "sim", "--json"],
        cwd=tmp_path,
        env=sim_env(tmp_path, "6"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    db = tmp_path / "runs.db"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if launched_and_running(db):
            break
    else:
        pytest.fail("no candidate was launched")
    time.sleep(1.0)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert history(tmp_path, 1)[-1]["state"] == "running"  # the truth at the moment of death
    assert left_running(tmp_path), "the launched candidate outlives its controller"

    done = cli("search", "--base", str(base), "--host", "sim", "--resume", "1", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["run"] == 1 and result["status"] == "passed"
    rows = history(tmp_path, 1)
    states = [a["state"] for a in rows]
    assert "running" not in states
    assert states.count("interrupted") == 1 and states[-1] == "passed"
    assert len({a["seq"] for a in rows}) == len(rows) == result["attempts"]
    interrupted = next(a for a in rows if a["state"] == "interrupted")
    assert rows[-1]["args"] == interrupted["args"]  # the interrupted candidate was tried again
    time.sleep(1.0)
    assert left_running(tmp_path) == []

    again = cli("search", "--base", str(base), "--host", "sim", "--json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    repeat = json.loads(again.stdout.strip().splitlines()[-1])
    assert repeat["launches"] == 0  # every candidate was recorded: nothing launched again
    assert all(a["cached_from"] for a in history(tmp_path, repeat["run"]))


def test_secrets_never_reach_the_store_or_the_unit(tmp_path: Path) -> None:
    """An HF_TOKEN in the base env: the search runs with it, the database and the exported
    unit never hold it (the unit reads it from an EnvironmentFile)."""
    text = (
        (ROOT / "examples" / "k26-eagle3.yaml")
        .read_text()
        .replace("    NCCL_ALGO: Ring\n", "    NCCL_ALGO: Ring\n    HF_TOKEN: hf_SECRETVALUE123\n")
    )
    (tmp_path / "b.yaml").write_text(text)
    done = cli("search", "--base", "b.yaml", "--host", "sim", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout.strip().splitlines()[-1])["run"]
    assert cli("export", str(run), "-o", "u.service", cwd=tmp_path).returncode == 0
    unit = (tmp_path / "u.service").read_text()
    assert "hf_SECRETVALUE123" not in unit and "EnvironmentFile=-/etc/autofix/sglang-k26-eagle3.env" in unit
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("runs.db*"))
    assert b"hf_SECRETVALUE123" not in stored and b"HF_TOKEN" in stored
    assert "hf_SECRETVALUE123" not in done.stderr + done.stdout
