"""Issue 14 round 44j, written before the change (0.5.11-ninth's two-batch-overlap case, in
our words and other values): "When enabling <feature>, <field> cannot be '<value>'" refuses
the value the named flag holds (the user's, or its default left unset): the flag is set to
another of its choices, first the one the user's own flags point at (--toy-mode belongs to
the toy backend: --deepep-mode to deepep), before the feature is given up. An off value
refused is not answered by another way of saying off."""

from __future__ import annotations

from .proposing import FULL, proposed_labels

MESSAGE = "When enabling two batch overlap, moe_a2a_backend cannot be 'none'."


def test_the_refused_default_is_set_to_the_choice_the_users_flags_point_at() -> None:
    args = {"tp-size": "8", "ep-size": "8", "deepep-mode": "low_latency", "enable-two-batch-overlap": True}
    labels = proposed_labels(args, "ValueError", MESSAGE, catalog=FULL)
    assert labels[0] == "set moe-a2a-backend=deepep", labels
    assert "set moe-a2a-backend=none" not in labels


def test_without_a_pointer_another_choice_still_comes_and_no_off_word() -> None:
    labels = proposed_labels({"enable-two-batch-overlap": True}, "ValueError", MESSAGE, catalog=FULL)
    sets = [label for label in labels if label.startswith("set moe-a2a-backend=")]
    assert sets and all(not label.endswith(("=none", "=off")) for label in sets), labels


def test_a_value_the_flag_does_not_hold_is_not_this_refusal() -> None:
    """The user chose deepep: "cannot be 'none'" is about something else then."""
    args = {"moe-a2a-backend": "deepep", "enable-two-batch-overlap": True}
    labels = proposed_labels(args, "ValueError", MESSAGE, catalog=FULL)
    assert not any(label.startswith("set moe-a2a-backend=") for label in labels), labels
