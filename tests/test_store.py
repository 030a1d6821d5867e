"""The store: migrations on open, attempts written before and after, frozen values out."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from autofix.errors import StoreError, UnknownRecord
from autofix.model import (
    AttemptState,
    Candidate,
    Edit,
    EditOp,
    Failure,
    Frame,
    Gate,
    GatePlan,
    GateVerdict,
    Move,
    RunStatus,
)
from autofix.store import open_store


def test_run_and_attempt_life_cycle(store_url: str) -> None:
    """An attempt is 'running' once begun and complete once finished; edges are kept."""
    store = open_store(store_url)
    run = store.create_run(name="n", base_path="b.yaml", base_text="launch: {args: {m: 1}}", host="sim", target="sim")
    base = Candidate.build({"m": 1}, {"HF_TOKEN": "secret"})
    a1 = store.begin_attempt(run.id, base, parent_id=None, move=None, host="sim", target_version="0.5.23")
    assert store.attempts(run.id)[0].state is AttemptState.RUNNING
    failure = Failure(Gate.PREFLIGHT, "cls", "fp", "AssertionError", "", Frame("f.py", 3, "fn", "assert x"), "tb")
    store.finish_attempt(
        a1.id,
        state=AttemptState.FAILED,
        verdicts=[GateVerdict(Gate.PREFLIGHT, False, 0.5, "AssertionError")],
        failure=failure,
        resolved={"page_size": 64},
    )
    move = Move((Edit(EditOp.SET, "m", "2"),), origin="cls")
    child = base.with_arg("m", "2")
    store.add_edges(run.id, base.key, [(child, move, "cls")])
    a2 = store.begin_attempt(run.id, child, parent_id=a1.id, move=move, host="sim", target_version="0.5.23")
    store.mark_launched(a2.id)
    store.finish_attempt(
        a2.id, state=AttemptState.PASSED, verdicts=[GateVerdict(Gate.PREFLIGHT, True, 0.3)], failure=None
    )
    store.finish_run(run.id, RunStatus.PASSED, a2.id)

    again = open_store(store_url)  # migrations are idempotent on reopen
    attempts = again.attempts(run.id)
    assert [a.seq for a in attempts] == [1, 2]
    assert attempts[0].failure == failure
    assert dict(attempts[0].resolved) == {"page_size": 64}
    assert attempts[1].move == move and attempts[1].parent_id == a1.id and attempts[1].launched
    assert attempts[0].candidate.env_dict() == {"HF_TOKEN": "<redacted>"}
    assert again.run(run.id).winner_id == a2.id
    assert again.edges(run.id)[0].child_key == child.key


def test_secrets_never_reach_the_database_file(tmp_path: Path) -> None:
    """The secret value appears nowhere in the SQLite file."""
    url = f"sqlite:///{tmp_path / 's.db'}"
    store = open_store(url)
    run = store.create_run(name="n", base_path="b", base_text="", host="h", target="t")
    store.begin_attempt(
        run.id,
        Candidate.build({"m": 1}, {"API_KEY": "sk-verysecret"}),
        parent_id=None,
        move=None,
        host="h",
        target_version=None,
    )
    store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"sk-verysecret" not in raw


def test_sqlite_is_in_wal_mode(tmp_path: Path) -> None:
    """SQLite stores run in WAL mode (a reader never blocks the writer)."""
    url = f"sqlite:///{tmp_path / 'w.db'}"
    open_store(url).create_run(name="n", base_path="b", base_text="", host="h", target="t")
    mode = sqlite3.connect(tmp_path / "w.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_unknown_records_and_bad_urls() -> None:
    """Unknown ids are input errors (exit 2); an unusable URL is a store error (exit 3)."""
    store = open_store("sqlite://")
    with pytest.raises(UnknownRecord):
        store.run(42)
    with pytest.raises(UnknownRecord):
        store.attempt(42)
    with pytest.raises(StoreError):
        open_store("nosuchdatabase://somewhere/x")
    with pytest.raises(StoreError):
        open_store("sqlite:////nonexistent-dir/x/runs.db")
    with pytest.raises(StoreError):
        open_store("/nonexistent-dir/x/runs.db")


def test_a_path_is_a_sqlite_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--db runs.db, --db /abs/y.db and AUTOFIX_DB=~/z.db are SQLite files at those paths."""
    monkeypatch.chdir(tmp_path)
    open_store("runs.db").create_run(name="n", base_path="b", base_text="", host="h", target="t")
    assert (tmp_path / "runs.db").exists()
    open_store(str(tmp_path / "y.db")).runs()
    assert (tmp_path / "y.db").exists()
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("AUTOFIX_DB", "~/z.db")
    open_store().runs()
    assert (tmp_path / "z.db").exists()


