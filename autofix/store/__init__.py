"""The store: every run, attempt, gate verdict and search-graph edge.

Facade: :func:`open_store` takes any SQLAlchemy URL (default ``sqlite:///runs.db`` in
the working directory, or ``AUTOFIX_DB``) and returns a store whose methods return
frozen model values. The implementation is private (``_sql``, ``_orm``).
"""

from __future__ import annotations

import os

from ._sql import SqlStore as Store
from .values import Edge

DEFAULT_URL = "sqlite:///runs.db"


def default_url() -> str:
    return os.environ.get("AUTOFIX_DB") or DEFAULT_URL


def open_store(url: str | None = None) -> Store:
    return Store(url or default_url())


__all__ = ["DEFAULT_URL", "Edge", "Store", "default_url", "open_store"]
