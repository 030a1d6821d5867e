"""Issue 14 round 29c, written before the change.

"--A is incompatible with --B" and "--A is not supported with --B" refuse A: it is the
sentence's subject, the option the check was written for, and B is the setting it met
(SGLang's checks live in the hook of the feature they guard). A careful operator drops A
and keeps B; dropping B comes after. The symmetric wordings ("A is not supported together
with B", "A cannot be combined with B": the two together) single out neither, and a
message that does not open with a flag, or a subject the user did not set, leaves the
object's drop first as before.

These tests use their own messages."""

from __future__ import annotations

import pytest

from .proposing import proposed

BOTH = {"enable-mixed-chunk": True, "enable-dp-attention": True}
SUBJECT, OBJECT = "drop enable-mixed-chunk", "drop enable-dp-attention"


@pytest.mark.parametrize(
    ("message", "first"),
    [
        ("--enable-mixed-chunk is incompatible with --enable-dp-attention", SUBJECT),
        ("--enable-mixed-chunk is not supported with --enable-dp-attention: the mixed batch skips the gather", SUBJECT),
        # symmetric wordings: the two together, neither singled out
        ("--enable-mixed-chunk is not supported together with --enable-dp-attention. Disable one of them.", OBJECT),
        ("--enable-mixed-chunk cannot be combined with --enable-dp-attention", OBJECT),
        # a message that opens in prose
        ("Mixed chunked prefill is incompatible with --enable-dp-attention", OBJECT),
    ],
)
def test_which_side_of_an_incompatibility_is_dropped_first(message: str, first: str) -> None:
    _, moves = proposed(BOTH, "ValueError", message)
    labels = [p.move.label() for p in moves]
    assert labels[0] == first
    assert OBJECT in labels


def test_an_object_alone_the_user_set_is_still_dropped() -> None:
    _, moves = proposed(
        {"enable-dp-attention": True}, "ValueError", "--enable-mixed-chunk is incompatible with --enable-dp-attention"
    )
    assert moves[0].move.label() == "drop enable-dp-attention"