def test_committed_database_of_every_earlier_revision_upgrades(tmp_path: Path) -> None:
    """tests/data/db/rev-*.db (one per earlier Alembic revision) open, upgrade, keep data."""
    import shutil

    from .conftest import DATA

    files = sorted((DATA / "db").glob("rev-*.db"))
    assert files, "no committed databases"
    for old in files:
        copy = tmp_path / old.name
        shutil.copy(old, copy)
        store = open_store(f"sqlite:///{copy}")
        run = store.runs()[0]
        attempts = store.attempts(run.id)
        assert run.status is RunStatus.PASSED and [a.state for a in attempts] == [
            AttemptState.FAILED,
            AttemptState.PASSED,
        ]
        assert attempts[0].failure is not None and attempts[0].failure.class_id == "spec-eagle-params-incomplete"
        store.set_service(attempts[1].id, {"name": "u"})  # a column of the newest revision
        version = sqlite3.connect(copy).execute("select version_num from alembic_version").fetchone()[0]
        assert version == _head()
        # A pass recorded before plans were kept answers no search, not even a preflight-only one.
        key, version_of = (
            sqlite3.connect(copy)
            .execute("select candidate_key, target_version from attempts where state = 'passed'")
            .fetchone()
        )
        preflight = GatePlan(((Gate.PREFLIGHT, (("timeout", 120.0),)),))
        assert store.cached(key, run.host, version_of, preflight) is None


def test_cache_finds_the_latest_judged_attempt_of_a_candidate(store_url: str) -> None:
    """Same candidate, host, target version and gates: the latest passed/failed attempt, any run."""
    store = open_store(store_url)
    c = Candidate.build({"m": 1})
    plan = GatePlan(((Gate.PREFLIGHT, (("timeout", 120.0),)),))
    for state in (AttemptState.FAILED, AttemptState.INTERRUPTED):
        run = store.create_run(name="n", base_path="b", base_text="", host="sim", target="sim")
        a = store.begin_attempt(run.id, c, parent_id=None, move=None, host="sim", target_version="0.5.23", plan=plan)
        verdicts = [GateVerdict(Gate.PREFLIGHT, False, 0.1, "AssertionError")]
        store.finish_attempt(a.id, state=state, verdicts=verdicts, failure=None)
    hit = store.cached(c.key, "sim", "0.5.23", plan)
    assert hit is not None and hit.state is AttemptState.FAILED and hit.plan == plan
    assert store.cached(c.key, "other-host", "0.5.23", plan) is None
    assert store.cached(c.key, "sim", "0.6.0", plan) is None


def test_cache_reuses_a_pass_only_for_the_gates_it_ran(store_url: str) -> None:
    """A preflight-only pass answers a preflight-only search, never one that launches;
    a full pass answers a search that asks for fewer gates; a record without a plan
    (written before plans were kept) answers nothing."""
    store = open_store(store_url)
    c = Candidate.build({"m": 1})
    preflight = GatePlan(((Gate.PREFLIGHT, (("timeout", 120.0),)),))
    full = GatePlan((*preflight.runs, (Gate.START, (("settle", 20.0),)), (Gate.READY, (("timeout", 900.0),))))
    run = store.create_run(name="n", base_path="b", base_text="", host="sim", target="sim")
    a = store.begin_attempt(run.id, c, parent_id=None, move=None, host="sim", target_version="v", plan=preflight)
    store.finish_attempt(
        a.id, state=AttemptState.PASSED, verdicts=[GateVerdict(Gate.PREFLIGHT, True, 0.1)], failure=None
    )
    assert store.cached(c.key, "sim", "v", full) is None
    assert store.cached(c.key, "sim", "v", preflight) is not None
    b = store.begin_attempt(run.id, c, parent_id=None, move=None, host="sim", target_version="v", plan=full)
    store.finish_attempt(b.id, state=AttemptState.PASSED, verdicts=[], failure=None)
    hit = store.cached(c.key, "sim", "v", full)
    assert hit is not None and hit.id == b.id
    old = Candidate.build({"m": 2})
    x = store.begin_attempt(run.id, old, parent_id=None, move=None, host="sim", target_version="v")
    store.finish_attempt(x.id, state=AttemptState.PASSED, verdicts=[], failure=None)
    assert store.cached(old.key, "sim", "v", preflight) is None


