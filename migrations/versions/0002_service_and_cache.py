"""Where each launched candidate runs (to stop it on --resume) and an index for the
candidate cache (same candidate, host and target version across runs).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("attempts") as batch:
        batch.add_column(sa.Column("service_json", sa.Text, nullable=True))
    op.create_index("ix_attempts_cache", "attempts", ["candidate_key", "host", "target_version"])


def downgrade() -> None:
    op.drop_index("ix_attempts_cache", "attempts")
    with op.batch_alter_table("attempts") as batch:
        batch.drop_column("service_json")
