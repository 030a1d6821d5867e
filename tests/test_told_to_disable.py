"""Issue 14 round 30, written before the change.

A message that ends by telling the operator what to turn off (``... Disable
--enable-dynamic-chunking.``, ``Remove --x.``) has named its fix: that flag's drop goes
before every move read off the rest of its words (the other flags it names as the
context, a size folded into another), in the search and offline alike.

These tests use their own messages and flags."""

from __future__ import annotations

from autofix.classify import Diagnosis, Subject
from autofix.model import Failure, Gate
from autofix.repair import offline_moves

from .proposing import FULL, proposed

MESSAGE = (
    "--enable-kv-cache-sharding does not support dynamic chunk sizing with pipeline parallelism: the "
    "predicted chunks can outgrow the sharded scratch space. Disable --enable-dynamic-chunking."
)
ARGS = {"enable-kv-cache-sharding": True, "pp-size": "2", "tp-size": "2", "enable-dynamic-chunking": True}


def test_the_flag_the_message_says_to_disable_is_dropped_first() -> None:
    _, proposals = proposed(ARGS, "ValueError", MESSAGE)
    assert proposals[0].move.label() == "drop enable-dynamic-chunking"


def test_offline_the_same_drop_comes_first() -> None:
    subject = Subject("ValueError", MESSAGE, None)
    failure = Failure(gate=Gate.PREFLIGHT, class_id=None, fingerprint="f", exception="ValueError", message=MESSAGE)
    moves = offline_moves(Diagnosis(failure, subject), FULL)
    assert moves and moves[0].label() == "drop enable-dynamic-chunking"


def test_remove_in_a_sentence_of_its_own_names_the_fix() -> None:
    message = "--page-size 64 with --enable-hierarchical-cache leaves no room for the host pool. Remove --page-size."
    _, proposals = proposed({"page-size": "64", "enable-hierarchical-cache": True}, "ValueError", message)
    assert proposals[0].move.label() == "drop page-size"


def test_a_flag_the_user_did_not_set_is_no_drop() -> None:
    _, proposals = proposed({"enable-kv-cache-sharding": True, "pp-size": "2"}, "ValueError", MESSAGE)
    assert all("enable-dynamic-chunking" not in p.move.label() for p in proposals)
