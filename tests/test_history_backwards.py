"""Issue 14 round 37a, written before the change.

A host that runs an older release than the command was written for: a flag a later release
renamed (0.5.12: --speculative-dflash-draft-window-size became --speculative-draft-window-size)
is the host's own name read backwards, with the user's value, not a flag dropped as "newer than
the host". And a prefix argparse finds ambiguous names none of the flags the user already set
(--max-lora beside --max-loras-per-batch is not a second --max-loras-per-batch).
"""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.model import Candidate, EditOp
from autofix.renames import meaning, rename_move

CATALOG = load_catalog()


def _host_without(newer: str, older: str):  # type: ignore[no-untyped-def]
    """0.5.23's parser facts as an older host has them: ``newer`` missing, ``older`` there."""
    facts = {"flags": {k: {"kind": v.kind} for k, v in CATALOG.flags.items() if k != newer}, "aliases": {}}
    facts["flags"][older] = {"kind": "value"}
    return CATALOG.with_parser(facts, "0.5.11")


def test_a_later_releases_name_is_the_hosts_older_name() -> None:
    host = _host_without("speculative-draft-window-size", "speculative-dflash-draft-window-size")
    found = meaning("speculative-draft-window-size", host)
    assert found is not None and not found.dropped
    assert found.flags == (("speculative-dflash-draft-window-size", None),), found


def test_the_older_name_carries_the_users_value() -> None:
    host = _host_without("speculative-draft-window-size", "speculative-dflash-draft-window-size")
    base = Candidate.build({"speculative-algorithm": "DFLASH", "speculative-draft-window-size": "4096"})
    move = rename_move(base, host)
    assert move is not None
    assert move.label() == "rename speculative-draft-window-size to speculative-dflash-draft-window-size"
    assert [e.op for e in move.edits] == [EditOp.RENAME]


def test_a_newer_flag_no_rename_stands_for_is_still_dropped() -> None:
    """attn-dp-size (0.5.22) replaced no flag of its own name: on 0.5.11 nothing reads it."""
    host = _host_without("attn-dp-size", "dp-size")
    found = meaning("attn-dp-size", host)
    assert found is not None and found.dropped


def test_an_ambiguous_prefix_is_not_a_flag_the_user_already_set() -> None:
    """--max-lora 64 with --max-loras-per-batch 4 given: the prefix means another of the
    flags it begins (the one an older release alone had besides the given one)."""
    base = Candidate.build({"enable-lora": True, "max-lora": "64", "max-loras-per-batch": "4"})
    move = rename_move(base, CATALOG)
    assert move is not None and move.label() == "rename max-lora to max-lora-rank", move


def test_an_ambiguous_prefix_alone_keeps_its_reading() -> None:
    """Without --max-loras-per-batch given, the reading the history grounds stands."""
    found = meaning("max-lora", CATALOG)
    assert found is not None and found.flags == (("max-loras-per-batch", None),), found
