"""Issue 14 round 37n, written before the change: "The arguments enable-hierarchical-cache and
disable-radix-cache are mutually exclusive ... Please use only one of them" (0.5.11 names
them without dashes). Of two switches the user set that exclude each other, the one that
turns a default off goes first: dropping it gives back the server's own behaviour, while the
other turns on a feature the user asked for (HiCache with its ratio and storage backend). The
engine read these names only as words and dropped them in the message's order. Neither
turning a default off, the one named last goes first (round 29c's symmetric order). Messages ours."""

from __future__ import annotations

from .proposing import proposed_labels

HICACHE = {
    "enable-hierarchical-cache": True,
    "hicache-ratio": "2",
    "hicache-storage-backend": "file",
    "disable-radix-cache": True,
}


def test_the_switch_that_turns_a_default_off_goes_first() -> None:
    message = (
        "The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive and "
        "cannot be used at the same time. Please use only one of them."
    )
    labels = proposed_labels(HICACHE, "ValueError", message)
    assert labels[0] == "drop disable-radix-cache", labels
    assert "drop enable-hierarchical-cache" in labels, labels


def test_with_dashes_too() -> None:
    message = "--disable-radix-cache and --enable-hierarchical-cache cannot be used together."
    labels = proposed_labels(HICACHE, "ValueError", message)
    assert labels[0] == "drop disable-radix-cache", labels


def test_two_features_turned_on_keep_the_symmetric_order() -> None:
    """Neither turns a default off: the one named last goes first, as round 29c orders a
    symmetric wording (tests/test_incompatible_subject.py)."""
    message = "The arguments enable-lmcache and enable-hierarchical-cache are mutually exclusive."
    labels = proposed_labels({"enable-lmcache": True, "enable-hierarchical-cache": True}, "ValueError", message)
    assert labels[:2] == ["drop enable-hierarchical-cache", "drop enable-lmcache"], labels
