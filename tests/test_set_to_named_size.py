"""Issue 14 round 38p, written before the change.

"Elastic EP scale joiners require --elastic-ep-join-rank-offset set to the current
effective EP size": the flag asked for takes the value of the size the message names in
words (EP size: --ep-size as the command gives it), before anything is dropped. A size the
command does not give is no value to copy. The wording is SGLang 0.5.23's shape."""

from __future__ import annotations

from .proposing import proposed_labels

MESSAGE = "Elastic EP scale joiners require --elastic-ep-join-rank-offset set to the current effective EP size."


def test_the_flag_takes_the_value_of_the_size_named() -> None:
    labels = proposed_labels(
        {"tp-size": "4", "ep-size": "4", "elastic-ep-join-mode": "scale", "elastic-ep-backend": "mooncake"},
        "AssertionError",
        MESSAGE,
    )
    assert labels[0] == "set elastic-ep-join-rank-offset=4", labels


def test_a_size_not_given_is_not_copied() -> None:
    labels = proposed_labels(
        {"tp-size": "4", "elastic-ep-join-mode": "scale", "elastic-ep-backend": "mooncake"}, "AssertionError", MESSAGE
    )
    assert not any(label.startswith("set elastic-ep-join-rank-offset=") for label in labels), labels
