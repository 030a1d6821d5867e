"""Issue 14 round 11, written before the change: a check that converts a value to a number
itself (float(x), int(x)) fails with Python's own message, which quotes the value and names
no flag ("could not convert string to float: '2k'", "invalid literal for int() with base 10:
'8K'"). The flag that holds the value (whole, or as one member of a list) is found, and the
value is mended as an operator would: a size with a unit is the plain integer it means,
numbers joined by commas are the list's members. These tests use their own flags and values.
"""

from __future__ import annotations

from autofix.model import Candidate
from autofix.repair import apply

from .proposing import proposed


def first_child(args: dict[str, object], message: str) -> Candidate | None:
    candidate, found = proposed(args, "ValueError", message)
    return apply(candidate, found[0].move) if found else None


def test_a_list_member_with_a_unit_is_the_plain_integer() -> None:
    child = first_child(
        {"generation-tokens-buckets": ["custom", "100", "2k", "8k"]}, "could not convert string to float: '2k'"
    )
    assert child is not None and child.arg("generation-tokens-buckets") == ("custom", "100", "2000", "8000")


def test_numbers_joined_by_commas_are_the_lists_members() -> None:
    child = first_child(
        {"generation-tokens-buckets": ["custom", "100,1000,10000"]},
        "could not convert string to float: '100,1000,10000'",
    )
    assert child is not None and child.arg("generation-tokens-buckets") == ("custom", "100", "1000", "10000")


def test_a_scalar_with_a_unit_refused_by_int_is_the_plain_integer() -> None:
    child = first_child({"max-prefill-tokens": "8K", "tp-size": "2"}, "invalid literal for int() with base 10: '8K'")
    assert child is not None and child.arg("max-prefill-tokens") == "8192"


def test_a_value_no_flag_holds_gives_no_number_move() -> None:
    _, found = proposed({"tp-size": "2"}, "ValueError", "could not convert string to float: 'abc'")
    assert all("tp-size" not in p.move.label() for p in found)
