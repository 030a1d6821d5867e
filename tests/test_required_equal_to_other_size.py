"""Issue 14 round 42p, written before the change (blind at this round: 0.5.23-thirtieth's
qwen3next-flashinfer-a2a-attn-dp-half-of-tp failed after six attempts: "Flashinfer MoE A2A
requires --attn-dp-size equal to --tp-size", attention DP 2 under TP 4).

A check that requires one size equal to another, both named as flags, sets the first to the
second's value (the user's, or what SGLang resolved), keeping the feature that asked for it.
The flags are ours."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed

FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "zz-tp": {"kind": "value", "type": "int", "default": 1},
    "zz-dp": {"kind": "value", "type": "int", "default": 1},
    "zz-a2a": {"kind": "value", "type": "str", "choices": ["none", "fi"]},
}
HOST = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")


def _labels(args: dict[str, object], message: str) -> list[str]:
    _, found = proposed(args, "AssertionError", message, catalog=HOST)
    return [p.move.label() for p in found]


def test_the_size_is_set_to_the_one_it_must_equal() -> None:
    message = "FI A2A requires --zz-dp equal to --zz-tp, except for a special prefill layout."
    labels = _labels({"zz-tp": "4", "zz-dp": "2", "zz-a2a": "fi"}, message)
    assert labels[0] == "set zz-dp=4", labels


def test_must_be_equal_to_reads_the_same() -> None:
    labels = _labels({"zz-tp": "8", "zz-dp": "2"}, "--zz-dp must be equal to --zz-tp when fi is on")
    assert labels[0] == "set zz-dp=8", labels
