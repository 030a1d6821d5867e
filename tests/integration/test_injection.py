"""Nothing runs that the config did not ask for: hostile values reach the simulated
server byte for byte as one argument, over local and over SSH (AUTOFIX_SIM_RECORD)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autofix.config import parse_base
from autofix.hosts.base import Host
from autofix.hosts.local import LocalHost
from autofix.hosts.ssh import SshHost
from autofix.model import Candidate
from autofix.services import ProcessManager
from autofix.targets import make_target

from ..conftest import ROOT
from ..ssh.conftest import Sshd

pytestmark = pytest.mark.integration

VALUES = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=60
) | st.sampled_from(
    [
        "$(touch /tmp/autofix-injected)",
        "`touch /tmp/autofix-injected`",
        "a;touch /tmp/autofix-injected",
        "'\"\\",
        "%h %n $HOME",
    ]
)


def _arrives(host: Host, record: str, value: str) -> list[str]:
    config = parse_base((ROOT / "examples" / "k26-eagle3.yaml").read_text(), source="k26-eagle3.yaml")
    target = make_target("sim", config, sim_load_s=0.1, remote=host if isinstance(host, SshHost) else None)
    target = target.__class__(target.kind, target.python, target.module, (*target.env, ("AUTOFIX_SIM_RECORD", record)))
    manager = ProcessManager(host, target.python)
    candidate = Candidate.build({"model-path": "/models/Kimi-K2.6-nope", "served-model-name": value})
    handle = manager.start(f"inject-{time.monotonic_ns()}", candidate, target, None)
    deadline = time.monotonic() + 30
    while manager.state(handle).running and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = host.read(record).decode().splitlines()
    return list(json.loads(lines[-1])["argv"])


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(value=VALUES)
def test_values_arrive_intact_locally(tmp_path: Path, value: str) -> None:
    """Launched on this machine: the server's argv is exactly the candidate's."""
    host = LocalHost(workdir=str(tmp_path / "work"))
    argv = _arrives(host, str(tmp_path / "record.jsonl"), value)
    assert argv == ["--model-path", "/models/Kimi-K2.6-nope", "--served-model-name", value]
    assert not Path("/tmp/autofix-injected").exists()


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(value=VALUES)
def test_values_arrive_intact_over_ssh(sshd: Sshd, tmp_path: Path, value: str) -> None:
    """Launched over SSH (a remote shell in between): still exactly the candidate's argv."""
    host = SshHost("gpu-sim", ssh_config=str(sshd.ssh_config))
    try:
        argv = _arrives(host, f"{host.workdir}/record-{time.monotonic_ns()}.jsonl", value)
    finally:
        host.close()
    assert argv == ["--model-path", "/models/Kimi-K2.6-nope", "--served-model-name", value]
    assert not Path("/tmp/autofix-injected").exists()
