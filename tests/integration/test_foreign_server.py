"""A PASS is about the candidate: a server that is not the candidate never passes a gate.

Someone else's OpenAI-compatible server on the candidate's port (a stale SGLang, another
team's, a test server) answers /health, /v1/models and chat completions. Before a launch
it is found by the port check; appearing while the candidate loads, it is found by the
gates' check of who listens. Either way the attempt is ``blocked`` (the host's fault, never
the config's), the run ends with exit 3 naming the port and the process, and nothing of
the candidate is left running.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from ..conftest import ROOT
from .helpers import cli, foreign_server, free_port, launched_and_running, left_running

pytestmark = pytest.mark.integration

SEED_PORT = 30001  # examples/k26-eagle3.yaml


def _base(tmp_path: Path, fault: str | None = None) -> Path:
    text = (ROOT / "examples" / "k26-eagle3.yaml").read_text()
    if fault:
        text = text.replace("    NCCL_ALGO: Ring\n", f"    NCCL_ALGO: Ring\n    AUTOFIX_SIM_FAULT: {fault}\n")
    base = tmp_path / "k26-eagle3.yaml"
    base.write_text(text)
    return base


def _states(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute("select state, launched from attempts order by seq"))


@pytest.mark.parametrize("fault", [None, "crash-load"])
def test_a_server_already_on_the_port_blocks_the_search(tmp_path: Path, fault: str | None) -> None:
    """With a foreign server on the port, no candidate is launched and the search does not
    pass, even when every candidate would crash while loading (the issue's reproduction)."""
    port = free_port()
    offset = {"AUTOFIX_SIM_PORT_OFFSET": str(port - SEED_PORT)}
    with foreign_server(port):
        done = cli("search", "--base", str(_base(tmp_path, fault)), "--host", "sim", "--json", cwd=tmp_path, env=offset)
    assert done.returncode == 3, done.stderr
    assert "PASSED" not in done.stderr
    assert f"port {port}" in done.stderr and f"pid {os.getpid()}" in done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}
    assert result.get("status") != "passed"
    states = _states(tmp_path / "runs.db")
    assert states[-1] == ("blocked", 0)  # the launch was never made
    assert all(state != "passed" for state, _ in states)
    assert left_running(tmp_path) == []


def test_a_server_that_takes_the_port_while_the_candidate_loads_is_not_the_candidate(tmp_path: Path) -> None:
    """The port is free at launch; another server binds it while the candidate loads its
    weights. The gates see who listens and block the attempt: no pass, exit 3."""
    port = free_port()
    offset = {"AUTOFIX_SIM_PORT_OFFSET": str(port - SEED_PORT)}
    db = tmp_path / "runs.db"
    taken = threading.Event()
    done_box: list[object] = []

    def search() -> None:
        done_box.append(
            cli("search", "--base", str(_base(tmp_path)), "--host", "sim", cwd=tmp_path, load_s="6", env=offset)
        )

    runner = threading.Thread(target=search)
    runner.start()
    deadline = time.monotonic() + 60
    while launched_and_running(db) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert launched_and_running(db) == 1, "the candidate was never launched"
    with foreign_server(port):
        taken.set()
        runner.join(timeout=300)
    done = done_box[0]
    assert done.returncode != 0, done.stderr  # type: ignore[attr-defined]
    assert "PASSED" not in done.stderr  # type: ignore[attr-defined]
    states = _states(db)
    assert all(state != "passed" for state, _ in states)
    assert states[-1] == ("blocked", 1), states
    assert left_running(tmp_path) == []
