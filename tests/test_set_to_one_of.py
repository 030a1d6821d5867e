"""Issue 14 round 38o, written before the change.

A check that tells the operator what to set: "... reads its KV through the rails ['fa3',
'flashinfer', 'triton']. Set --speculative-draft-attention-backend to one of them". The
flag goes to the values listed that it takes, the one the command already uses elsewhere
(the target's own --attention-backend) first, before anything is dropped. The wording is
SGLang 0.5.23's shape; the lists are ours."""

from __future__ import annotations

from .proposing import proposed_labels

MESSAGE = (
    "--enable-unified-memory + EAGLE runs the draft on ['torch_native'], but a fused draft reads its KV "
    "through the MHA rails ['fa3', 'flashinfer', 'triton']. Set --speculative-draft-attention-backend to one of them."
)


def test_the_listed_value_the_command_already_uses_goes_first() -> None:
    labels = proposed_labels(
        {
            "attention-backend": "triton",
            "speculative-draft-attention-backend": "torch_native",
            "enable-unified-memory": True,
        },
        "AssertionError",
        MESSAGE,
    )
    assert labels[:3] == [
        "set speculative-draft-attention-backend=triton",
        "set speculative-draft-attention-backend=fa3",
        "set speculative-draft-attention-backend=flashinfer",
    ], labels


def test_otherwise_the_listed_order() -> None:
    labels = proposed_labels(
        {"speculative-draft-attention-backend": "torch_native", "enable-unified-memory": True},
        "AssertionError",
        MESSAGE,
    )
    assert labels[0] == "set speculative-draft-attention-backend=fa3", labels


def test_a_value_a_flag_of_the_same_kind_holds_goes_before_one_another_flag_holds() -> None:
    labels = proposed_labels(
        {
            "attention-backend": "triton",
            "linear-attn-backend": "flashinfer",
            "speculative-draft-attention-backend": "torch_native",
            "enable-unified-memory": True,
        },
        "AssertionError",
        MESSAGE,
    )
    assert labels[:2] == [
        "set speculative-draft-attention-backend=triton",
        "set speculative-draft-attention-backend=flashinfer",
    ], labels
