"""The SQLAlchemy store: any SQLAlchemy URL; SQLite by default (WAL, busy timeout).

Alembic migrations are applied when the store is opened. Every method is one short
transaction, so a killed controller leaves everything it wrote committed: an attempt
row is written (``running``) before its candidate is launched and completed after.
Foreign exceptions become :class:`StoreError` here; values returned are frozen model
values, never ORM rows. A store of a schema revision this autofix does not know is
refused before anything changes, naming the autofix that wrote it; a row that does not
read (an unknown state, broken JSON) is a StoreError naming its table and id.

Nothing secret is written: every text and JSON column passes through the process's
secrets (autofix/secrets.py): candidates redacted by name, every other text scrubbed of
the secret values (servers print their arguments, so evidence and log lines hold them).
"""

from __future__ import annotations

import fcntl
import json
import re
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, create_engine, delete, event, func, insert, inspect, select
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
from ..secrets import kept_out
from ._orm import AttemptRow, EdgeRow, MetaRow, RunRow, VerdictRow
from .values import Edge

# The package a missing DBAPI driver comes from, by SQLAlchemy backend name.
_DRIVER_PACKAGES = {"mysql": "mysqlclient (or use mysql+pymysql:// with pymysql)", "postgresql": "psycopg2-binary"}
_DRIVER_PACKAGES["postgresql+psycopg"] = "'psycopg[binary]'"


class _BadRow(Exception):
    """A stored row that does not read: the message names its table, id and column."""


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
        except ImportError as exc:  # create_engine imports the URL's DBAPI driver
            backend = parsed.get_backend_name()
            package = _DRIVER_PACKAGES.get(parsed.drivername) or _DRIVER_PACKAGES.get(backend) or exc.name
            raise StoreError(
                f"{_safe(url)}: the {backend} driver is not installed (no module {exc.name!r}): pip install {package}"
            ) from None
        except SQLAlchemyError as exc:
            raise StoreError(f"{_safe(url)}: cannot open the store: {_first_line(exc)}") from None
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def _migrate(self) -> None:
        """Bring the schema to head; two processes opening a new store at once take turns
        (a file lock beside a SQLite file, an advisory lock on PostgreSQL). A revision this
        autofix does not know (a newer one wrote the store) is refused, nothing changed.
        A store already at head is seen with one query: Alembic (a fifth of a second to
        import) is loaded only when there is something to migrate."""
        if self._at_head():
            return
        from alembic import command
        from alembic.config import Config
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        cfg = Config()
        cfg.set_main_option("script_location", str(data_path("migrations")))
        script = ScriptDirectory.from_config(cfg)
        with self._migration_turn(), self.engine.connect() as conn, _all_or_nothing(conn):
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(727370)")
            before = MigrationContext.configure(conn).get_current_heads()
            for revision in before:
                if not _knows(script, revision):
                    raise StoreError(self._newer_message(conn, revision, script.get_current_head()))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            self._record_version(conn, script.get_current_head())

    def _at_head(self) -> bool:
        """Whether the store's schema is this autofix's newest revision already."""
        with self.engine.connect() as conn:
            if not inspect(conn).has_table("alembic_version"):
                return False
            found = [row[0] for row in conn.exec_driver_sql("SELECT version_num FROM alembic_version")]
        return found == [_head_revision()]

    def _newer_message(self, conn: Connection, revision: str, head: str | None) -> str:
        from .. import __version__

        writer = "a newer autofix"
        if inspect(conn).has_table(MetaRow.__tablename__):
            found = conn.execute(select(MetaRow.value).where(MetaRow.key == "autofix_version")).scalar()
            if found:
                writer = f"autofix {found}"
        return (
            f"{_safe(self.url)}: the store is at schema revision {revision}, which this autofix ({__version__}, "
            f"revisions up to {head}) does not know; it was written by {writer}: use that version or newer"
        )

    @staticmethod
    def _record_version(conn: Connection, head: str | None) -> None:
        """Which autofix brought the store to this revision (an older one will say it)."""
        from .. import __version__

        rows = {key: value for key, value in conn.execute(select(MetaRow.key, MetaRow.value))}
        if rows.get("schema_revision") == head:
            return
        conn.execute(delete(MetaRow).where(MetaRow.key.in_(["autofix_version", "schema_revision"])))
        conn.execute(
            insert(MetaRow),
            [{"key": "autofix_version", "value": __version__}, {"key": "schema_revision", "value": str(head)}],
        )

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
        except _BadRow as exc:
            raise StoreError(f"{_safe(self.url)}: {exc}") from None

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
                name=_scrub(name),
                base_path=_scrub(base_path),
                base_text=_scrub(base_text),
                host=host,
                target=target,
                status=RunStatus.RUNNING.value,
                started_at=_now(),
                options_json=_dumps(options or {}),
            )
            s.add(row)
            s.flush()
            return _run(row)

    def redact_base_text(self, run_id: int, text: str) -> None:
        """Write a run's base text again (the host's parser named a secret the stored text
        still held). SQLite zeroes the old content (secure_delete) and the WAL, which may
        still hold the old page, is checkpointed and truncated."""
        with self._tx() as s:
            self._run_row(s, run_id).base_text = _scrub(text)
        if self.engine.dialect.name == "sqlite":
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

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
                candidate_json=_candidate_json(candidate),
                parent_id=parent_id,
                move_json=_dumps(move.to_json()) if move else None,
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
            row.resolved_json = _dumps(resolved or {})
            row.log_excerpt = _scrub(log_excerpt)
            for position, verdict in enumerate(verdicts):
                s.add(
                    VerdictRow(
                        attempt_id=row.id,
                        position=position,
                        gate=verdict.gate.value,
                        ok=verdict.ok,
                        seconds=verdict.seconds,
                        detail=_scrub(verdict.detail),
                    )
                )
            if failure is not None:
                row.failure_gate = failure.gate.value
                row.failure_class = failure.class_id
                row.fingerprint = failure.fingerprint
                row.exception = _scrub(failure.exception)
                row.message = _scrub(failure.message)
                row.frame_json = _dumps(failure.frame.to_json()) if failure.frame else None
                row.evidence = _scrub(failure.evidence)
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
            self._attempt_row(s, attempt_id).service_json = _dumps(service)

    def candidate_key(self, attempt_id: int) -> str:
        """The key of the attempt's real candidate (its stored JSON is redacted)."""
        with self._tx() as s:
            return self._attempt_row(s, attempt_id).candidate_key

    def service_of(self, attempt_id: int) -> dict[str, Any] | None:
        with self._tx() as s:
            row = self._attempt_row(s, attempt_id)
            return dict(_loads(row.service_json, "attempts", row.id, "service_json")) if row.service_json else None

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
            move = _read(
                Move.from_json, _loads(r.move_json, "attempts", r.id, "move_json"), "attempts", r.id, "move_json"
            )
            key = (parent.failure_class, move.label())
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
                        child_json=_candidate_json(child),
                        move_json=_dumps(move.to_json()),
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
                    child=_read(
                        Candidate.from_json,
                        _loads(r.child_json, "edges", r.id, "child_json"),
                        "edges",
                        r.id,
                        "child_json",
                    ),
                    move=_read(
                        Move.from_json, _loads(r.move_json, "edges", r.id, "move_json"), "edges", r.id, "move_json"
                    ),
                    rank=r.rank,
                    class_id=r.class_id,
                )
                for r in rows
            ]


