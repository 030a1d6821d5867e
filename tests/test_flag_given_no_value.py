"""Issue 14 round 47g, written before the change (0.5.23-thirty-fifth's --attn-dp-size written
as the old switch, 0.5.11-thirteenth's --nnodes before an unset variable, both scored blind at
round 47: refused at load, no search).

A flag that takes a number given none (argparse: "expected one argument") gets a value the
command evidently means: a size that splits another into groups the whole of it (attention
DP over every TP rank, what the old --enable-dp-attention switch meant), else the flag's
documented value; else it goes (back to the parser's default). The message is argparse's;
the values are ours."""

from __future__ import annotations

from .proposing import proposed_labels


def test_a_size_that_splits_another_given_no_value_takes_the_whole() -> None:
    labels = proposed_labels(
        {"tp-size": "4", "attn-dp-size": True, "enable-dp-lm-head": True},
        "error",
        "argument --attn-dp-size/--attention-data-parallel-size: expected one argument",
    )
    assert labels[0] == "set attn-dp-size=4"


def test_a_number_flag_given_no_value_with_no_reading_goes() -> None:
    labels = proposed_labels(
        {"tp-size": "4", "max-running-requests": True},
        "error",
        "argument --max-running-requests: expected one argument",
    )
    assert labels[0] == "drop max-running-requests"
