"""Issue 14 round 37k, written before the change: argparse refuses one member of a list
flag's value ("invalid choice: 'qkv_proj'" among --lora-target-modules qkv_proj o_proj
gate_up_proj down_proj, on a release that takes only the unfused names). The user's other
members stay: only the refused ones change. A fused name (qkv_proj: q, k and v; gate_up_proj:
gate and up) whose parts are each a choice with the same ending becomes those parts, all
refused members in one move. The engine set the whole list to the nearest choice of the
first refused member (q_proj alone). The message is argparse's wording with our choices."""

from __future__ import annotations

from .proposing import proposed_labels

CHOICES = "'q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj', 'all'"


def _labels(value: str, refused: str) -> list[str]:
    message = f"argument --lora-target-modules: invalid choice: '{refused}' (choose from {CHOICES})"
    members = tuple(value.split())
    given = members if len(members) > 1 else members[0]
    return proposed_labels({"enable-lora": True, "lora-target-modules": given}, "argparse_error", message)


def test_fused_members_become_their_parts_and_the_others_stay() -> None:
    labels = _labels("qkv_proj o_proj gate_up_proj down_proj", "qkv_proj")
    assert labels[0] == "set lora-target-modules=q_proj k_proj v_proj o_proj gate_proj up_proj down_proj", labels


def test_a_misspelt_member_is_mended_in_place() -> None:
    labels = _labels("q_proj v_prj", "v_prj")
    assert labels[0] == "set lora-target-modules=q_proj v_proj", labels


def test_a_single_value_is_still_replaced_by_the_nearest_choice() -> None:
    labels = _labels("o_prj", "o_prj")
    assert labels[0] == "set lora-target-modules=o_proj", labels


def test_a_member_with_no_reading_leaves_and_the_others_stay() -> None:
    """Round 38f, written before the change: a member the release does not take at all
    (embed_tokens, lm_head: no choice near it, no parts) leaves the list; the members the
    parser takes stay. The engine replaced the whole list by one chance choice."""
    labels = _labels("q_proj k_proj v_proj o_proj embed_tokens lm_head", "embed_tokens")
    assert labels[0] == "set lora-target-modules=q_proj k_proj v_proj o_proj", labels


def test_a_list_of_only_unreadable_members_is_not_emptied() -> None:
    labels = _labels("embed_tokens lm_head", "embed_tokens")
    assert "set lora-target-modules=" not in labels
