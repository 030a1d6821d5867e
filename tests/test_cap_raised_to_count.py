"""Issue 14 round 41, written before the change (three sets carry it in sample, each scored
blind before: 0.5.11-second, 0.4.10.post2-fifth, 0.5.23-tenth): a cap a check finds exceeded,
with the cap's value and the count that passed it shown by name ("The number of LoRA paths
should not exceed max_loaded_loras. max_loaded_loras=2, lora_paths=4", "joining group exceeds
--max-ep-size (join_target=12, max_ep_size=8)"). The cap goes up to the count: everything the
user asked for stays, where dropping would lose the adapters or the group. Fields are ours."""

from __future__ import annotations

from .proposing import proposed_labels


def test_a_cap_named_by_its_field_goes_up_to_the_count_shown() -> None:
    message = "The number of toy paths should not exceed max_loaded_loras. max_loaded_loras=2, toy_paths=4"
    labels = proposed_labels({"max-loaded-loras": "2", "tp-size": "2"}, "AssertionError", message)
    assert labels[0] == "set max-loaded-loras=4"


def test_a_cap_named_by_its_flag_goes_up_to_the_count_shown() -> None:
    message = "Toy joining group exceeds --max-ep-size (join_target=12, max_ep_size=8)."
    labels = proposed_labels({"max-ep-size": "8", "ep-size": "4"}, "AssertionError", message)
    assert labels[0] == "set max-ep-size=12"


def test_a_count_within_the_cap_moves_nothing() -> None:
    message = "The number of toy paths should not exceed max_loaded_loras. max_loaded_loras=8, toy_paths=4"
    labels = proposed_labels({"max-loaded-loras": "8"}, "AssertionError", message)
    assert "set max-loaded-loras=4" not in labels and "set max-loaded-loras=8" not in labels
