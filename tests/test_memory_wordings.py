"""Issue 14 round 27c, written before the change: two more wordings of running out of GPU
memory.

* The CUDA driver API's error as libraries print it, code and name: ``CUresult error: 2
  (out of memory)`` or the code alone, ``CUresult error  result=2`` (CUresult 2 is
  CUDA_ERROR_OUT_OF_MEMORY), or ``CUDA driver error: out of memory``. It is CUDA out of
  memory: a smaller static pool. Another code (``result=1``, an invalid value) is not.
* SGLang's KV-pool refusal cut after its first sentence: ``RuntimeError: Not enough
  memory`` alone, the ". Please try to increase --mem-fraction-static" lost, is still the
  static pool leaving no room for the KV cache: a larger fraction, never a smaller one.
  A longer message that only begins with those words is another failure.

These tests use their own pastes."""

from __future__ import annotations

import pytest

from .proposing import pasted


@pytest.mark.parametrize(
    "line",
    [
        "[torch_memory_saver.cpp] CUresult error: 2 (out of memory) file=csrc/utils.h func=cu_mem_create line=190",
        "RuntimeError: CUDA driver error: out of memory",
        "[torch_memory_saver.cpp] CUresult error  result=2 file=csrc/torch_memory_saver.cpp func=cu_mem_create line=104",
    ],
)
def test_the_driver_apis_out_of_memory_lowers_the_static_pool(line: str) -> None:
    paste = f"[2026-02-01 12:00:00 TP0] Load weight end. mem usage=30.1 GB.\n{line}\n"
    class_id, first = pasted(paste, {"mem-fraction-static": 0.85})
    assert class_id == "cuda-oom-load" and first is not None
    assert first.edits[0].target == "mem-fraction-static"
    assert float(first.edits[0].value) < 0.85  # type: ignore[arg-type]


def test_another_driver_api_error_code_is_no_out_of_memory() -> None:
    paste = "[torch_memory_saver.cpp] CUresult error  result=1 file=csrc/torch_memory_saver.cpp func=resume line=180\n"
    assert pasted(paste, {})[0] != "cuda-oom-load"


def test_a_cut_not_enough_memory_raises_the_static_pool() -> None:
    paste = (
        "[2026-02-01 12:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/model_executor/model_runner.py", line 1500, in init_memory_pool\n'
        '    raise RuntimeError("Not enough memory. Please try to increase --mem-fraction-static.")\n'
        "RuntimeError: Not enough memory\n"
    )
    class_id, first = pasted(paste, {"mem-fraction-static": 0.7})
    assert class_id == "kv-pool-too-small" and first is not None
    assert first.edits[0].target == "mem-fraction-static"
    assert float(first.edits[0].value) > 0.7  # type: ignore[arg-type]


def test_a_longer_message_beginning_not_enough_memory_is_another_failure() -> None:
    paste = "RuntimeError: Not enough memory to pin the host buffer of 64 GiB for the hierarchical cache\n"
    assert pasted(paste, {})[0] != "kv-pool-too-small"


# Round 27g, written before the change (after round 24's misses were read): SGLang's check
# that the TP ranks' GPUs have the same free memory before loading (other processes hold
# some: a colocated trainer, a leftover server) has its own switch, an environment variable:
# SGLANG_ENABLE_TP_MEMORY_INBALANCE_CHECK=false since 0.5 (a warning instead), and
# SGL_DISABLE_TP_MEMORY_INBALANCE_CHECK before. Setting both serves every release.


def test_unbalanced_gpu_memory_across_tp_ranks_turns_the_check_into_a_warning() -> None:
    paste = (
        "[2026-02-01 12:00:00 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/model_executor/model_runner.py", line 1228, in init_torch_distributed\n'
        "    raise RuntimeError(msg)\n"
        "RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes. "
        "pre_model_load_memory=61.2, local_gpu_memory=79.1, local_gpu_memory * 0.9=71.19\n"
    )
    class_id, first = pasted(paste, {"tp": 4})
    assert class_id == "tp-memory-unbalanced" and first is not None
    assert {(e.op.value, e.target, e.value) for e in first.edits} == {
        ("set_env", "SGLANG_ENABLE_TP_MEMORY_INBALANCE_CHECK", "false"),
        ("set_env", "SGL_DISABLE_TP_MEMORY_INBALANCE_CHECK", "1"),
    }
