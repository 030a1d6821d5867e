"""Issue 14 round 47i, written before the change (0.5.23-thirty-fifth's --moe-runner-backend
deepep, scored blind at round 47: the runner was dropped, DeepEP lost).

A value argparse refuses for one flag that is, exactly, a choice of a sibling flag (one of
the same family: the same first word, --moe-runner-backend beside --moe-a2a-backend) the
user left unset was written under the wrong flag: it moves there, before any near choice of
the flag it was written under. Not to a flag of another family (--attention-backend pytorch
is no sampling backend), nor over a sibling the user set. The message is argparse's; the
commands are ours."""

from __future__ import annotations

from .proposing import proposed_labels

REFUSED = "argument --moe-runner-backend: invalid choice: 'deepep' (choose from 'auto', 'deep_gemm', 'triton')"


def test_a_value_of_an_unset_sibling_moves_there() -> None:
    labels = proposed_labels({"tp-size": "8", "ep-size": "8", "moe-runner-backend": "deepep"}, "SystemExit", REFUSED)
    assert labels[0] == "rename moe-runner-backend to moe-a2a-backend"


def test_not_over_a_sibling_the_user_set() -> None:
    labels = proposed_labels(
        {"tp-size": "8", "moe-runner-backend": "deepep", "moe-a2a-backend": "mooncake"}, "SystemExit", REFUSED
    )
    assert "rename moe-runner-backend to moe-a2a-backend" not in labels


def test_not_to_a_flag_of_another_family() -> None:
    labels = proposed_labels(
        {"attention-backend": "pytorch"},
        "SystemExit",
        "argument --attention-backend: invalid choice: 'pytorch' (choose from 'triton', 'torch_native', 'fa3')",
    )
    assert not any("sampling-backend" in label for label in labels)
