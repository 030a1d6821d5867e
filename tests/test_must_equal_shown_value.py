"""Issue 14 round 29e, written before the change.

"--x must equal its launch-time TP size (4)": a check that wants a flag equal to another
setting shows that setting's value in parentheses; the flag is set to it (the message
names the value, so no candidate is needed to know it). Only an equality: "at most (4)"
or a value the check got ("(got 3)") is no value to set.

These tests use their own messages."""

from __future__ import annotations

import pytest

from .proposing import proposed


@pytest.mark.parametrize(
    "message",
    [
        "The primary --elastic-ep-initial-size must equal its launch-time TP size (8).",
        "--elastic-ep-initial-size must be equal to the expert parallel size (8)",
        "--elastic-ep-initial-size must match the world size (8).",
    ],
)
def test_a_flag_that_must_equal_a_shown_value_is_set_to_it(message: str) -> None:
    _, moves = proposed({"elastic-ep-initial-size": "2", "tp-size": "8"}, "AssertionError", message)
    assert moves[0].move.label() == "set elastic-ep-initial-size=8"


@pytest.mark.parametrize(
    "message",
    [
        "--elastic-ep-initial-size must be at most the TP size (8).",
        "--elastic-ep-initial-size must equal the TP size (got 2).",
    ],
)
def test_no_equality_no_value(message: str) -> None:
    _, moves = proposed({"elastic-ep-initial-size": "2", "tp-size": "8"}, "AssertionError", message)
    assert "set elastic-ep-initial-size=8" not in [p.move.label() for p in moves[:1]]
