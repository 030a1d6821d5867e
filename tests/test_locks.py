"""One search per host and unit: a second is refused with who holds it; a dead owner's
lock is taken over."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from autofix.hosts.local import LocalHost
from autofix.locks import HostBusy, acquire

from .conftest import ROOT

pytestmark = pytest.mark.integration


def test_second_search_is_refused_then_admitted(tmp_path: Path) -> None:
    """While one holds the lock another is refused; after release it is free."""
    host = LocalHost(workdir=str(tmp_path))
    locks = str(tmp_path / "locks")
    first = acquire(host, sys.executable, "sglang-k26-eagle3", run_id=7, directory=locks)
    with pytest.raises(HostBusy, match=r"in use by another autofix search \(run 7"):
        acquire(host, sys.executable, "sglang-k26-eagle3", directory=locks)
    other_unit = acquire(host, sys.executable, "sglang-other", directory=locks)  # another unit: another lock
    other_unit.release()
    first.release()
    time.sleep(0.3)
    again = acquire(host, sys.executable, "sglang-k26-eagle3", directory=locks)
    assert again.stale is None  # released cleanly: nothing stale
    again.release()


def test_lock_of_a_dead_owner_is_taken_over(tmp_path: Path) -> None:
    """A controller killed with SIGKILL leaves its record; the next search takes over."""
    host = LocalHost(workdir=str(tmp_path))
    locks = str(tmp_path / "locks")
    held = acquire(host, sys.executable, "u", run_id=3, directory=locks)
    holder = json.loads(Path(held.path).read_text())["holder_pid"]
    os.kill(holder, signal.SIGKILL)  # the owner dies without cleaning up
    time.sleep(0.3)
    taken = acquire(host, sys.executable, "u", directory=locks)
    assert taken.stale is not None and taken.stale["run"] == 3
    taken.release()


def test_a_real_hosts_lock_is_the_machines_whatever_the_tmpdir(tmp_path: Path) -> None:
    """Two controllers with different TMPDIRs (work dirs) search one unit on one machine:
    the lock is the machine's, so the second is refused. (The unit name is this test's
    own: the machine's lock directory is shared with everything else here.)"""
    unit = f"sglang-test-{uuid.uuid4().hex[:12]}"
    one = LocalHost(workdir=str(tmp_path / "a"))
    two = LocalHost(workdir=str(tmp_path / "b"))
    held = acquire(one, sys.executable, unit, run_id=11)
    try:
        assert not held.path.startswith(str(tmp_path))  # not in anyone's work dir
        with pytest.raises(HostBusy, match=r"\(run 11"):
            acquire(two, sys.executable, unit)
    finally:
        held.release()
    time.sleep(0.3)
    acquire(two, sys.executable, unit).release()
    Path(held.path).unlink(missing_ok=True)


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


def test_two_sim_hosts_under_two_tmpdirs_are_two_machines(tmp_path: Path) -> None:
    """Each TMPDIR (each user, each test) has a simulated host of its own: its own work
    dir, lock and ports. Two searches of one unit both pass, each on its own port."""
    base = str(ROOT / "examples" / "k26-eagle3.yaml")
    procs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        env = {**os.environ, "AUTOFIX_SIM_LOAD_S": "3", "TMPDIR": str(tmp_path / name)}
        env.pop("AUTOFIX_DB", None)
        env.pop("AUTOFIX_SIM_PORT_OFFSET", None)
        command = [sys.executable, "-m", "autofix.cli", "search", "--base", base, "--host", "sim", "--json"]
        command += ["--gates", "preflight,start,ready,smoke"]
        procs.append(
            subprocess.Popen(
                command, cwd=tmp_path / name, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
        )
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1])["status"] == "passed"
    logs = [p.read_text() for p in tmp_path.glob("*/autofix-*/services/*/log")]
    bound = set(re.findall(r"Uvicorn running on http://[^:]+:(\d+)", "".join(logs)))
    assert len(logs) == 2 and len(bound) == 2  # two launches, two ports
