"""Shared fixtures: paths to the committed test data and a throwaway store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
CAPTURES = DATA / "sglang-0.5.23"
MODELS = DATA / "models"
ROOT = Path(__file__).parent.parent


def load_cases() -> list[dict[str, Any]]:
    """The real SGLang 0.5.23 captures, one dict per case."""
    with open(CAPTURES / "cases.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def argv_to_args(argv: list[str]) -> dict[str, Any]:
    """``--flag v --bare --multi a b`` -> {flag: v, bare: True, multi: [a, b]}."""
    args: dict[str, Any] = {}
    i = 0
    while i < len(argv):
        flag = argv[i][2:]
        i += 1
        values: list[str] = []
        while i < len(argv) and not argv[i].startswith("--"):
            values.append(argv[i])
            i += 1
        args[flag] = True if not values else (values[0] if len(values) == 1 else values)
    return args


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
