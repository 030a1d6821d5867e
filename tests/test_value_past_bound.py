"""Issue 14 round 28h, written before the change: a message that compares the user's value
with a bound it names, both in parentheses ("User-specified context_length (60000) is
greater than the derived context_length (40960)"), refuses the value for being past that
bound: the move sets the flag to the bound (what the model or the host allows), before
dropping it; a value short of a lower bound likewise rises to it. A comparison whose
first value is not the user's says nothing of the user's flag.

These tests use their own messages and values."""

from __future__ import annotations

from autofix.model import Gate

from .proposing import proposed_labels


def labels(args: dict[str, object], message: str) -> list[str]:
    return proposed_labels(args, "ValueError", message)


def test_a_value_greater_than_the_bound_takes_the_bound() -> None:
    got = labels(
        {"context-length": "131072"},
        "User-specified context_length (131072) is greater than the derived context_length (32768). "
        "This may lead to incorrect model outputs.",
    )
    assert got and got[0] == "set context-length=32768", got


def test_a_value_that_exceeds_the_bound_takes_the_bound() -> None:
    got = labels({"max-total-tokens": "900000"}, "max_total_tokens (900000) exceeds the pool capacity (655360).")
    assert got and got[0] == "set max-total-tokens=655360", got


def test_a_value_less_than_the_bound_rises_to_it() -> None:
    got = labels({"chunked-prefill-size": "256"}, "chunked_prefill_size (256) is less than the page size (512)")
    assert got and got[0] == "set chunked-prefill-size=512", got


def test_a_comparison_of_another_value_moves_nothing_to_its_bound() -> None:
    got = labels(
        {"context-length": "8192"},
        "User-specified context_length (60000) is greater than the derived context_length (40960).",
    )
    assert "set context-length=40960" not in got, got


def test_offline_the_value_the_message_shows_is_the_users() -> None:
    # (round 29g) `autofix classify` on a log with no command: the message shows the
    # user's value itself, so the bound is what to set.
    from autofix.catalog import load_catalog
    from autofix.classify import classify
    from autofix.repair import offline_moves
    from autofix.tracebacks import parse_text

    log = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/sglang/srt/configs/model_config.py", line 240, in __init__\n'
        "    raise ValueError(\n"
        "ValueError: User-specified context_length (98304) is greater than the derived context_length (65536). "
        "This may lead to incorrect model outputs.\n"
    )
    catalog = load_catalog()
    moves = offline_moves(classify(parse_text(log), catalog, Gate.PREFLIGHT), catalog)
    assert moves and moves[0].label() == "set context-length=65536"