def test_interrupt_running_reopen_and_services(store_url: str) -> None:
    """What --resume relies on: running attempts become interrupted, the run reopens,
    each launch's service is kept."""
    store = open_store(store_url)
    run = store.create_run(name="n", base_path="b", base_text="", host="sim", target="sim")
    a = store.begin_attempt(
        run.id, Candidate.build({"m": 1}), parent_id=None, move=None, host="sim", target_version="v"
    )
    store.mark_launched(a.id)
    store.set_service(a.id, {"name": "autofix-1-1-x", "directory": "/tmp/d", "pid": 42, "log_path": "/tmp/d/log"})
    store.finish_run(run.id, RunStatus.INTERRUPTED, None)
    lost = store.interrupt_running(run.id)
    assert [x.id for x in lost] == [a.id] and lost[0].state is AttemptState.INTERRUPTED
    assert store.interrupt_running(run.id) == []
    assert store.service_of(a.id) == {
        "name": "autofix-1-1-x",
        "directory": "/tmp/d",
        "pid": 42,
        "log_path": "/tmp/d/log",
    }
    assert store.reopen_run(run.id).status is RunStatus.RUNNING
    assert store.candidate_key(a.id) == Candidate.build({"m": 1}).key
    with pytest.raises(UnknownRecord):
        store.run(run.id + 1000)


