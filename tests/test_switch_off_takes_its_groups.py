"""Issue 14 round 37p, written before the change: "DFLASH speculative decoding does not
support dp attention" on TP 2 with attention DP 2 (two GPUs). Turning DP attention off
leaves --dp-size 2 counting replicas of the whole server: four GPUs, a move that asks for
hardware and so ranked after giving up the speculative algorithm. The DP groups lived
inside TP: they go with the switch (plain TP 2 on the same two GPUs), one move. Message ours."""

from __future__ import annotations

from .proposing import proposed_labels

DFLASH_DP = {
    "tp-size": "2",
    "dp-size": "2",
    "enable-dp-attention": True,
    "speculative-algorithm": "DFLASH",
    "speculative-draft-model-path": "z/draft",
}


def test_turning_the_switch_off_takes_the_groups_inside_it() -> None:
    labels = proposed_labels(DFLASH_DP, "ValueError", "Toy DFLASH drafting does not support dp attention.")
    assert labels[0] == "drop enable-dp-attention; drop dp-size", labels


def test_a_switch_with_no_groups_set_goes_alone() -> None:
    args = {k: v for k, v in DFLASH_DP.items() if k != "dp-size"}
    labels = proposed_labels(args, "ValueError", "Toy DFLASH drafting does not support dp attention.")
    assert labels[0] == "drop enable-dp-attention", labels
