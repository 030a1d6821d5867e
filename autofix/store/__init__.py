"""The store: every run, attempt, gate verdict and search-graph edge.

Facade: :func:`open_store` takes any SQLAlchemy URL or a file path (default
``sqlite:///runs.db`` in the working directory, or ``AUTOFIX_DB``) and returns a store
whose methods return frozen model values. The implementation is private (``_sql``,
``_orm``) and imported only when a store is opened: SQLAlchemy and Alembic cost a command
that never opens one (``--help``, a bad input) a second or more.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .values import Edge

if TYPE_CHECKING:
    from ._sql import SqlStore as Store

DEFAULT_URL = "sqlite:///runs.db"


def database_url(value: str) -> str:
    """A SQLAlchemy URL as given, or a path to a SQLite file (``runs.db``, ``/abs/y.db``,
    ``~/runs.db``) as one."""
    if "://" in value:
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


def default_url() -> str:
    return database_url(os.environ.get("AUTOFIX_DB") or DEFAULT_URL)


def open_store(url: str | None = None) -> Store:
    from ._sql import SqlStore

    return SqlStore(database_url(url) if url else default_url())


def __getattr__(name: str) -> Any:
    if name == "Store":
        from ._sql import SqlStore

        return SqlStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DEFAULT_URL", "Edge", "Store", "database_url", "default_url", "open_store"]
