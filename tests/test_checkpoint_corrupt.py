"""Issue 14 round 30, written before the change.

A checkpoint file that was cut short or damaged in the download fails the load with the
reading library's own words (safetensors' header errors, torch's zip reader, pickle's load
key, SGLang's "Corrupted safetensors file detected"). No launch flag reads a broken file:
the class names it, and nothing is proposed (download the file again).

These tests use their own paths."""

from __future__ import annotations

import pytest

from .proposing import pasted


@pytest.mark.parametrize(
    "line",
    [
        "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge",
        "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer",
        "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory",
        "_pickle.UnpicklingError: invalid load key, '<'.",
        "[2026-02-03 08:00:05 TP0] Corrupted safetensors file detected: /data/hub/model-00002-of-00004.safetensors",
    ],
)
def test_a_damaged_checkpoint_is_named_and_no_flag_is_changed(line: str) -> None:
    text = (
        "[2026-02-03 08:00:04 TP0] Load weight begin. avail mem=70.00 GB\n"
        "[2026-02-03 08:00:05 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/model_loader/weight_utils.py", line 500, in iterate\n'
        "    state = load(path)\n"
        f"{line}\n"
    )
    cls, move = pasted(text, {"tp": "2", "attention-backend": "flashinfer", "served-model-name": "m"})
    assert cls == "checkpoint-corrupt"
    assert move is None
