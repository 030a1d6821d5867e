"""Shared fixtures: paths to the committed test data and a throwaway store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.captures import argv_to_args, load_cases

__all__ = ["CAPTURES", "DATA", "MODELS", "ROOT", "argv_to_args", "load_cases"]

DATA = Path(__file__).parent / "data"
CAPTURES = DATA / "sglang-0.5.23"
MODELS = DATA / "models"
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A real OpenSSH server on 127.0.0.1 for the session (bench/sshd.py)."""
    from bench.sshd import make_sshd

    try:
        server = make_sshd(tmp_path_factory.mktemp("sshd"))
    except RuntimeError as exc:
        pytest.fail(f"{exc}: .ci/run installs Debian's openssh-server")
    yield server
    server.stop(sessions=False)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """One throwaway PostgreSQL server for the session (tests/pg.py)."""
    from .pg import postgres_server

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
