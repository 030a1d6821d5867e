"""Issue 14 round 27, written before the change: the detail a failure line points to is
the root.

* torch's NCCL error is several lines: its message ends with NCCL's own error name
  (``ncclUnhandledCudaError: ...``), then ``Last error:`` and, on the next line, what NCCL
  last saw go wrong (a failed CUDA allocation, a shared-memory segment it could not make).
  Pasted alone, without a traceback, those lines still continue the message: the detail is
  what an operator acts on.
* Two failure lines that end with the same error (``...: NO_AVAILABLE_HANDLE``): the later
  one reports the earlier (a caller passing on its callee's failure), so the earlier is the
  root.

These tests use their own pastes."""

from __future__ import annotations

import pytest

from .proposing import subject_of


def test_nccls_last_error_continues_a_pasted_nccl_error() -> None:
    paste = (
        "Then it reported an error:\n```\n"
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:80, "
        "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
        "ncclUnhandledCudaError: Call to CUDA function failed.\n"
        "Last error:\n"
        "Failed to CUDA calloc 33554432 bytes\n"
        "```\n"
        "How can I fix it?\n"
    )
    subject = subject_of(paste)
    assert "unhandled cuda error" in subject
    assert "Failed to CUDA calloc 33554432 bytes" in subject
    assert "How can I fix it" not in subject


def test_nccls_last_error_continues_the_message_after_a_traceback() -> None:
    paste = (
        "[2026-01-02 10:00:00 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/dist-packages/sglang/srt/managers/scheduler.py", line 300, in run_scheduler_process\n'
        "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)\n"
        '  File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 4100, in barrier\n'
        "    work = group.barrier(opts=opts)\n"
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:80, "
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
        "Last error:\n"
        "Error while creating shared memory segment /dev/shm/nccl-AbCdEf (size 9637888)\n"
    )
    subject = subject_of(paste)
    assert "unhandled system error" in subject
    assert "Error while creating shared memory segment" in subject


def test_a_line_unrelated_to_nccl_still_ends_a_pasted_error() -> None:
    paste = "```\nRuntimeError: CUDA error: out of memory\nLast error:\nsee the attached screenshot\n```\n"
    assert "see the attached screenshot" not in subject_of(paste)


def test_the_earlier_of_two_lines_ending_in_the_same_error_is_the_root() -> None:
    paste = (
        "I0616 07:25:02.235610 40412 allocator.cpp:109] initializing allocator size=1073741824\n"
        "[2026-06-16 07:25:02 TP5] Connect to the store successfully.\n"
        "E0616 07:25:02.248354 40411 client.cpp:380] Failed to start put operation: NO_AVAILABLE_HANDLE\n"
        "E0616 07:25:02.248379 40411 store_py.cpp:372] Put operation failed with error: NO_AVAILABLE_HANDLE\n"
        "E0616 07:25:02.248410 40412 client.cpp:380] Failed to start put operation: NO_AVAILABLE_HANDLE\n"
        "E0616 07:25:02.248440 40412 store_py.cpp:372] Put operation failed with error: NO_AVAILABLE_HANDLE\n"
    )
    assert "Failed to start put operation: NO_AVAILABLE_HANDLE" in subject_of(paste)


def test_failure_lines_ending_in_different_errors_keep_their_order_of_strength() -> None:
    paste = (
        "E0616 07:25:02.248354 40411 client.cpp:380] Failed to start put operation: NO_AVAILABLE_HANDLE\n"
        "E0616 07:25:02.248379 40411 store_py.cpp:372] Put operation failed with error: SEGMENT_NOT_FOUND\n"
    )
    assert "SEGMENT_NOT_FOUND" in subject_of(paste)


# Round 27f, written before the change (after round 24's misses were read): a fence closes
# the pasted message, and a process said to be dead, or data said to be corrupt, is a failure.


def test_a_code_fence_after_a_bare_assertion_is_no_message() -> None:
    paste = (
        "# [Bug] the target crashes in the chunked prefix cache path\n\n"
        "When serving with EAGLE3 the server may crash after `kv cache full` warnings with an `AssertionError`:\n\n"
        "```\n"
        'File ".../flashattention_backend.py", line 832, in forward_extend\n'
        "    assert not get_global_server_args().disable_chunked_prefix_cache\n"
        "AssertionError\n"
        "```\n\n"
        "The issue is caused by the draft and the target sharing global arguments.\n"
    )
    assert "assert not get_global_server_args().disable_chunked_prefix_cache" in subject_of(paste)


@pytest.mark.parametrize(
    "line",
    [
        "[12-11 17:52:52] Rank 0 scheduler is dead. Please check if there are relevant logs.",
        "[2026-04-07 13:24:13 TP0] Context corruption detected: request 3b5d received metadata of another room.",
        "[2026-04-07 13:24:13 TP0] The detokenizer process died unexpectedly.",
    ],
)
def test_a_logged_line_saying_a_process_is_dead_or_data_corrupt_beats_the_title(line: str) -> None:
    paste = (
        "# Failed to deploy a model on the new release\n\n"
        "```\n"
        "[12-11 17:47:40] Loading model from 3 safetensors files\n"
        f"{line}\n"
        "```\n"
    )
    assert line.split("] ", 1)[1] in subject_of(paste)


# Round 27i, written before the change (after round 24's misses were read): a traceback cut
# before its exception line says where a process died, not what killed it; the line the
# same process printed just before it, when that line states a failure, says what.


def _cut_paste(before: str) -> str:
    return (
        "# [Bug] the server is crashing with the following stack trace\n\n"
        f"sglang_service-1  | [2026-09-15 13:53:07 TP0] {before}\n"
        "sglang_service-1  | [2026-09-15 13:53:07 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        'sglang_service-1  |   File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 4947, in run\n'
        "sglang_service-1  |     scheduler.run_event_loop()\n"
        'sglang_service-1  |   File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1662, in run_ev'
    )


def test_the_failure_its_process_printed_before_a_cut_traceback_is_the_root() -> None:
    line = "Number of tokens in the multimodal embedding does not match those in the input text. Got 279 and 260."
    assert line in subject_of(_cut_paste(line))


def test_an_ordinary_line_before_a_cut_traceback_leaves_the_title() -> None:
    line = "Prefill batch. #new-seq: 1, #new-token: 279, #cached-token: 0, token usage: 0.01"
    assert "crashing with the following stack trace" in subject_of(_cut_paste(line))
