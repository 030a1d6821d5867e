"""Issue 14 round 27h, written before the change (after round 24's misses were read): a kernel
with no image for this GPU cannot be had by a flag, but a kernel the message names belongs
to a part of the server that has another backend. flashinfer's sampling kernels
(``TopKTopPSamplingFromProbs``, ``TopPSamplingFromProbs``, ``MinPSamplingFromProbs`` ...) are
avoided by ``--sampling-backend pytorch``. A kernel no part owns still gets no move.

These tests use their own pastes."""

from __future__ import annotations

import pytest

from .proposing import pasted


def _first_move(paste: str, args: dict[str, object]) -> str | None:
    first = pasted(paste, args)[1]
    return first.label() if first is not None else None


def _traceback(message: str) -> str:
    return (
        "[2026-03-05 09:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/managers/scheduler.py", line 2900, in event_loop_normal\n'
        "    result = self.run_batch(batch)\n"
        '  File "/opt/sglang/srt/layers/sampler.py", line 120, in forward\n'
        "    batch_next_token_ids = top_k_top_p_sampling_from_probs(probs, top_ks, top_ps)\n"
        f"RuntimeError: {message}\n"
    )


@pytest.mark.parametrize("kernel", ["TopKTopPSamplingFromProbs", "MinPSamplingFromProbs", "TopPSamplingFromProbs"])
def test_a_sampling_kernel_without_an_image_moves_sampling_to_pytorch(kernel: str) -> None:
    paste = _traceback(f"{kernel} failed with error code no kernel image is available for execution on the device")
    assert _first_move(paste, {}) == "set sampling-backend=pytorch"


def test_sampling_already_on_pytorch_is_no_move() -> None:
    paste = _traceback("TopKTopPSamplingFromProbs failed with error code no kernel image is available for execution")
    assert _first_move(paste, {"sampling-backend": "pytorch"}) != "set sampling-backend=pytorch"


def test_a_kernel_no_part_owns_still_gets_no_move() -> None:
    paste = _traceback("CUDA error: no kernel image is available for execution on the device")
    assert _first_move(paste, {}) is None
