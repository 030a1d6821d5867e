"""Issue 14 round 26e, written before the change: a kernel's memory fault and the driver's
out-of-memory have more names than the runtime classes knew. CUDA's "unspecified launch
failure" (cudaErrorLaunchFailure), a misaligned address and HIP's "Memory access fault" are
the same fault as an illegal memory access for an operator (a kernel crashed: eager mode or
another backend); the driver API's CUDA_ERROR_OUT_OF_MEMORY (CUresult 2),
cudaErrorMemoryAllocation and hipErrorOutOfMemory are CUDA out of memory. These tests use
their own pastes."""

from __future__ import annotations

import pytest

from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .proposing import FULL


def class_of(paste: str) -> str | None:
    return classify(parse_text(paste), FULL, Gate.START).failure.class_id


def _traceback(message: str) -> str:
    return (
        "[2026-03-05 09:00:00 TP3] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/managers/scheduler.py", line 2900, in event_loop_overlap\n'
        "    self.process_batch_result(tmp_batch, tmp_result)\n"
        '  File "/opt/sglang/srt/model_executor/model_runner.py", line 1800, in forward\n'
        "    torch.cuda.synchronize()\n"
        f"{message}\n"
    )


@pytest.mark.parametrize(
    "message",
    [
        "RuntimeError: CUDA error: unspecified launch failure",
        "torch.AcceleratorError: CUDA error: misaligned address",
        "RuntimeError: cudaErrorLaunchFailure: unspecified launch failure",
    ],
)
def test_a_kernel_crash_is_the_illegal_memory_access_class(message: str) -> None:
    assert class_of(_traceback(message)) == "illegal-memory-access"


def test_a_hip_memory_access_fault_is_the_illegal_memory_access_class() -> None:
    paste = "[2026-03-05 09:00:01 TP0] Decode batch. #running-req: 12\nMemory access fault by GPU node-2 (Agent handle: 0x55d0) on address 0x7f0000. Reason: Unknown.\n"
    assert class_of(paste) == "illegal-memory-access"


@pytest.mark.parametrize(
    "line",
    [
        "[memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY (the allocator may free its cache and retry)",
        "RuntimeError: CUDA driver error: CUDA_ERROR_OUT_OF_MEMORY",
        "RuntimeError: HIP error: hipErrorOutOfMemory",
    ],
)
def test_the_drivers_out_of_memory_is_cuda_out_of_memory(line: str) -> None:
    assert (class_of(f"[2026-03-05 09:00:02 TP0] Load weight end.\n{line}\n") or "").startswith("cuda-oom")


def test_a_launch_failure_of_a_named_kernel_is_no_memory_fault() -> None:
    # A launcher refusing its own configuration says "launch failed", not CUDA's crash name.
    assert class_of(_traceback("RuntimeError: moe_sum_reduce CUDA kernel launch failed: too many resources")) != (
        "illegal-memory-access"
    )


def test_a_fault_in_a_part_the_class_lists_keeps_the_class_order() -> None:
    # The graph runner's switch (all CUDA graphs off) is one of the class's own moves: its
    # order stands, and torch.compile (cheaper to lose) goes first.
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/model_executor/cuda_graph_runner.py", line 300, in capture\n'
        "    out = run_once()\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    candidate = Candidate.build({"model-path": "/m", "enable-torch-compile": True})
    found = propose(candidate, classify(parse_text(paste), FULL, Gate.START), FULL)
    assert found[0].move.label() == "drop enable-torch-compile"
