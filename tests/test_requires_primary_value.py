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


def _moves_on(flag: str, args: dict[str, object], exception: str, message: str) -> list[tuple[str, bool]]:
    """(label, gives up) of the proposed moves that drop or set ``flag``."""
    _, found = proposed(args, exception, message)
    return [(p.move.label(), p.gives_up) for p in found if p.move.label().startswith((f"drop {flag}", f"set {flag}"))]


def test_a_primary_named_as_context_still_gives_up() -> None:
    role = _moves_on(
        "disaggregation-mode",
        {"tp-size": "4", "disaggregation-mode": "decode", "enable-dp-lm-head": True},
        "ValueError",
        "--enable-dp-lm-head is not supported with --disaggregation-mode=decode",
    )
    assert all(gives_up for _, gives_up in role), role


def test_a_relation_between_two_sizes_is_context_not_a_value_to_meet() -> None:
    """Round 39: "requires tp_size == attn_dp_size" states no value of its own for TP; reading
    it as a requirement on TP put changing the user's TP before turning the feature off."""
    tp = _moves_on(
        "tp-size",
        {"tp-size": "8", "attn-dp-size": "4", "enable-tp-lm-head-all-to-all": True},
        "AssertionError",
        "--enable-tp-lm-head-all-to-all currently requires tp_size == attn_dp_size, got tp_size=8, attn_dp_size=4.",
    )
    assert tp and all(gives_up for _, gives_up in tp), tp
