"""Issue 14 round 28h, written before the change: a message that compares the user's value
with a bound it names, both in parentheses ("User-specified context_length (60000) is
greater than the derived context_length (40960)"), refuses the value for being past that
bound: the move sets the flag to the bound (what the model or the host allows), before
dropping it; a value short of a lower bound likewise rises to it. A comparison whose
first value is not the user's says nothing of the user's flag.

These tests use their own messages and values."""

from __future__ import annotations

from autofix.model import Gate

from .proposing import proposed


def labels(args: dict[str, object], message: str) -> list[str]:
    _, found = proposed(args, "ValueError", message, gate=Gate.PREFLIGHT)
    return [p.move.label() for p in found]


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


# Issue 14 round 28j: the message's own advice to set an environment variable (SGLang's
# "To allow overriding this maximum, set the env var SGLANG_...=1") is a move, after every
# flag move, the last-resort drop too: a switch of the server's own behaviour (an override
# SGLang warns about, an experimental path) is what an operator tries when no flag does
# (at f2c4300 it came before the drop and cost 0.5.11-first's mamba case three attempts).
def test_the_messages_env_var_advice_comes_after_every_flag_move() -> None:
    got = labels(
        {"context-length": "131072"},
        "User-specified context_length (131072) is greater than the derived context_length (32768). "
        "To allow overriding this maximum, set the env var SGLANG_ALLOW_LONGER_THING=1.",
    )
    assert got[0] == "set context-length=32768", got
    assert got[-1] == "set_env SGLANG_ALLOW_LONGER_THING=1", got  # (the sentence's period is no part of it)


def test_a_lower_case_word_after_set_is_no_env_var() -> None:
    got = labels({"context-length": "131072"}, "context_length is too long; set max_len=4096 in your config")
    assert not any(label.startswith("set_env") for label in got), got


def test_env_var_advice_for_another_platform_is_no_move_here() -> None:
    # (a sixth-set case at 28j: SGLang's refusal ends "On ROCm, set X=1 to select ..."; the
    # advice is for a host this one is not, so it costs an attempt)
    got = labels(
        {"moe-runner-backend": "fancy"},
        "--moe-runner-backend fancy needs a newer GPU. On ROCm, set SGLANG_USE_OTHER_FANCY=1 to select it instead.",
    )
    assert not any(label.startswith("set_env") for label in got), got
