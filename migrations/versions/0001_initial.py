"""The first schema: runs, attempts, gate verdicts, search-graph edges.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("base_path", sa.Text, nullable=False),
        sa.Column("base_text", sa.Text, nullable=False),
        sa.Column("host", sa.String(300), nullable=False),
        sa.Column("target", sa.String(40), nullable=False),
        sa.Column("target_version", sa.String(100)),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
        sa.Column("winner_id", sa.Integer),
        sa.Column("options_json", sa.Text, nullable=False),
    )
    op.create_table(
        "attempts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("candidate_key", sa.String(64), nullable=False),
        sa.Column("candidate_json", sa.Text, nullable=False),
        sa.Column("parent_id", sa.Integer),
        sa.Column("move_json", sa.Text),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("host", sa.String(300), nullable=False),
        sa.Column("target_version", sa.String(100)),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
        sa.Column("launched", sa.Boolean, nullable=False),
        sa.Column("failure_gate", sa.String(20)),
        sa.Column("failure_class", sa.String(100)),
        sa.Column("fingerprint", sa.String(64)),
        sa.Column("exception", sa.Text),
        sa.Column("message", sa.Text),
        sa.Column("frame_json", sa.Text),
        sa.Column("evidence", sa.Text),
        sa.Column("resolved_json", sa.Text, nullable=False),
        sa.Column("log_excerpt", sa.Text, nullable=False),
        sa.Column("cached_from", sa.Integer),
        sa.Column("host_fault", sa.Boolean, nullable=False),
        sa.UniqueConstraint("run_id", "seq", name="uq_attempts_run_seq"),
    )
    op.create_index("ix_attempts_run_id", "attempts", ["run_id"])
    op.create_index("ix_attempts_candidate_key", "attempts", ["candidate_key"])
    op.create_table(
        "verdicts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("attempt_id", sa.Integer, sa.ForeignKey("attempts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("gate", sa.String(20), nullable=False),
        sa.Column("ok", sa.Boolean, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("ix_verdicts_attempt_id", "verdicts", ["attempt_id"])
    op.create_table(
        "edges",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("parent_key", sa.String(64), nullable=False),
        sa.Column("child_key", sa.String(64), nullable=False),
        sa.Column("child_json", sa.Text, nullable=False),
        sa.Column("move_json", sa.Text, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("class_id", sa.String(100)),
    )
    op.create_index("ix_edges_run_id", "edges", ["run_id"])


def downgrade() -> None:
    op.drop_table("edges")
    op.drop_table("verdicts")
    op.drop_table("attempts")
    op.drop_table("runs")
