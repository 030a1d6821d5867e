"""Issue 14 round 41, written before the change (0.5.11-seventh's lmcache case, read after the
set was scored blind): a value the parser refuses that names a feature with a switch of its
own. `--hicache-storage-backend lmcache` is refused (LMCache is no HiCache storage tier) and
the parser has `--enable-lmcache`: the user asked for that feature, under the wrong flag."""

from __future__ import annotations

from .proposing import proposed_labels

_STORAGE = (
    "sglang serve: error: argument --hicache-storage-backend: invalid choice: 'lmcache' "
    "(choose from 'file', 'mooncake', 'hf3fs', 'nixl', 'aibrix', 'dynamic', 'eic', 'simm')"
)


def test_a_refused_value_that_names_a_switch_turns_that_switch_on() -> None:
    labels = proposed_labels({"hicache-storage-backend": "lmcache"}, "argparse_error", _STORAGE)
    assert labels[0] == "set enable-lmcache=True; drop hicache-storage-backend"


def test_a_value_near_a_choice_keeps_the_choice_first() -> None:
    """'Mooncake' is the choice 'mooncake' whatever switch the parser has."""
    message = _STORAGE.replace("'lmcache'", "'Mooncake'")
    labels = proposed_labels({"hicache-storage-backend": "Mooncake"}, "argparse_error", message)
    assert labels[0] == "set hicache-storage-backend=mooncake"


def test_no_switch_of_that_name_no_such_move() -> None:
    message = _STORAGE.replace("'lmcache'", "'redis'")
    labels = proposed_labels({"hicache-storage-backend": "redis"}, "argparse_error", message)
    assert not any("enable-" in label for label in labels)
