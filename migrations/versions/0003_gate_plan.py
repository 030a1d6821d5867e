"""The gates (and their settings) each attempt was judged by, so that the candidate cache
reuses an outcome only for a search that runs the same gates: a preflight-only pass is no
answer for a search that loads the weights.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rows written before this revision keep NULL: what they answered is unknown, so they
    # are never reused.
    with op.batch_alter_table("attempts") as batch:
        batch.add_column(sa.Column("plan_json", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("attempts") as batch:
        batch.drop_column("plan_json")