@contextmanager
def _all_or_nothing(conn: Connection) -> Iterator[None]:
    """One transaction around the whole migration, DDL included. PostgreSQL's DDL is
    transactional as is. Python's sqlite3 driver opens a transaction before an INSERT or
    UPDATE only, so each CREATE TABLE would commit on its own, and a controller killed
    halfway left tables without the revision that made them (the next open: "table runs
    already exists"). On SQLite the migration takes the driver's transactions into its own
    hands for as long as it runs: BEGIN IMMEDIATE, then COMMIT, or ROLLBACK on any error."""
    if conn.dialect.name != "sqlite":
        with conn.begin():
            yield
        return
    raw = conn.connection.dbapi_connection
    assert raw is not None
    driver_mode = raw.isolation_level
    raw.isolation_level = None  # the driver issues no BEGIN or COMMIT of its own
    try:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.exec_driver_sql("ROLLBACK")
            raise
        conn.exec_driver_sql("COMMIT")
    finally:
        raw.isolation_level = driver_mode  # the pooled connection goes back as it came


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA busy_timeout=30000")  # first: what follows waits its turn
    if str(cursor.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
        _switch_to_wal(cursor)
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    # Rows rewritten to take a secret out leave no copy in freed pages.
    cursor.execute("PRAGMA secure_delete=ON")
    cursor.close()


def _switch_to_wal(cursor: Any, patience_s: float = 30.0) -> None:
    """WAL mode, set once per database file (it persists). Switching needs the database to
    itself, and SQLite answers "database is locked" at once rather than waiting when another
    connection holds it (a second process migrating a new store): try again until it is free."""
    deadline = time.monotonic() + patience_s
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def _safe(url: str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


# --- writing: nothing secret -------------------------------------------------------------------


def _scrub(text: str) -> str:
    return kept_out().scrub(text)


def _dumps(data: Any) -> str:
    """JSON of a tree whose strings are scrubbed first (scrubbing JSON text could cut it)."""
    return json.dumps(kept_out().scrub_tree(json.loads(json.dumps(data, default=repr))))


def _candidate_json(candidate: Candidate) -> str:
    return _dumps(kept_out().redact(candidate).to_json())


# --- reading: a row that does not read names itself -------------------------------------------


def _loads(raw: str | None, table: str, row_id: int, column: str) -> Any:
    try:
        return json.loads(raw or "")
    except ValueError:
        raise _BadRow(f"{table} row {row_id}: {column} is not valid JSON") from None


def _read(build: Any, data: Any, table: str, row_id: int, column: str) -> Any:
    try:
        return build(data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        raise _BadRow(f"{table} row {row_id}: {column} does not hold what autofix writes there") from None


def _enum(kind: Any, value: str | None, table: str, row_id: int, column: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise _BadRow(f"{table} row {row_id}: unknown {column} {value!r}") from None


def _run(row: RunRow) -> Run:
    started = _aware(row.started_at)
    assert started is not None
    options = _loads(row.options_json or "{}", "runs", row.id, "options_json")
    return Run(
        id=row.id,
        name=row.name,
        base_path=row.base_path,
        base_text=row.base_text,
        host=row.host,
        target=row.target,
        status=_enum(RunStatus, row.status, "runs", row.id, "status"),
        started_at=started,
        ended_at=_aware(row.ended_at),
        winner_id=row.winner_id,
        options=_read(pairs, options, "runs", row.id, "options_json"),
    )


def _attempt(row: AttemptRow, verdicts: Sequence[VerdictRow]) -> Attempt:
    failure = None
    if row.failure_gate is not None:
        frame = None
        if row.frame_json:
            f = _loads(row.frame_json, "attempts", row.id, "frame_json")
            frame = _read(
                lambda d: Frame(d["file"], int(d["line"]), d["function"], d.get("source", "")),
                f,
                "attempts",
                row.id,
                "frame_json",
            )
        failure = Failure(
            gate=_enum(Gate, row.failure_gate, "attempts", row.id, "failure_gate"),
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
    candidate = _loads(row.candidate_json, "attempts", row.id, "candidate_json")
    move = _loads(row.move_json, "attempts", row.id, "move_json") if row.move_json else None
    resolved = _loads(row.resolved_json or "{}", "attempts", row.id, "resolved_json")
    return Attempt(
        id=row.id,
        run_id=row.run_id,
        seq=row.seq,
        candidate=_read(Candidate.from_json, candidate, "attempts", row.id, "candidate_json"),
        parent_id=row.parent_id,
        move=_read(Move.from_json, move, "attempts", row.id, "move_json") if move is not None else None,
        state=_enum(AttemptState, row.state, "attempts", row.id, "state"),
        started_at=started,
        ended_at=_aware(row.ended_at),
        verdicts=tuple(
            GateVerdict(_enum(Gate, v.gate, "verdicts", v.id, "gate"), v.ok, v.seconds, v.detail) for v in verdicts
        ),
        failure=failure,
        resolved=_read(pairs, resolved, "attempts", row.id, "resolved_json"),
        launched=bool(row.launched),
        log_excerpt=row.log_excerpt or "",
        cached_from=row.cached_from,
        plan=GatePlan.from_json(json.loads(row.plan_json)) if row.plan_json else None,
    )


def _knows(script: Any, revision: str) -> bool:
    from alembic.script.revision import RevisionError
    from alembic.util.exc import CommandError

    try:
        return script.get_revision(revision) is not None
    except (CommandError, RevisionError):
        return False


_REVISION = re.compile(r'^(down_revision|revision)\s*=\s*["\']?([^"\'\s]+)', re.MULTILINE)


@lru_cache(maxsize=1)
def _head_revision() -> str | None:
    """The newest revision of migrations/versions, read from its files (one head: each
    revision names the one before it), without loading Alembic."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (data_path("migrations") / "versions").glob("*.py"):
        found = dict(_REVISION.findall(path.read_text(encoding="utf-8")))
        if "revision" in found:
            revisions.add(found["revision"])
            parents.add(found.get("down_revision", "None"))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None
