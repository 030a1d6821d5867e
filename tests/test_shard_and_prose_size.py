"""Issue 14 round 22, written before the change.

- A quantized weight whose tensor-parallel shard does not hold whole quantization blocks
  (an FP8 block's block_n, a Marlin tile, an AWQ group) fails at load whatever else is
  set: tensor parallelism cuts the weight too fine, and a smaller tp (half) is the move.
- A message that says in words that a size is too large or too small ("too large tensor
  parallel size", "the pipeline parallel size is too small") scales the flag those words
  name (the catalogue's prose names for flags), in that direction.

These tests use their own messages and sizes."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .proposing import proposed

CATALOG = load_catalog()


def first_tp(args: dict[str, object], log: str) -> tuple[str | None, list[str]]:
    d = classify(parse_text(log), CATALOG, Gate.START)
    found = propose(Candidate.build({"model-path": "/m", **args}), d, CATALOG)
    labels = [p.move.label() for p in found]
    return (str(found[0].child.arg("tp") or found[0].child.arg("tp-size")) if found else None), labels


def load_failure(line: str) -> str:
    return (
        "[2026-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/layers/quantization/fp8.py", line 300, in create_weights\n'
        "    self.validate_block_quant_shapes(input_size_per_partition, output_partition_sizes)\n"
        f"{line}\n"
    )


def test_an_fp8_block_shard_too_small_halves_tp() -> None:
    tp, labels = first_tp(
        {"tp": "16"},
        load_failure(
            "ValueError: Weight output_partition_size = 96 is not divisible by weight quantization block_n = 128."
        ),
    )
    assert tp == "8", labels


def test_a_marlin_tile_shard_too_small_halves_tp() -> None:
    tp, labels = first_tp(
        {"tp-size": "4"},
        load_failure("RuntimeError: marlin_repack.cuh:200: size_n = 48 is not divisible by tile_n_size = 64"),
    )
    assert tp == "2", labels


def test_no_tp_set_no_tp_move() -> None:
    _, labels = first_tp(
        {},
        load_failure(
            "ValueError: Weight output_partition_size = 96 is not divisible by weight quantization block_n = 128."
        ),
    )
    assert not any(label.startswith("set tp") for label in labels), labels


def test_too_large_a_size_named_in_words_scales_it_down() -> None:
    _, found = proposed(
        {"tp-size": "8"},
        "ValueError",
        "The input size is not aligned with the quantized weight shape. This can be caused by too large tensor parallel size.",
        gate=Gate.START,
        catalog=CATALOG.without_classes(),
    )
    assert found and found[0].child.arg("tp-size") == "4", [p.move.label() for p in found]


def test_too_small_a_size_named_in_words_scales_it_up() -> None:
    _, found = proposed(
        {"pp-size": "2"},
        "RuntimeError",
        "stage memory exceeded: the pipeline parallel size is too small for this model",
        gate=Gate.START,
        catalog=CATALOG.without_classes(),
    )
    assert found and float(str(found[0].child.arg("pp-size"))) > 2, [p.move.label() for p in found]
