"""Shared fixtures: paths to the committed test data and a throwaway store."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.captures import argv_to_args, load_cases

__all__ = ["CAPTURES", "DATA", "MODELS", "ROOT", "argv_to_args", "load_cases", "require"]

DATA = Path(__file__).parent / "data"
CAPTURES = DATA / "sglang-0.5.23"
MODELS = DATA / "models"
ROOT = Path(__file__).parent.parent


def require(binary: str, package: str, *, where: tuple[str, ...] = ()) -> str:
    """A program a test starts or calls (a server, a verifier): its path. Missing, one
    policy everywhere: the test is skipped with the reason here, and fails under CI=true,
    where .ci/run installs it."""
    found = next((p for p in where if Path(p).exists()), None) or shutil.which(binary)
    if found:
        return found
    reason = f"{binary} is not installed (Debian's {package})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: .ci/run installs it")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A real OpenSSH server on 127.0.0.1 for the session (bench/sshd.py)."""
    from bench.sshd import make_sshd

    require("sshd", "openssh-server", where=("/usr/sbin/sshd",))
    require("ssh-keygen", "openssh-client")
    server = make_sshd(tmp_path_factory.mktemp("sshd"))
    yield server
    server.close()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """One throwaway PostgreSQL server for the session (tests/pg.py)."""
    from .pg import postgres_server

    require(
        "initdb", "postgresql", where=tuple(sorted(str(p) for p in Path("/usr/lib/postgresql").glob("*/bin/initdb")))
    )
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The store contract suite runs against SQLite and a real PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'runs.db'}"
        return
    import sqlalchemy

    base = request.getfixturevalue("postgres_url")
    name = f"t{abs(hash(request.node.nodeid)) % 10**8}"
    engine = sqlalchemy.create_engine(base, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sqlalchemy.text(f"DROP DATABASE IF EXISTS {name}"))
        conn.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    yield base.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(scope="session")
def systemd_analyze() -> str:
    """systemd's own verifier of unit files (Debian's systemd)."""
    return require("systemd-analyze", "systemd")


@pytest.fixture(scope="session")
def chromium() -> str:
    """A headless browser for the HTML graph (Debian's chromium)."""
    return require("chromium", "chromium")


@pytest.fixture(scope="session")
def graphviz_dot() -> str:
    """graphviz's dot, which draws the search graph (Debian's graphviz)."""
    return require("dot", "graphviz")
