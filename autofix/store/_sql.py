"""The SQLAlchemy store: any SQLAlchemy URL; SQLite by default (WAL, busy timeout).

Alembic migrations are applied when the store is opened. Every method is one short
transaction, so a killed controller leaves everything it wrote committed: an attempt
row is written (``running``) before its candidate is launched and completed after.
Foreign exceptions become :class:`StoreError` here; values returned are frozen model
values, never ORM rows.
"""

from __future__ import annotations

import fcntl
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, func, select
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from ..errors import StoreError, UnknownRecord
from ..model import (
    Attempt,
    AttemptState,
    Candidate,
    Failure,
    Frame,
    Gate,
    GatePlan,
    GateVerdict,
    Move,
    Run,
    RunStatus,
    pairs,
)
from ..resources import data_path
from ._orm import AttemptRow, EdgeRow, RunRow, VerdictRow
from .values import Edge


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; everything autofix writes is UTC.
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


class SqlStore:
    def __init__(self, url: str) -> None:
        self.url = url
        try:
            parsed = make_url(url)
        except ArgumentError as exc:
            raise StoreError(f"{url}: not a database URL ({exc})") from None
        try:
            kwargs: dict[str, Any] = {}
            if parsed.get_backend_name() == "sqlite":
                kwargs["connect_args"] = {"timeout": 30}
            self.engine: Engine = create_engine(url, **kwargs)
            if parsed.get_backend_name() == "sqlite":
                event.listen(self.engine, "connect", _sqlite_pragmas)
            self._migrate()
        except SQLAlchemyError as exc:
            raise StoreError(f"{_safe(url)}: cannot open the store: {_first_line(exc)}") from None
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def _migrate(self) -> None:
        """Bring the schema to head; two processes opening a new store at once take turns
        (a file lock beside a SQLite file, an advisory lock on PostgreSQL)."""
        cfg = Config()
        cfg.set_main_option("script_location", str(data_path("migrations")))
        with self._migration_turn(), self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(727370)")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    @contextmanager
    def _migration_turn(self) -> Iterator[None]:
        database = make_url(self.url).database if self.engine.dialect.name == "sqlite" else None
        if not database or database == ":memory:":
            yield
            return
        try:
            fh = open(f"{database}.migrate-lock", "a")  # noqa: SIM115 - held across the yield
        except OSError:
            yield  # no such directory: opening the database itself will say so
            return
        with fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        try:
            with self._session.begin() as session:
                yield session
        except SQLAlchemyError as exc:
            raise StoreError(f"{_safe(self.url)}: {_first_line(exc)}") from None

    # --- runs --------------------------------------------------------------------------
    def create_run(
        self,
        *,
        name: str,
        base_path: str,
        base_text: str,
        host: str,
        target: str,
        options: dict[str, Any] | None = None,
    ) -> Run:
        with self._tx() as s:
            row = RunRow(
                name=name,
                base_path=base_path,
                base_text=base_text,
                host=host,
                target=target,
                status=RunStatus.RUNNING.value,
                started_at=_now(),
                options_json=json.dumps(options or {}, default=str),
            )
            s.add(row)
            s.flush()
            return _run(row)

    def set_run_version(self, run_id: int, version: str) -> None:
        with self._tx() as s:
            self._run_row(s, run_id).target_version = version

    def finish_run(self, run_id: int, status: RunStatus, winner_id: int | None) -> Run:
        with self._tx() as s:
            row = self._run_row(s, run_id)
            row.status = status.value
            row.winner_id = winner_id
            row.ended_at = _now()
            return _run(row)

    def run(self, run_id: int) -> Run:
        with self._tx() as s:
            return _run(self._run_row(s, run_id))

    def runs(self, limit: int = 50) -> list[Run]:
        with self._tx() as s:
            rows = s.scalars(select(RunRow).order_by(RunRow.id.desc()).limit(limit)).all()
            return [_run(r) for r in rows]

    def run_version(self, run_id: int) -> str | None:
        with self._tx() as s:
            return self._run_row(s, run_id).target_version

    @staticmethod
    def _run_row(s: Session, run_id: int) -> RunRow:
        row = s.get(RunRow, run_id)
        if row is None:
            raise UnknownRecord(f"run {run_id}: no such run in the store")
        return row

    # --- attempts ----------------------------------------------------------------------
    def begin_attempt(
        self,
        run_id: int,
        candidate: Candidate,
        *,
        parent_id: int | None,
        move: Move | None,
        host: str,
        target_version: str | None,
        plan: GatePlan | None = None,
    ) -> Attempt:
        with self._tx() as s:
            seq = (s.scalar(select(func.max(AttemptRow.seq)).where(AttemptRow.run_id == run_id)) or 0) + 1
            row = AttemptRow(
                run_id=run_id,
                seq=seq,
                candidate_key=candidate.key,
                candidate_json=json.dumps(candidate.redacted().to_json()),
                parent_id=parent_id,
                move_json=json.dumps(move.to_json()) if move else None,
                state=AttemptState.RUNNING.value,
                host=host,
                target_version=target_version,
                started_at=_now(),
                launched=False,
                resolved_json="{}",
                log_excerpt="",
                host_fault=False,
                plan_json=json.dumps(plan.to_json()) if plan is not None else None,
            )
            s.add(row)
            s.flush()
            return _attempt(row, [])

    def mark_launched(self, attempt_id: int) -> None:
        with self._tx() as s:
            self._attempt_row(s, attempt_id).launched = True

    def finish_attempt(
        self,
        attempt_id: int,
        *,
        state: AttemptState,
        verdicts: Sequence[GateVerdict],
        failure: Failure | None,
        resolved: dict[str, Any] | None = None,
        log_excerpt: str = "",
        cached_from: int | None = None,
    ) -> Attempt:
        with self._tx() as s:
            row = self._attempt_row(s, attempt_id)
            row.state = state.value
            row.ended_at = _now()
            row.cached_from = cached_from
            row.resolved_json = json.dumps(resolved or {}, default=repr)
            row.log_excerpt = log_excerpt
            for position, verdict in enumerate(verdicts):
                s.add(
                    VerdictRow(
                        attempt_id=row.id,
                        position=position,
                        gate=verdict.gate.value,
                        ok=verdict.ok,
                        seconds=verdict.seconds,
                        detail=verdict.detail,
                    )
                )
            if failure is not None:
                row.failure_gate = failure.gate.value
                row.failure_class = failure.class_id
                row.fingerprint = failure.fingerprint
                row.exception = failure.exception
                row.message = failure.message
                row.frame_json = json.dumps(failure.frame.to_json()) if failure.frame else None
                row.evidence = failure.evidence
                row.host_fault = failure.host_fault
            s.flush()
            s.refresh(row, ["verdicts"])
            return _attempt(row, row.verdicts)

    def reopen_run(self, run_id: int) -> Run:
        """A run continued by --resume is running again."""
        with self._tx() as s:
            row = self._run_row(s, run_id)
            row.status = RunStatus.RUNNING.value
            row.ended_at = None
            return _run(row)

    def set_service(self, attempt_id: int, service: dict[str, Any]) -> None:
        with self._tx() as s:
            self._attempt_row(s, attempt_id).service_json = json.dumps(service)

    def candidate_key(self, attempt_id: int) -> str:
        """The key of the attempt's real candidate (its stored JSON is redacted)."""
        with self._tx() as s:
            return self._attempt_row(s, attempt_id).candidate_key

    def service_of(self, attempt_id: int) -> dict[str, Any] | None:
        with self._tx() as s:
            raw = self._attempt_row(s, attempt_id).service_json
            return dict(json.loads(raw)) if raw else None

    def interrupt_running(self, run_id: int) -> list[Attempt]:
        """Attempts a dead controller left ``running`` become ``interrupted``; returns them."""
        with self._tx() as s:
            rows = s.scalars(
                select(AttemptRow).where(AttemptRow.run_id == run_id, AttemptRow.state == AttemptState.RUNNING.value)
            ).all()
            for row in rows:
                row.state = AttemptState.INTERRUPTED.value
                row.ended_at = _now()
            s.flush()
            return [_attempt(r, r.verdicts) for r in rows]

    def cached(
        self, candidate_key: str, host: str, target_version: str | None, plan: GatePlan, *, scan: int = 50
    ) -> Attempt | None:
        """The latest attempt of this candidate on this host and target version whose
        outcome answers ``plan`` (model.GatePlan.answered_by): passed under every gate and
        setting the plan asks for, or failed at a gate the plan runs after the same gates.
        Any run; records without a plan are never reused."""
        judged = [s.value for s in AttemptState if s.judges_config]
        with self._tx() as s:
            rows = s.scalars(
                select(AttemptRow)
                .where(
                    AttemptRow.candidate_key == candidate_key,
                    AttemptRow.host == host,
                    AttemptRow.target_version == target_version,
                    AttemptRow.state.in_(judged),
                    AttemptRow.plan_json.is_not(None),
                )
                .order_by(AttemptRow.id.desc())
                .limit(scan)
            ).all()
            for row in rows:
                found = _attempt(row, row.verdicts)
                if found.plan is not None and plan.answered_by(found.state, found.failed_gate, found.plan):
                    return found
            return None

    def move_stats(self, limit: int = 20000) -> dict[tuple[str | None, str], float]:
        """For (failure class, move label): how often the move fixed that class, any run.

        A move fixed a class when the attempt it made did not fail with the same class
        again (it passed, or failed further along for another reason).
        """
        with self._tx() as s:
            rows = s.execute(
                select(
                    AttemptRow.id,
                    AttemptRow.parent_id,
                    AttemptRow.move_json,
                    AttemptRow.state,
                    AttemptRow.failure_class,
                )
                .order_by(AttemptRow.id.desc())
                .limit(limit)
            ).all()
        by_id = {r.id: r for r in rows}
        tries: dict[tuple[str | None, str], int] = {}
        fixes: dict[tuple[str | None, str], int] = {}
        for r in rows:
            parent = by_id.get(r.parent_id) if r.parent_id else None
            if parent is None or not r.move_json or parent.failure_class is None:
                continue
            if r.state not in (AttemptState.PASSED.value, AttemptState.FAILED.value):
                continue
            key = (parent.failure_class, Move.from_json(json.loads(r.move_json)).label())
            tries[key] = tries.get(key, 0) + 1
            if r.state == AttemptState.PASSED.value or r.failure_class != parent.failure_class:
                fixes[key] = fixes.get(key, 0) + 1
        return {key: fixes.get(key, 0) / count for key, count in tries.items()}

    def attempt(self, attempt_id: int) -> Attempt:
        with self._tx() as s:
            row = self._attempt_row(s, attempt_id)
            return _attempt(row, row.verdicts)

    def path_moves(self, attempt: Attempt) -> list[Move]:
        """The moves from the base to ``attempt`` (its ancestors' moves), base first."""
        moves: list[Move] = []
        node: Attempt | None = attempt
        seen: set[int] = set()
        while node is not None and node.id not in seen:
            seen.add(node.id)
            if node.move is not None:
                moves.append(node.move)
            node = self.attempt(node.parent_id) if node.parent_id else None
        return moves[::-1]

    def attempts(self, run_id: int) -> list[Attempt]:
        with self._tx() as s:
            self._run_row(s, run_id)
            rows = s.scalars(
                select(AttemptRow)
                .where(AttemptRow.run_id == run_id)
                .order_by(AttemptRow.seq)
                .options(selectinload(AttemptRow.verdicts))
            ).all()
            return [_attempt(r, r.verdicts) for r in rows]

    @staticmethod
    def _attempt_row(s: Session, attempt_id: int) -> AttemptRow:
        row = s.get(AttemptRow, attempt_id)
        if row is None:
            raise UnknownRecord(f"attempt {attempt_id}: no such attempt in the store")
        return row

    # --- graph edges -------------------------------------------------------------------
    def add_edges(self, run_id: int, parent_key: str, edges: Sequence[tuple[Candidate, Move, str | None]]) -> None:
        with self._tx() as s:
            for rank, (child, move, class_id) in enumerate(edges):
                s.add(
                    EdgeRow(
                        run_id=run_id,
                        parent_key=parent_key,
                        child_key=child.key,
                        child_json=json.dumps(child.redacted().to_json()),
                        move_json=json.dumps(move.to_json()),
                        rank=rank,
                        class_id=class_id,
                    )
                )

    def edges(self, run_id: int) -> list[Edge]:
        with self._tx() as s:
            rows = s.scalars(select(EdgeRow).where(EdgeRow.run_id == run_id).order_by(EdgeRow.id)).all()
            return [
                Edge(
                    parent_key=r.parent_key,
                    child_key=r.child_key,
                    child=Candidate.from_json(json.loads(r.child_json)),
                    move=Move.from_json(json.loads(r.move_json)),
                    rank=r.rank,
                    class_id=r.class_id,
                )
                for r in rows
            ]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def _safe(url: str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _run(row: RunRow) -> Run:
    started = _aware(row.started_at)
    assert started is not None
    return Run(
        id=row.id,
        name=row.name,
        base_path=row.base_path,
        base_text=row.base_text,
        host=row.host,
        target=row.target,
        status=RunStatus(row.status),
        started_at=started,
        ended_at=_aware(row.ended_at),
        winner_id=row.winner_id,
        options=pairs(json.loads(row.options_json or "{}")),
    )


def _attempt(row: AttemptRow, verdicts: Sequence[VerdictRow]) -> Attempt:
    failure = None
    if row.failure_gate is not None:
        frame = None
        if row.frame_json:
            f = json.loads(row.frame_json)
            frame = Frame(f["file"], int(f["line"]), f["function"], f.get("source", ""))
        failure = Failure(
            gate=Gate(row.failure_gate),
            class_id=row.failure_class,
            fingerprint=row.fingerprint or "",
            exception=row.exception or "",
            message=row.message or "",
            frame=frame,
            evidence=row.evidence or "",
            host_fault=bool(row.host_fault),
        )
    started = _aware(row.started_at)
    assert started is not None
    return Attempt(
        id=row.id,
        run_id=row.run_id,
        seq=row.seq,
        candidate=Candidate.from_json(json.loads(row.candidate_json)),
        parent_id=row.parent_id,
        move=Move.from_json(json.loads(row.move_json)) if row.move_json else None,
        state=AttemptState(row.state),
        started_at=started,
        ended_at=_aware(row.ended_at),
        verdicts=tuple(GateVerdict(Gate(v.gate), v.ok, v.seconds, v.detail) for v in verdicts),
        failure=failure,
        resolved=pairs(json.loads(row.resolved_json or "{}")),
        launched=bool(row.launched),
        log_excerpt=row.log_excerpt or "",
        cached_from=row.cached_from,
        plan=GatePlan.from_json(json.loads(row.plan_json)) if row.plan_json else None,
    )
