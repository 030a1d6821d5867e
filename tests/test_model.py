"""Candidates: canonical form, stable key, argv, immutable edits, redaction."""

from __future__ import annotations

from autofix.model import (
    AttemptState,
    Candidate,
    Edit,
    EditOp,
    Gate,
    GatePlan,
    Move,
    added,
    diff,
    distance,
    gave_up,
    renames,
)


def test_key_ignores_order_and_number_spelling() -> None:
    """The same launch written in another order or as "8" vs 8 has the same key."""
    a = Candidate.build({"tp": 8, "model-path": "/m"}, {"A": "1"})
    b = Candidate.build({"model-path": "/m", "tp": "8"}, {"A": 1})
    assert a.key == b.key
    assert len(a.key) == 64
    assert a.key != Candidate.build({"tp": 4, "model-path": "/m"}, {"A": "1"}).key


def test_edits_return_new_candidates_in_place() -> None:
    """Setting keeps the flag's position; dropping removes it; the original is unchanged."""
    c = Candidate.build({"a": 1, "b": 2, "c": True})
    d = c.with_arg("b", "5").without_arg("c").with_arg("z", ("1", "2"))
    assert d.argv() == ["--a", "1", "--b", "5", "--z", "1", "2"]
    assert c.argv() == ["--a", "1", "--b", "2", "--c"]


def test_round_trip_and_redaction() -> None:
    """JSON round trip keeps order; secrets are redacted for the store."""
    c = Candidate.build({"x": [1, 2], "y": True}, {"HF_TOKEN": "hf_secret", "NCCL_ALGO": "Ring"})
    assert Candidate.from_json(c.to_json()) == c
    red = c.redacted()
    assert red.env_dict() == {"HF_TOKEN": "<redacted>", "NCCL_ALGO": "Ring"}
    assert "hf_secret" not in red.canonical()


def test_diff_and_distance() -> None:
    """Distance counts flags and env vars that differ."""
    a = Candidate.build({"a": 1, "b": 2}, {"E": "1"})
    b = Candidate.build({"a": 1, "b": 3, "c": True}, {})
    assert distance(a, b) == 3
    assert ("arg", "b", "2", "3") in diff(a, b)


def test_move_json_round_trip() -> None:
    """Moves keep the DESIGN.md shape (op, flag/name, value, inferred) and extra edits."""
    move = Move((Edit(EditOp.DROP, "a"), Edit(EditOp.SET_ENV, "X", "1")), inferred=True, origin="message")
    data = move.to_json()
    assert data["op"] == "drop" and data["flag"] == "a" and data["inferred"] is True
    assert data["with"] == [{"op": "set_env", "name": "X", "value": "1"}]
    assert Move.from_json(data) == move


def _plan(*gates: tuple[Gate, dict[str, object]]) -> GatePlan:
    return GatePlan(tuple((g, tuple(settings.items())) for g, settings in gates))


PRE = (Gate.PREFLIGHT, {"timeout": 120.0})
START = (Gate.START, {"settle": 20.0})
READY = (Gate.READY, {"timeout": 900.0})
BENCH = (Gate.BENCH, {"min_tokens_per_s": 26.3})


def test_a_pass_answers_only_the_gates_it_ran() -> None:
    """A pass under preflight alone answers no search that launches; a pass under every
    gate answers a search with fewer; a bench floor that differs is another question."""
    passed = AttemptState.PASSED
    assert _plan(PRE).answered_by(passed, None, _plan(PRE))
    assert not _plan(PRE, START, READY).answered_by(passed, None, _plan(PRE))
    assert _plan(PRE, START).answered_by(passed, None, _plan(PRE, START, READY))
    higher = (Gate.BENCH, {"min_tokens_per_s": 40.0})
    assert not _plan(PRE, START, READY, higher).answered_by(passed, None, _plan(PRE, START, READY, BENCH))


def test_a_failure_answers_searches_that_reach_its_gate_the_same_way() -> None:
    """A preflight failure answers any search with the same preflight; a ready timeout
    under 900 s says nothing to a search without the ready gate or with a longer wait."""
    failed, timeout = AttemptState.FAILED, AttemptState.TIMEOUT
    assert _plan(PRE, START, READY).answered_by(failed, Gate.PREFLIGHT, _plan(PRE))
    assert not _plan(PRE, START).answered_by(timeout, Gate.READY, _plan(PRE, START, READY))
    longer = (Gate.READY, {"timeout": 1800.0})
    assert not _plan(PRE, START, longer).answered_by(timeout, Gate.READY, _plan(PRE, START, READY))
    assert not _plan(START, READY).answered_by(failed, Gate.READY, _plan(PRE, START, READY))
    assert not _plan(PRE).answered_by(failed, None, _plan(PRE))


def test_gate_plan_json_round_trip() -> None:
    """What the store keeps reads back to the same plan."""
    plan = _plan(PRE, START, READY, BENCH)
    assert GatePlan.from_json(plan.to_json()) == plan


def test_gave_up_says_what_the_winner_lost_in_the_operators_words() -> None:
    """Dropped flags, changed values and unset env are given up; added flags and a rename
    that keeps the value are not."""
    base = Candidate.build(
        {"speculative-eagle-top-k": 4, "speculative-num-draft-tokens": 3, "enable-x": True, "tp": 8},
        {"NCCL_PROTO": "LL", "NCCL_ALGO": "Ring"},
    )
    winner = Candidate.build(
        {"speculative-eagle-topk": 1, "speculative-num-draft-tokens": 3, "tp": 8, "speculative-num-steps": 2},
        {"NCCL_ALGO": "Tree"},
    )
    renamed = {"speculative-eagle-top-k": "speculative-eagle-topk"}
    assert gave_up(base, winner, renamed) == [
        "--speculative-eagle-top-k: 4 -> 1 (as speculative-eagle-topk)",
        "--enable-x: dropped",
        "NCCL_PROTO=LL: unset",
        "NCCL_ALGO: Ring -> Tree",
    ]
    assert added(base, winner, renamed) == ["--speculative-num-steps 2"]
    same = Candidate.build({"speculative-eagle-topk": 4, "speculative-num-draft-tokens": 3, "tp": 8})
    assert gave_up(base.without_arg("enable-x").without_env("NCCL_PROTO").without_env("NCCL_ALGO"), same, renamed) == []


def test_renames_follow_a_flag_through_every_respelling() -> None:
    """A path that respells a flag twice maps the base's spelling to the last one."""
    path = [
        Move((Edit(EditOp.RENAME, "speculative_eagle_topk", "speculative-eagle-top-k"),)),
        Move((Edit(EditOp.SET, "speculative-num-steps", "2"),)),
        Move((Edit(EditOp.RENAME, "speculative-eagle-top-k", "speculative-eagle-topk"),)),
    ]
    assert renames(path) == {"speculative_eagle_topk": "speculative-eagle-topk"}
