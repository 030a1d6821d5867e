"""Issue 14 round 29f, written before the change (the seventeenth fresh set's misses, read
after it was scored blind).

A list flag given its members joined with commas ('q_proj,k_proj,v_proj'), each one of
the parser's choices: argparse refuses the joined string as one choice; what the user
meant is the list of those members, as the parser takes them (space-separated values).

These tests use their own members."""

from __future__ import annotations

from .proposing import proposed

CHOICES = "'q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj', 'all'"


def test_members_joined_by_commas_become_the_list() -> None:
    message = f"argument --lora-target-modules: invalid choice: 'gate_proj,up_proj' (choose from {CHOICES})"
    _, moves = proposed({"lora-target-modules": "gate_proj,up_proj"}, "argparse.ArgumentError", message)
    assert moves[0].move.edits[0].target == "lora-target-modules"
    assert moves[0].move.edits[0].value == ("gate_proj", "up_proj")


def test_a_member_that_is_no_choice_is_not_a_list() -> None:
    message = f"argument --lora-target-modules: invalid choice: 'gate_proj,mlp' (choose from {CHOICES})"
    _, moves = proposed({"lora-target-modules": "gate_proj,mlp"}, "argparse.ArgumentError", message)
    assert all(m.move.edits[0].value != ("gate_proj", "mlp") for m in moves)
