"""Issue 14 round 31, written before the change.

A check that bounds one size by a multiple of another ("--max-loaded-loras must be less
than or equal to double --max-loras-per-batch: 4") can be met from either side: the first
size brought to the bound (as before), or the other size moved until the bound holds
(max-loras-per-batch raised to 4 when 8 are loaded). The second keeps the size the
message opens with, which an operator who preloads that many adapters asked for. The
wording is SGLang 0.5.23's; the other messages are ours."""

from __future__ import annotations

import pytest

from .proposing import proposed_labels


def _labels(args: dict[str, object], message: str) -> list[str]:
    return proposed_labels(args, "AssertionError", message)


def test_the_other_size_rises_until_the_upper_bound_holds() -> None:
    labels = _labels(
        {"max-loaded-loras": "8", "max-loras-per-batch": "2", "enable-lora-overlap-loading": True},
        "Enabling LoRA overlap loading requires pinning LoRA adapter weights in CPU memory, so --max-loaded-loras "
        "must be less than or equal to double --max-loras-per-batch: 4",
    )
    assert "set max-loaded-loras=4" in labels
    assert "set max-loras-per-batch=4" in labels


@pytest.mark.parametrize(
    ("args", "message", "move"),
    [
        (
            {"chunked-prefill-size": "6", "page-size": "4"},
            "--chunked-prefill-size must be greater than or equal to twice --page-size",
            "set page-size=3",
        ),
        (
            {"max-prefill-tokens": "10", "chunked-prefill-size": "2"},
            "--max-prefill-tokens must be less than 3 times --chunked-prefill-size",
            "set chunked-prefill-size=4",
        ),
        (
            {"max-loaded-loras": "9", "max-loras-per-batch": "4"},
            "--max-loaded-loras must be less than or equal to half --max-loras-per-batch",
            "set max-loras-per-batch=18",
        ),
    ],
)
def test_each_wording_of_a_multiple(args: dict[str, object], message: str, move: str) -> None:
    assert move in _labels(args, message)


def test_a_bound_that_already_holds_on_the_other_side_moves_nothing_there() -> None:
    labels = _labels(
        {"max-loaded-loras": "4", "max-loras-per-batch": "2"},
        "--max-loaded-loras must be less than or equal to double --max-loras-per-batch: 4",
    )
    assert not any(label.startswith("set max-loras-per-batch") for label in labels)
