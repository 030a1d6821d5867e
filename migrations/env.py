"""Alembic environment for the autofix store.

autofix applies migrations itself when it opens a store (autofix/store/_sql.py passes
the open connection in ``config.attributes["connection"]``); the alembic command line
works too with ``-x url=sqlite:///runs.db``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from autofix.store._orm import Base

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    engine = create_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run_migrations()
