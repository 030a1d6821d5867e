"""Issue 14 round 45q, written before the change (0.5.23-thirty-third's LoRA MoE runner beside
EPLB, in our words): a check that says what the user's choice requires in terms of what must
be absent ("--x-runner lora_kern currently requires trivial expert placement without EPLB or
redundant experts") names features the user turned on: the move leaves each of them out
(one move: the check asks them all gone), before the choice itself is dropped. Features the
user did not turn on are not touched."""

from __future__ import annotations

from .proposing import FULL, proposed, proposed_labels, tried_after_base

ARGS = {
    "moe-runner-backend": "lora_triton",
    "enable-lora": True,
    "enable-eplb": True,
    "ep-num-redundant-experts": "16",
    "ep-size": "8",
}
MESSAGE = (
    "--moe-runner-backend lora_triton currently requires trivial expert placement without EPLB or redundant experts."
)


def test_the_features_named_after_without_go_in_one_move() -> None:
    labels = proposed_labels(ARGS, "ValueError", MESSAGE, catalog=FULL)
    assert labels[0] == "drop enable-eplb; drop ep-num-redundant-experts", labels


def test_only_the_features_the_user_turned_on() -> None:
    args = {"moe-runner-backend": "lora_triton", "enable-lora": True, "enable-eplb": True, "ep-size": "8"}
    labels = proposed_labels(args, "ValueError", MESSAGE, catalog=FULL)
    assert labels[0] == "drop enable-eplb", labels


def test_the_search_tries_them_before_dropping_the_choice() -> None:
    base, proposals = proposed(ARGS, "ValueError", MESSAGE, catalog=FULL)
    assert tried_after_base(base, proposals) == "drop enable-eplb; drop ep-num-redundant-experts"
