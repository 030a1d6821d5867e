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
        open_store("not a url at all")
    with pytest.raises(StoreError):
        open_store("sqlite:////nonexistent-dir/x/runs.db")


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
        assert version == "0003"
        # A pass recorded before plans were kept answers no search, not even a preflight-only one.
        key, version_of = (
            sqlite3.connect(copy)
            .execute("select candidate_key, target_version from attempts where state = 'passed'")
            .fetchone()
        )
        preflight = GatePlan(((Gate.PREFLIGHT, (("timeout", 120.0),)),))
        assert store.cached(key, run.host, version_of, preflight) is None


def test_secret_values_in_the_base_text_are_redacted() -> None:
    """The base config's text is kept with secret values replaced, other keys untouched."""
    from autofix.config import parse_base
    from autofix.model import redact_text, secret_names

    text = (
        "launch:\n  args: {m: 1}\n  env:\n    HF_TOKEN: hf_topsecret  # from the hub\n    NCCL_ALGO: Ring\n"
        "    API_KEY: 'sk-1'\ngates:\n  smoke: {max_tokens: 16}\n"
    )
    red = redact_text(text, secret_names(parse_base(text).base))
    assert "hf_topsecret" not in red and "sk-1" not in red
    assert "HF_TOKEN: <redacted>  # from the hub" in red and "NCCL_ALGO: Ring" in red
    assert "max_tokens: 16" in red  # a key that merely contains TOKEN is no secret
    assert parse_base(red).base.env_dict()["HF_TOKEN"] == "<redacted>"


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
