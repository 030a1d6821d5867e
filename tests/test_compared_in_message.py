"""Issue 14 round 44o, written before the change (0.4.10.post2-ninth's dp-size -1, in our
words): a message that states its condition as a comparison of flag names ("Please set a
dp-size > 1. You can use 1 < dp-size <= tp-size.") is read like the failing statement of a
bare assert: the sizes it names, with the values the command gives them, are set so the
condition holds (a chain is each of its comparisons). A comparison of words that are no
flags gives nothing."""

from __future__ import annotations

from .proposing import FULL, proposed_labels

DP_ATTENTION = {"tp-size": "8", "enable-dp-attention": True, "dp-size": "-1"}


def test_a_comparison_of_flag_names_is_read_as_the_condition() -> None:
    message = "Please set a dp-size > 1. You can use 1 < dp-size <= tp-size."
    labels = proposed_labels(DP_ATTENTION, "AssertionError", message, catalog=FULL)
    assert labels[0] == "set dp-size=8", labels


def test_snake_case_and_dashed_flags_read_alike() -> None:
    message = "Invalid sizes: need 1 < dp_size <= --tp-size"
    labels = proposed_labels(DP_ATTENTION, "AssertionError", message, catalog=FULL)
    assert labels[0] == "set dp-size=8", labels


def test_a_comparison_of_other_words_gives_nothing_of_its_own() -> None:
    message = "the toy-ratio > 1 check failed (x < y)"
    labels = proposed_labels({"tp-size": "8"}, "AssertionError", message, catalog=FULL)
    assert not any(label.startswith("set tp-size") for label in labels), labels


def test_a_flag_named_with_its_dashes_but_without_them_in_front_is_named() -> None:
    """ "Please set a dp-size > 1": the message names --dp-size (its words joined by a dash
    stand for the flag), so changing it gives up nothing the message did not ask about; a
    message that names no size gives it up as before."""
    from autofix.model import Candidate
    from autofix.repair import gives_up_primary

    base = Candidate.build(DP_ATTENTION)
    child = base.with_arg("dp-size", "8")
    assert not gives_up_primary(base, child, FULL, "Please set a dp-size > 1.")
    assert gives_up_primary(base, child, FULL, "Please set a larger group count.")


def test_a_comparison_the_message_refuses_is_not_read_as_required() -> None:
    """Round 44v, written before the change (0.5.11-tenth's second error): "attn_cp_size !=
    moe_dp_size is only supported when moe_dp_size == 1" states the refused situation
    first: it is not a condition to make hold (attn-cp-size 9 would keep the two apart);
    what follows "only supported when" is."""
    message = "attn_cp_size != moe_dp_size is only supported when moe_dp_size == 1"
    args = {"tp-size": "8", "moe-dp-size": "8"}
    labels = proposed_labels(args, "AssertionError", message, catalog=FULL)
    assert "set attn-cp-size=9" not in labels, labels
