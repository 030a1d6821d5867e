"""Candidates: canonical form, stable key, argv, immutable edits, redaction."""

from __future__ import annotations

from autofix.model import Candidate, Edit, EditOp, Move, diff, distance


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
