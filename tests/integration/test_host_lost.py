"""A host that loses the candidate (a reboot wipes it mid-attempt) is a host fault:
recorded as host_lost, never classified, and the candidate is tried again."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

from autofix.catalog import load_catalog
from autofix.config import parse_base
from autofix.hosts.local import LocalHost
from autofix.model import AttemptState, Gate
from autofix.run import GateProgress, Runner, SearchOptions
from autofix.store import open_store
from autofix.targets import make_target

from ..conftest import ROOT

pytestmark = pytest.mark.integration


def test_reboot_mid_attempt_is_host_lost_and_the_candidate_is_retried(tmp_path: Path) -> None:
    """Everything of the launched candidate vanishes (processes and files, as after a
    reboot): that attempt ends host_lost with no failure class; the retry passes."""
    text = (
        (ROOT / "examples" / "k26-eagle3.yaml").read_text().replace("port: 30001", f"port: {31000 + os.getpid() % 500}")
    )
    config = parse_base(
        text.replace("speculative-eagle-topk: 4", "speculative-eagle-topk: 1\n    speculative-num-steps: 2"),
        source="b.yaml",
    )
    host = LocalHost(workdir=str(tmp_path / "work"))
    rebooted: list[bool] = []
    runner: Runner

    def reboot(event: object) -> None:
        handle = runner.executor.launched
        if isinstance(event, GateProgress) and handle is not None and not rebooted:
            rebooted.append(True)
            for name in ("pid", "supervisor.pid"):
                try:
                    pid = int(Path(handle.directory, name).read_text())
                    os.killpg(pid, signal.SIGKILL) if name == "pid" else os.kill(pid, signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            shutil.rmtree(handle.directory, ignore_errors=True)

    runner = Runner(
        config,
        SearchOptions(
            gates=(Gate.PREFLIGHT, Gate.START, Gate.READY, Gate.SMOKE), max_attempts=5, max_time=300, host_label="local"
        ),
        store=open_store(f"sqlite:///{tmp_path / 'runs.db'}"),
        host=host,
        target=make_target("sim", config, sim_load_s=3),
        catalog=load_catalog(),
        events=reboot,
    )
    result = runner.run()
    attempts = runner.store.attempts(result.run.id)
    assert [a.state for a in attempts] == [AttemptState.HOST_LOST, AttemptState.PASSED]
    lost = attempts[0]
    assert lost.failure is not None and lost.failure.host_fault and lost.failure.class_id is None
    assert attempts[1].candidate.key == lost.candidate.key  # the same candidate, tried again


def test_a_connection_lost_during_the_start_ends_the_attempt_and_stops_what_started(tmp_path: Path) -> None:
    """The supervisor started the candidate but its answer was lost with the connection:
    the attempt ends host_lost with the reason, the candidate it started is stopped (not
    orphaned), and the retry on the answering host passes."""
    from autofix.errors import HostLost
    from autofix.probes._proc import carriers
    from autofix.services import ProcessManager

    class DropsAfterStarting(ProcessManager):
        drops = 1

        def start(self, name, candidate, target, cwd, env_files=()):  # type: ignore[no-untyped-def]
            handle = super().start(name, candidate, target, cwd, env_files)
            if self.drops:
                self.drops -= 1
                self.started = handle
                raise HostLost("local: running supervise.py failed after retries: EOFError: the session dropped")
            return handle

    text = (ROOT / "examples" / "k26-eagle3.yaml").read_text()
    config = parse_base(
        text.replace("speculative-eagle-topk: 4", "speculative-eagle-topk: 1\n    speculative-num-steps: 2"),
        source="b.yaml",
    )
    host = LocalHost(workdir=str(tmp_path / "work"))
    target = make_target("sim", config, sim_load_s=1)
    services = DropsAfterStarting(host, target.python)
    runner = Runner(
        config,
        SearchOptions(gates=(Gate.PREFLIGHT, Gate.START, Gate.READY), max_attempts=4, max_time=300, host_label="local"),
        store=open_store(f"sqlite:///{tmp_path / 'runs.db'}"),
        host=host,
        target=target,
        catalog=load_catalog(),
        services=services,
    )
    result = runner.run()
    attempts = runner.store.attempts(result.run.id)
    assert [a.state for a in attempts] == [AttemptState.HOST_LOST, AttemptState.PASSED]
    assert attempts[0].failure is not None and "the start failed" in attempts[0].failure.message
    assert not services.state(services.started).running  # stopped, not orphaned
    assert carriers(services.started.name) == []  # no process of it is left (ranks included)
