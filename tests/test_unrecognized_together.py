"""Issue 14 round 25b, written before the change: argparse names every flag it does not
know in one "unrecognized arguments" line, so a child that still carries one of them fails
the same way. No such child is proposed: the move that answers all of them is the only
one worth an attempt (two other engines' flags cost 4 attempts where 2 do)."""

from __future__ import annotations

from .proposing import proposed

_TWO = "sglang serve: error: unrecognized arguments: --bind-name 0.0.0.0 --bind-port 23333"


def test_no_child_keeps_a_flag_the_parser_refused_beside_another() -> None:
    _, found = proposed({"bind-name": "0.0.0.0", "bind-port": "23333"}, "argparse_error", _TWO)
    assert found, "the flags refused together must still be answered"
    for p in found:
        assert not p.child.has("bind-name") and not p.child.has("bind-port"), p.move.label()


def test_the_flags_are_answered_as_the_user_typed_them() -> None:
    message = "sglang serve: error: unrecognized arguments: --Bind_Port 23333 --alias m1"
    _, found = proposed({"Bind_Port": "23333", "alias": "m1", "port": "30000"}, "argparse_error", message)
    assert found and all(not p.child.has("Bind_Port") and not p.child.has("alias") for p in found)
    assert all(p.child.arg("port") == "30000" for p in found)


def test_words_that_are_no_flag_do_not_filter() -> None:
    """A switch given a value leaves the value over ('unrecognized arguments: true'):
    nothing named is a flag the candidate holds, the proposals stay as they were."""
    message = "sglang serve: error: unrecognized arguments: true"
    _, found = proposed({"trust-remote-code": "true"}, "argparse_error", message)
    assert any(p.child.has("trust-remote-code") for p in found), [p.move.label() for p in found]


def test_flags_with_a_reading_are_renamed_in_the_move_that_drops_the_rest() -> None:
    """Round 25h, written before the change (crossover4 read): one refused flag has a
    reading (vLLM's --max-num-seqs is --max-running-requests), another has none; the
    rename move left the second in place, so 25b's rule filtered it out and only the move
    that drops both was tried, losing the first one's value. The rename move now drops
    what no reading answers."""
    message = "sglang serve: error: unrecognized arguments: --max-num-seqs 64 --made-up-switch"
    _, found = proposed({"max-num-seqs": "64", "made-up-switch": True}, "argparse_error", message)
    assert found and found[0].child.arg("max-running-requests") == "64", [p.move.label() for p in found]
    assert not found[0].child.has("made-up-switch")
