"""Issue 14 round 31, written before the change.

A check that names a size by its value in prose, not by its flag ("EP size 10 must be
divisible by attention replica size 4."), asks the flag holding that value (the one the
user set to 10; when several hold it, the one whose name's words the message uses) for a
multiple: the next one up (the size the user reached for, rounded to whole groups), then
the one below, never below the divisor. The wording is SGLang 0.5.23's elastic EP check;
the other messages are ours."""

from __future__ import annotations

from .proposing import proposed_labels


def _labels(args: dict[str, object], message: str) -> list[str]:
    return proposed_labels(args, "ValueError", message)


ELASTIC = {
    "tp-size": "8",
    "ep-size": "8",
    "attn-dp-size": "2",
    "elastic-ep-backend": "mooncake",
    "max-ep-size": "10",
}


def test_the_flag_holding_the_value_goes_to_the_next_multiple_then_the_one_below() -> None:
    labels = _labels(ELASTIC, "EP size 10 must be divisible by attention replica size 4.")
    assert labels[:2] == ["set max-ep-size=12", "set max-ep-size=8"]


def test_among_flags_holding_the_value_the_one_the_words_name() -> None:
    labels = _labels(
        {"chunked-prefill-size": "6000", "max-prefill-tokens": "6000"},
        "chunked prefill size 6000 should be divisible by page size 64",
    )
    assert labels[0] == "set chunked-prefill-size=6016"


def test_a_value_no_flag_holds_moves_nothing() -> None:
    labels = _labels(ELASTIC, "EP size 14 must be divisible by attention replica size 4.")
    assert not any(label.startswith("set max-ep-size=1") for label in labels)


def test_a_multiple_below_the_divisor_is_not_offered() -> None:
    labels = _labels({"tp-size": "8", "max-ep-size": "3"}, "EP size 3 must be divisible by attention replica size 4.")
    assert "set max-ep-size=4" in labels
    assert "set max-ep-size=0" not in labels
