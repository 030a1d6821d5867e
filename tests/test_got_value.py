"""Issue 14 round 16, written before the change: a check that lists what it accepts and
says what it got ("requires ['a', 'b'] ...; got ['c']", "'full' or 'disabled' (got
'breakable')") refuses the value the user gave a flag: that flag is set to each listed
value its parser accepts, before any flag is dropped. These tests use their own messages."""

from __future__ import annotations

from .proposing import proposed_labels


def labels(args: dict[str, object], message: str) -> list[str]:
    return proposed_labels(args, "AssertionError", message)


def test_a_bracketed_list_and_the_value_got() -> None:
    got = labels(
        {"attention-backend": "triton", "tp-size": "2"},
        "Turbo layers require one of ['alpha_attn', 'flashinfer'] for the dense part; got ['triton'].",
    )
    assert got and got[0] == "set attention-backend=flashinfer", got  # alpha_attn is no choice of it


def test_quoted_values_and_a_parenthesised_got() -> None:
    got = labels(
        {"cuda-graph-backend-decode": "breakable"},
        "Live streaming supports decode CUDA graph backend 'full' or 'disabled' (got 'breakable').",
    )
    assert got[:2] == ["set cuda-graph-backend-decode=full", "set cuda-graph-backend-decode=disabled"], got


def test_a_value_no_flag_holds_is_no_move() -> None:
    got = labels({"tp-size": "2"}, "Pager supports 'full' or 'disabled' (got 'breakable').")
    assert not any(label.startswith("set cuda-graph-backend") for label in got), got


def test_choices_named_in_plain_words_and_a_flag_shown_with_what_it_got() -> None:
    """Round 38n: "requires Triton, or Helion for KDA, as the ... backend; got
    --linear-attn-decode-backend='cutedsl'": the flag is shown with its value, and the
    values it needs are its choices written as plain (capitalised) words."""
    got = labels(
        {"linear-attn-decode-backend": "cutedsl", "enable-linear-replayssm": True},
        "--enable-linear-replayssm requires Triton, or Helion for KDA, as the linear-attn decode backend; "
        "got --linear-attn-decode-backend='cutedsl'.",
    )
    assert got[:2] == ["set linear-attn-decode-backend=triton", "set linear-attn-decode-backend=helion"], got
