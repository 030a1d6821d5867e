"""Issue 14 round 38r, written before the change.

"--enable-tp-lm-head-all-to-all currently requires attn_cp_size == 1, got 2": the message
opens with a feature the user turned on and states what it requires of a primary size.
That is a requirement on the size, not the context the feature met ("--x is not supported
with --disaggregation-mode=decode"): meeting it (attention CP back to 1) keeps the feature
and gives nothing up, so it goes before turning the feature off. The wording is SGLang
0.5.23's shape; the sizes are ours."""

from __future__ import annotations

from .proposing import proposed


def test_a_requirement_stated_on_a_primary_size_is_met_first() -> None:
    _, found = proposed(
        {"tp-size": "4", "attn-dp-size": "4", "attn-cp-size": "2", "enable-tp-lm-head-all-to-all": True},
        "AssertionError",
        "--enable-tp-lm-head-all-to-all currently requires attn_cp_size == 1, got 2.",
    )
    meets = [p for p in found if p.move.label() in ("drop attn-cp-size", "set attn-cp-size=1")]
    assert meets and not meets[0].gives_up, [(p.move.label(), p.gives_up) for p in found]


def test_a_primary_named_as_context_still_gives_up() -> None:
    _, found = proposed(
        {"tp-size": "4", "disaggregation-mode": "decode", "enable-dp-lm-head": True},
        "ValueError",
        "--enable-dp-lm-head is not supported with --disaggregation-mode=decode",
    )
    role = [p for p in found if p.move.label().startswith(("drop disaggregation-mode", "set disaggregation-mode"))]
    assert all(p.gives_up for p in role), [(p.move.label(), p.gives_up) for p in found]


def test_a_relation_between_two_sizes_is_context_not_a_value_to_meet() -> None:
    """Round 39: "requires tp_size == attn_dp_size" states no value of its own for TP; reading
    it as a requirement on TP put changing the user's TP before turning the feature off."""
    _, found = proposed(
        {"tp-size": "8", "attn-dp-size": "4", "enable-tp-lm-head-all-to-all": True},
        "AssertionError",
        "--enable-tp-lm-head-all-to-all currently requires tp_size == attn_dp_size, got tp_size=8, attn_dp_size=4.",
    )
    tp = [p for p in found if p.move.label().startswith(("drop tp-size", "set tp-size"))]
    assert all(p.gives_up for p in tp), [(p.move.label(), p.gives_up) for p in found]
