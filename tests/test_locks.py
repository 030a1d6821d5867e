"""One search per host and unit: a second is refused with who holds it; a dead owner's
lock is taken over."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autofix.hosts.local import LocalHost
from autofix.locks import HostBusy, acquire

from .conftest import ROOT

pytestmark = pytest.mark.integration


def test_second_search_is_refused_then_admitted(tmp_path: Path) -> None:
    """While one holds the lock another is refused; after release it is free."""
    host = LocalHost(workdir=str(tmp_path))
    first = acquire(host, sys.executable, "sglang-k26-eagle3", run_id=7)
    with pytest.raises(HostBusy, match=r"in use by another autofix search \(run 7"):
        acquire(host, sys.executable, "sglang-k26-eagle3")
    other_unit = acquire(host, sys.executable, "sglang-other")  # another unit: another lock
    other_unit.release()
    first.release()
    time.sleep(0.3)
    again = acquire(host, sys.executable, "sglang-k26-eagle3")
    assert again.stale is None  # released cleanly: nothing stale
    again.release()


def test_lock_of_a_dead_owner_is_taken_over(tmp_path: Path) -> None:
    """A controller killed with SIGKILL leaves its record; the next search takes over."""
    host = LocalHost(workdir=str(tmp_path))
    held = acquire(host, sys.executable, "u", run_id=3)
    holder = json.loads(Path(held.path).read_text())["holder_pid"]
    os.kill(holder, signal.SIGKILL)  # the owner dies without cleaning up
    time.sleep(0.3)
    taken = acquire(host, sys.executable, "u")
    assert taken.stale is not None and taken.stale["run"] == 3
    taken.release()


def test_two_searches_on_the_same_sim_host(tmp_path: Path) -> None:
    """The second search on the same GPUs exits 3 with a clear message; the first passes."""
    env = {**os.environ, "AUTOFIX_SIM_LOAD_S": "4", "TMPDIR": str(tmp_path)}
    env.pop("AUTOFIX_DB", None)
    base = str(ROOT / "examples" / "k26-eagle3.yaml")
    cmd = [
        sys.executable,
        "-m",
        "autofix.cli",
        "search",
        "--base",
        base,
        "--host",
        "sim",
        "--gates",
        "preflight,start,ready,smoke",
    ]
    first = subprocess.Popen(
        [*cmd, "--db", f"sqlite:///{tmp_path / 'a.db'}"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2.0)
    second = subprocess.run(
        [*cmd, "--db", f"sqlite:///{tmp_path / 'b.db'}"], env=env, capture_output=True, text=True, timeout=120
    )
    assert second.returncode == 3, second.stderr
    assert "in use by another autofix search" in second.stderr
    _, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
