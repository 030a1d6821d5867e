"""A real OpenSSH server on 127.0.0.1 for the tests (bench/sshd.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.sshd import SSHD, Sshd, make_sshd

__all__ = ["SSHD", "Sshd"]


@pytest.fixture(scope="session")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sshd]:
    try:
        server = make_sshd(tmp_path_factory.mktemp("sshd"))
    except RuntimeError as exc:
        pytest.fail(f"{exc}: .ci/run installs Debian's openssh-server")
    yield server
    server.stop(sessions=False)
