"""Issue 14 round 46f, written before the change: a list of numbers given to a flag that
takes one number and whose name says it is a bound (--x-max-bs 1 2 4 8 16 32, the way a list
flag of batch sizes is written) meant the list's largest for a maximum and its smallest for a
minimum: argparse keeps the first and leaves the rest over, and the first of a sweep is the
smallest. Other flags keep their first value, as before. Flag names are SGLang's; values ours."""

from __future__ import annotations

from .proposing import proposed_labels


def _first(args: dict[str, object], left_over: str) -> str:
    return proposed_labels(args, "argparse_error", f"error: unrecognized arguments: {left_over}")[0]


def test_a_maximum_given_a_sweep_is_the_sweeps_largest() -> None:
    args = {"model-path": "/m", "torch-compile-max-bs": ["2", "4", "8", "48"]}
    assert _first(args, "4 8 48") == "set torch-compile-max-bs=48"


def test_a_value_flag_that_names_no_bound_keeps_its_first_value() -> None:
    args = {"model-path": "/m", "max-running-requests": ["64", "128"], "chunked-prefill-size": ["4096", "8192"]}
    labels = proposed_labels(args, "argparse_error", "error: unrecognized arguments: 8192")
    assert labels[0] == "set chunked-prefill-size=4096"
