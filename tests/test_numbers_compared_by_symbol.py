"""Issue 14 round 45g, written before the change (0.5.23-thirty-second's prefill graph
context, in our words): a message that names one flag the user set and shows the violation
as two numbers and a symbol, the user's value first ("--x exceeds the model context length:
aligned size 65536 > 40960"), states the bound on its right: the flag is set to it (the
graphs the user wanted, for the longest context the check takes) before it is left out. A
comparison the message asks for ("must satisfy 0 < 8") states no violation, and a number
that is not the user's value says nothing of the flag."""

from __future__ import annotations

from .proposing import proposed_labels

FLAG = "cuda-graph-prefill-max-context"


def test_the_bound_on_the_right_is_the_value() -> None:
    message = f"--{FLAG} exceeds the model context length: aligned size 65536 > 40960"
    labels = proposed_labels({FLAG: "65536"}, "ValueError", message)
    assert labels[0] == f"set {FLAG}=40960", labels


def test_a_value_below_a_floor_is_raised_to_it() -> None:
    message = "--max-prefill-tokens is below the chunk size: 2048 < 8192"
    labels = proposed_labels({"max-prefill-tokens": "2048"}, "ValueError", message)
    assert labels[0] == "set max-prefill-tokens=8192", labels


def test_another_number_says_nothing_of_the_flag() -> None:
    message = f"--{FLAG} exceeds the model context length: aligned size 65536 > 40960"
    labels = proposed_labels({FLAG: "70000"}, "ValueError", message)
    assert f"set {FLAG}=40960" not in labels, labels
