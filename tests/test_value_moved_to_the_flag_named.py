"""Issue 14 round 45p, written before the change (0.5.23-thirty-third's FlashKDA written on the
decode flag, in our words): a message that refuses the user's value on one flag and tells
which flag takes it ("--x-decode-backend fastkern is not supported: ... Use
--x-prefill-backend fastkern") asks for the value to move: the refused flag is renamed to the
named one, the value kept, before the refused flag alone is dropped. Advice naming a value
the user gave no flag is read as before."""

from __future__ import annotations

from .proposing import FULL, proposed_labels

MESSAGE = (
    "--linear-attn-decode-backend flashkda is not supported: FlashKDA is prefill-only. "
    "Use --linear-attn-prefill-backend flashkda (decode stays on triton)."
)


def test_the_value_moves_to_the_flag_the_message_names() -> None:
    labels = proposed_labels(
        {"linear-attn-decode-backend": "flashkda", "tp-size": "4"}, "ValueError", MESSAGE, catalog=FULL
    )
    assert labels[0] == "rename linear-attn-decode-backend to linear-attn-prefill-backend", labels


def test_advice_for_a_value_the_user_gave_no_flag_is_as_before() -> None:
    message = "--linear-attn-decode-backend cutedsl is not supported here. Use --linear-attn-prefill-backend flashkda."
    labels = proposed_labels({"linear-attn-decode-backend": "cutedsl"}, "ValueError", message, catalog=FULL)
    assert not any(label.startswith("rename") for label in labels), labels
