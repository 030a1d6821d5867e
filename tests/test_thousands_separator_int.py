"""Round 45s, written before the change (found by round 45's after-run: 0.4.10.post2-fifth's
"--max-queued-requests 10,000", in sample): an int refused as "10,000" is ten thousand written
with a thousands separator, not the decimal comma of '0,85' (which stays a float's reading).
Since 45o counts a reading as what the user meant, a wrong one (10) would win the search."""

from __future__ import annotations

from .proposing import proposed_labels


def _refused(value: str, kind: str) -> list[str]:
    message = f"launch_server.py: error: argument --zz-count: invalid {kind} value: '{value}'"
    return proposed_labels({"zz-count": value}, "SystemExit", message)


def test_an_int_with_thousands_separators_is_the_whole_number() -> None:
    labels = _refused("10,000", "int")
    assert "set zz-count=10" not in labels, labels
    assert "set zz-count=10000" in labels, labels


def test_a_float_with_a_decimal_comma_is_still_read_so() -> None:
    assert "set zz-count=0.85" in _refused("0,85", "float")
