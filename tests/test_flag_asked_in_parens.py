"""Issue 14 round 36a, written before the change: a message that asks for a flag by naming it
in parentheses after the feature's words ("use attention DP (--attn-dp-size) across nodes",
"attention DP (--attn-dp-size) is required") gets that flag set, not the user's other choices
dropped. The engine read neither form (its "requires --x" wants the flag right after the
verb) and dropped the two-batch overlap or the second node instead. The messages are ours,
in the shape SGLang 0.5.23's validation takes.

The value: a switch is turned on; a size the user gave under a name the asked-for one
contains (dp-size inside attn-dp-size) moves there with its value; a size that splits
another's GPUs (attention DP inside TP: the catalogue's ``splits`` facts) takes the whole
of it, the widest split, when nothing else gives a value."""

from __future__ import annotations

from .proposing import BARE, proposed_labels


def test_a_required_split_size_takes_the_size_it_splits() -> None:
    labels = proposed_labels(
        {"tp-size": 8, "ep-size": 8, "enable-two-batch-overlap": True},
        "ValueError",
        "When overlapping two toy batches without an all-to-all backend, attention DP (--attn-dp-size) is required.",
    )
    assert labels[0] == "set attn-dp-size=8"


def test_a_size_given_under_the_shorter_name_moves_to_the_one_asked_for() -> None:
    labels = proposed_labels(
        {"tp-size": 16, "dp-size": 2, "nnodes": 2, "node-rank": 0},
        "AssertionError",
        "toy replicas over several machines are not supported; use attention DP (--attn-dp-size) across nodes",
    )
    assert labels[0] == "rename dp-size to attn-dp-size"


def test_a_switch_asked_for_in_parentheses_is_turned_on() -> None:
    labels = proposed_labels(
        {"hicache-ratio": 2.0},
        "ValueError",
        "a toy host pool ratio requires the hierarchical cache (--enable-hierarchical-cache).",
    )
    assert labels[0] == "set enable-hierarchical-cache=True"


def test_a_flag_already_set_is_not_asked_for_again() -> None:
    labels = proposed_labels(
        {"tp-size": 8, "attn-dp-size": 2, "enable-two-batch-overlap": True},
        "ValueError",
        "toy overlap: attention DP (--attn-dp-size) is required here.",
    )
    assert not any(label.startswith("set attn-dp-size=8") for label in labels)


def test_a_flag_in_parentheses_that_only_names_a_feature_is_not_asked_for() -> None:
    """A parenthesis after 'not supported' names what is refused, not what to add."""
    labels = proposed_labels(
        {"tp-size": 8},
        "ValueError",
        "toy experts are not supported with the toy ring (--enable-hierarchical-cache).",
    )
    assert "set enable-hierarchical-cache=True" not in labels


def test_the_split_facts_name_flags_of_the_parser() -> None:
    assert BARE.splits, "the catalogue states which sizes split another's GPUs"
    for size, whole in BARE.splits.items():
        assert BARE.flag(size) is not None and BARE.flag(whole) is not None, (size, whole)
