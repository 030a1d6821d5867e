"""Issue 14 round 37o, written before the change: "multi-node data parallel is not supported
unless dp attention!" names what makes it supported: the feature after "unless", turned on
(--enable-dp-attention), keeps the two nodes and the DP size the user set. The engine read
the sentence only as words and dropped --dp-size. Messages ours, in SGLang's shape."""

from __future__ import annotations

from .proposing import proposed_labels

TWO_NODES = {"tp-size": "16", "dp-size": "16", "ep-size": "16", "nnodes": "2", "node-rank": "0"}


def test_the_feature_after_unless_is_turned_on() -> None:
    labels = proposed_labels(
        TWO_NODES, "AssertionError", "multi-node data parallel is not supported unless dp attention!"
    )
    assert labels[0] == "set enable-dp-attention=True", labels


def test_unless_with_a_verb_before_the_feature() -> None:
    labels = proposed_labels(
        {"tp-size": "8", "dp-size": "8"}, "ValueError", "Toy routing cannot be used unless you enable dp attention."
    )
    assert labels[0] == "set enable-dp-attention=True", labels


def test_a_feature_already_on_is_not_asked_for_again() -> None:
    labels = proposed_labels(
        {**TWO_NODES, "enable-dp-attention": True}, "AssertionError", "toy mode is not supported unless dp attention."
    )
    assert "set enable-dp-attention=True" not in labels, labels
