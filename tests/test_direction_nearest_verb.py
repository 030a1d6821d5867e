"""Issue 14 round 33d, written before the change: the verb that governs a flag is the one
nearest before it. "Raise the environment value or lower --chunked-prefill-size" asks for a
smaller chunk (the raise is for an environment value); the engine read "raise" and doubled it.
The messages are ours, in the shape SGLang's budget checks take."""

from __future__ import annotations

from .proposing import proposed_labels


def test_the_nearest_verb_before_the_flag_sets_the_direction() -> None:
    labels = proposed_labels(
        {"chunked-prefill-size": 4096},
        "ValueError",
        "toy budget exceeds TOY_CAP: required=1024, capacity=128. Raise the environment value or lower "
        "--chunked-prefill-size/--max-prefill-tokens.",
    )
    assert labels[0].startswith("scale chunked-prefill-size to ") and int(labels[0].rsplit(" ", 1)[1]) < 4096


def test_one_verb_still_governs_the_flag_after_it() -> None:
    labels = proposed_labels(
        {"max-running-requests": 64},
        "RuntimeError",
        "the toy pool is too small. Please increase the value of --max-running-requests.",
    )
    assert labels[0].startswith("scale max-running-requests to ") and int(labels[0].rsplit(" ", 1)[1]) > 64


def test_a_need_and_a_capacity_say_how_far_down() -> None:
    """'required=1024, capacity=128' for a 4096 chunk: an eighth of it fits, not a half."""
    labels = proposed_labels(
        {"chunked-prefill-size": 4096},
        "ValueError",
        "toy budget exceeds TOY_CAP: required=1024, capacity=128. Raise the environment value or lower "
        "--chunked-prefill-size/--max-prefill-tokens.",
    )
    assert labels[0] == "scale chunked-prefill-size to 512"
