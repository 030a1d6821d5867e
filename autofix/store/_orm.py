"""Table definitions (SQLAlchemy 2 typed ORM). Private: the store returns frozen values.

The schema is owned by Alembic (migrations/); these classes must match its head.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class RunRow(Base):
    __tablename__ = "runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    base_path: Mapped[str] = mapped_column(Text)
    base_text: Mapped[str] = mapped_column(Text)
    host: Mapped[str] = mapped_column(String(300))
    target: Mapped[str] = mapped_column(String(40))
    target_version: Mapped[str | None] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(20))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    winner_id: Mapped[int | None] = mapped_column(Integer)
    options_json: Mapped[str] = mapped_column(Text, default="{}")

    attempts: Mapped[list[AttemptRow]] = relationship(back_populates="run", order_by="AttemptRow.seq")


class AttemptRow(Base):
    __tablename__ = "attempts"
    __table_args__ = (
        UniqueConstraint("run_id", "seq", name="uq_attempts_run_seq"),
        Index("ix_attempts_cache", "candidate_key", "host", "target_version"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    candidate_key: Mapped[str] = mapped_column(String(64), index=True)
    candidate_json: Mapped[str] = mapped_column(Text)
    parent_id: Mapped[int | None] = mapped_column(Integer)
    move_json: Mapped[str | None] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(20))
    host: Mapped[str] = mapped_column(String(300))
    target_version: Mapped[str | None] = mapped_column(String(100))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    launched: Mapped[bool] = mapped_column(Boolean, default=False)
    failure_gate: Mapped[str | None] = mapped_column(String(20))
    failure_class: Mapped[str | None] = mapped_column(String(100))
    fingerprint: Mapped[str | None] = mapped_column(String(64))
    exception: Mapped[str | None] = mapped_column(Text)
    message: Mapped[str | None] = mapped_column(Text)
    frame_json: Mapped[str | None] = mapped_column(Text)
    evidence: Mapped[str | None] = mapped_column(Text)
    resolved_json: Mapped[str] = mapped_column(Text, default="{}")
    log_excerpt: Mapped[str] = mapped_column(Text, default="")
    cached_from: Mapped[int | None] = mapped_column(Integer)
    host_fault: Mapped[bool] = mapped_column(Boolean, default=False)
    # Where the launched candidate runs ({"name", "directory", "log_path", "pid"}): --resume stops it.
    service_json: Mapped[str | None] = mapped_column(Text)
    # The gates and settings the attempt was judged by (model.GatePlan): the cache reuses an
    # outcome only for a search that asks the same questions.
    plan_json: Mapped[str | None] = mapped_column(Text)

    run: Mapped[RunRow] = relationship(back_populates="attempts")
    verdicts: Mapped[list[VerdictRow]] = relationship(
        back_populates="attempt", order_by="VerdictRow.position", cascade="all, delete-orphan"
    )


class VerdictRow(Base):
    __tablename__ = "verdicts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    attempt_id: Mapped[int] = mapped_column(ForeignKey("attempts.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    gate: Mapped[str] = mapped_column(String(20))
    ok: Mapped[bool] = mapped_column(Boolean)
    seconds: Mapped[float] = mapped_column(Float)
    detail: Mapped[str] = mapped_column(Text, default="")

    attempt: Mapped[AttemptRow] = relationship(back_populates="verdicts")


class EdgeRow(Base):
    """A repair move the search proposed: parent candidate -> child candidate."""

    __tablename__ = "edges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    parent_key: Mapped[str] = mapped_column(String(64))
    child_key: Mapped[str] = mapped_column(String(64))
    child_json: Mapped[str] = mapped_column(Text)
    move_json: Mapped[str] = mapped_column(Text)
    rank: Mapped[int] = mapped_column(Integer)
    class_id: Mapped[str | None] = mapped_column(String(100))
