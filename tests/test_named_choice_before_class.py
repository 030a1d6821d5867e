"""Issue 14 round 30, written before the change.

A class speaks for a kind of failure (an illegal memory access: eager mode, another
attention backend); a failure whose own text names the implementation the user picked
(``--moe-runner-backend flashinfer_trtllm``) says more: that pick is the suspect an
operator swaps first, for another implementation of the same feature, before the class's
general moves. A failure that names no pick of the user's keeps its class's order.

These tests use their own messages and flags."""

from __future__ import annotations

from .proposing import pasted


def _fault(message: str) -> str:
    return (
        "[2026-03-05 11:00:00 TP2] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/managers/scheduler.py", line 90, in loop\n'
        "    self.process_batch(batch)\n"
        f"{message}\n"
    )


def test_the_named_pick_is_swapped_before_the_class_moves() -> None:
    log = _fault("RuntimeError: CUDA error: an illegal memory access was encountered in flashinfer_trtllm fused moe")
    cls, move = pasted(log, {"tp": "4", "moe-runner-backend": "flashinfer_trtllm"})
    assert cls is not None and cls.startswith("illegal-memory-access")
    assert move is not None
    assert move.label() in ("set moe-runner-backend=flashinfer_cutlass", "set moe-runner-backend=flashinfer_mxfp4")


def test_a_failure_naming_no_pick_keeps_its_class_order() -> None:
    log = _fault("RuntimeError: CUDA error: an illegal memory access was encountered")
    cls, move = pasted(log, {"tp": "4", "moe-runner-backend": "flashinfer_trtllm"})
    assert cls == "illegal-memory-access"
    assert move is not None and move.label() == "set disable-cuda-graph=True"