@pytest.mark.integration
def test_whole_search_on_the_store_url(store_url: str, tmp_path: Path) -> None:
    """A team's store: the sim search and its review through --db, on SQLite and PostgreSQL."""
    import json
    import os
    import subprocess
    import sys

    from .conftest import ROOT

    env = {**os.environ, "AUTOFIX_SIM_LOAD_S": "1", "TMPDIR": str(tmp_path), "AUTOFIX_DB": store_url}
    base = str(ROOT / "examples" / "k26-eagle3.yaml")
    done = subprocess.run(
        [sys.executable, "-m", "autofix.cli", "search", "--base", base, "--host", "sim", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout.strip().splitlines()[-1])["run"]
    listed = subprocess.run(
        [sys.executable, "-m", "autofix.cli", "history", str(run), "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(listed.stdout)["attempts"][-1]["state"] == "passed"


def test_move_stats_learn_which_move_fixed_a_class(store_url: str) -> None:
    """A move whose attempt no longer failed with its parent's class counts as a fix."""
    store = open_store(store_url)
    run = store.create_run(name="n", base_path="b", base_text="", host="h", target="t")
    base = Candidate.build({"m": 1})
    parent = store.begin_attempt(run.id, base, parent_id=None, move=None, host="h", target_version="v")
    store.finish_attempt(
        parent.id, state=AttemptState.FAILED, verdicts=[], failure=Failure(Gate.PREFLIGHT, "cls", "f", "E", "")
    )
    good = Move((Edit(EditOp.SET, "a", "1"),))
    bad = Move((Edit(EditOp.SET, "b", "1"),))
    for move, outcome in ((good, None), (bad, "cls")):
        a = store.begin_attempt(
            run.id,
            base.with_arg(move.edits[0].target, "1"),
            parent_id=parent.id,
            move=move,
            host="h",
            target_version="v",
        )
        failure = Failure(Gate.PREFLIGHT, outcome, "f", "E", "") if outcome else None
        store.finish_attempt(
            a.id, state=AttemptState.FAILED if outcome else AttemptState.PASSED, verdicts=[], failure=failure
        )
    stats = store.move_stats()
    assert stats[("cls", "set a=1")] == 1.0 and stats[("cls", "set b=1")] == 0.0


def _head() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from autofix.resources import data_path

    cfg = Config()
    cfg.set_main_option("script_location", str(data_path("migrations")))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


def test_secret_values_never_reach_the_file_whatever_column(tmp_path: Path) -> None:
    """Once a run's secrets are kept out, no column holds them: the base text, the
    candidate (flags and env), what preflight resolved, verdicts, the failure's evidence,
    message and frame, the log excerpt, the proposed edges."""
    from autofix.config import parse_base
    from autofix.secrets import keep_out

    config = parse_base(
        "launch:\n  args: {model-path: /m, api-key: sk-Column1}\n  env: {HF_TOKEN: hf_Column2}\n", source="c.yaml"
    )
    keep_out(config.secrets)
    url = f"sqlite:///{tmp_path / 'c.db'}"
    store = open_store(url)
    run = store.create_run(
        name="n", base_path="c.yaml", base_text=config.stored_text + "# sk-Column1\n", host="h", target="t"
    )
    a = store.begin_attempt(run.id, config.base, parent_id=None, move=None, host="h", target_version=None)
    said = "server_args={'api_key': 'sk-Column1', 'hf': \"hf_Column2\"}"
    store.finish_attempt(
        a.id,
        state=AttemptState.FAILED,
        verdicts=[GateVerdict(Gate.START, False, 1.0, said)],
        failure=Failure(Gate.START, None, "fp", "ValueError", said, Frame("f.py", 1, "f", said), said),
        resolved={"api_key": "sk-Column1", "__changed__": {"api_key": [None, "sk-Column1"]}},
        log_excerpt=said,
    )
    child = config.base.with_arg("tp", "2")
    store.add_edges(run.id, config.base.key, [(child, Move((Edit(EditOp.SET, "tp", "2"),)), None)])
    assert store.candidate_key(a.id) == config.base.key  # the cache still knows the real candidate
    store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"sk-Column1" not in raw and b"hf_Column2" not in raw
    shown = open_store(url).attempt(a.id)
    assert shown.candidate.arg("api-key") == "<redacted>" and dict(shown.resolved)["api_key"] == "<redacted>"


def _stored_run(tmp_path: Path) -> tuple[Path, int]:
    db = tmp_path / "r.db"
    store = open_store(f"sqlite:///{db}")
    run = store.create_run(name="n", base_path="b", base_text="launch: {args: {m: 1}}", host="h", target="t")
    a = store.begin_attempt(run.id, Candidate.build({"m": 1}), parent_id=None, move=None, host="h", target_version=None)
    store.finish_attempt(a.id, state=AttemptState.FAILED, verdicts=[], failure=None)
    store.close()
    return db, run.id


def test_a_store_from_a_newer_autofix_names_the_version_it_needs(tmp_path: Path) -> None:
    """A schema revision this autofix does not know is a store error that says which
    autofix wrote it, before anything is changed."""
    db, _ = _stored_run(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("update alembic_version set version_num = '0099'")
        conn.execute("update autofix_meta set value = '9.4.0' where key = 'autofix_version'")
    with pytest.raises(StoreError) as info:
        open_store(f"sqlite:///{db}")
    message = str(info.value)
    assert "schema revision 0099" in message and "autofix 9.4.0" in message and "\n" not in message
    assert sqlite3.connect(db).execute("select version_num from alembic_version").fetchone()[0] == "0099"


@pytest.mark.parametrize(
    ("sql", "words"),
    [
        ("update attempts set state = 'exploded'", "attempts row 1: unknown state 'exploded'"),
        ("update attempts set candidate_json = '{\"args\": ['", "attempts row 1: candidate_json is not valid JSON"),
        ("update runs set status = 'weird'", "runs row 1: unknown status 'weird'"),
        ("update runs set options_json = 'nope'", "runs row 1: options_json is not valid JSON"),
    ],
)
def test_a_broken_stored_row_is_a_store_error_naming_the_row(tmp_path: Path, sql: str, words: str) -> None:
    """An unknown state or broken JSON in a row (another tool, a bad edit) is a one-line
    store error naming the table and row, not a traceback."""
    db, run_id = _stored_run(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute(sql)
    store = open_store(f"sqlite:///{db}")
    with pytest.raises(StoreError) as info:
        store.run(run_id)
        store.attempts(run_id)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_url_whose_driver_is_missing_says_what_to_install() -> None:
    """mysql:// without MySQLdb: a store error naming the URL (password hidden) and the package."""
    with pytest.raises(StoreError) as info:
        open_store("mysql://u:pw@db.example/x")
    message = str(info.value)
    assert "mysql://u:***@db.example/x" in message and "pw@" not in message and "mysqlclient" in message


def test_a_migration_that_dies_halfway_leaves_the_store_as_it_was(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole migration is one transaction, DDL included: killed after the first
    revision's tables were made (here: an error right after revision 0001), the store is
    left without them, and the next open migrates it from scratch. Python's sqlite3
    commits each CREATE TABLE on its own unless told otherwise: the next open then failed
    with "table runs already exists"."""
    from alembic import command

    real_upgrade = command.upgrade

    def dies_after_the_first_revision(cfg, revision):  # type: ignore[no-untyped-def]
        real_upgrade(cfg, "0001")
        raise KeyboardInterrupt  # as a SIGINT would, after the first revision's DDL

    monkeypatch.setattr(command, "upgrade", dies_after_the_first_revision)
    with pytest.raises(KeyboardInterrupt):
        open_store(store_url)
    monkeypatch.setattr(command, "upgrade", real_upgrade)
    store = open_store(store_url)  # migrates from nothing: no "table runs already exists"
    assert store.runs() == []
