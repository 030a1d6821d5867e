"""Issue 14 round 26, written before the change: the failure is told in the program's own
words where a paste holds them, and in the user's only where it does not.

* An issue title that quotes an exception with its message ("# [Bug] KeyError: 'x' ...")
  states the error; a backticked exception name alone in the prose below only names its kind.
* A line the program printed ("Fatal Python error: Segmentation fault") beats a sentence
  that quotes the same failure ("... reports the error "Segmentation fault"").
* A bare ``AssertionError`` is stated by the assert statement its failing frame shows.
* A CUDA kernel's assertion ("block: [..], thread: [..] Assertion `c` failed.") is the root
  of the "device-side assert triggered" error that reports it, even when the traceback of
  the report follows and the kernel's file name was printed on the line before.
* A logged line beats a sentence of the user's that states as much failure.

These tests use their own pastes."""

from __future__ import annotations

from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .proposing import FULL, subject_of

_TEMPLATE = "### Checklist\n- [x] 1. I have searched related issues.\n### Describe the bug\n"


def test_a_title_quoting_an_exception_and_its_message_states_the_error() -> None:
    paste = (
        "# [Bug] AttributeError: 'FusedMoE' object has no attribute 'w13_scale' with the draft model\n\n"
        + _TEMPLATE
        + "Since the new loader landed, the weight mapper causes an `AttributeError` crash while loading\n"
        "the draft model on every host we tried.\n"
    )
    assert "'FusedMoE' object has no attribute 'w13_scale'" in subject_of(paste)


def test_a_title_without_an_exception_leaves_the_prose_quote_alone() -> None:
    paste = (
        "# [Bug] server dies after a few requests\n\n"
        + _TEMPLATE
        + 'After a few requests it fails with "Failed to allocate the workspace of 1.5 GB" and exits.\n'
    )
    assert "Failed to allocate the workspace of 1.5 GB" in subject_of(paste)


def test_the_printed_line_beats_a_sentence_quoting_the_same_failure() -> None:
    paste = (
        "# [Bug] services unavailable after scaling the store down\n\n"
        + _TEMPLATE
        + 'After removing a replica, the server cannot serve requests and reports the error "Segmentation fault".\n'
        "The log:\n```\n"
        '[2026-03-01 10:00:00] INFO:     10.0.0.2:4000 - "GET /metrics HTTP/1.1" 200 OK\n'
        "Fatal Python error: Segmentation fault\n\n"
        "Thread 0x00007f0000000000 (most recent call first):\n"
        '  File "/opt/sglang/srt/managers/scheduler.py", line 2207 in watchdog_thread\n'
        "```\n"
    )
    assert "Fatal Python error: Segmentation fault" in subject_of(paste)


def test_a_bare_assertion_is_stated_by_its_assert_statement() -> None:
    paste = (
        "[2026-03-02 11:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/managers/scheduler.py", line 3001, in run_scheduler_process\n'
        "    scheduler.event_loop_normal()\n"
        '  File "/opt/sglang/srt/mem_cache/radix_cache.py", line 412, in load_back\n'
        "    assert node.host_value is not None or node.value is not None\n"
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "AssertionError\n"
    )
    subject = subject_of(paste)
    assert subject.startswith("AssertionError: ")
    assert "assert node.host_value is not None or node.value is not None" in subject


def test_an_assertion_with_a_message_keeps_its_message() -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/server_args.py", line 900, in check\n'
        '    assert self.page_size > 0, "page size must be positive"\n'
        "AssertionError: page size must be positive\n"
    )
    assert subject_of(paste) == "AssertionError: page size must be positive"


def test_an_assertion_whose_frame_shows_no_assert_statement_says_nothing_more() -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/layers/sampler.py", line 120, in forward\n'
        "    self._check(probs)\n"
        "AssertionError\n"
    )
    assert subject_of(paste) == "AssertionError: "


_KERNEL_FILE = "/pytorch/aten/src/ATen/native/cuda/TensorCompare.cu:112: _assert_async_cuda_kernel: "


def test_a_kernel_assertion_wrapped_onto_its_own_line_is_the_root_of_the_device_side_assert() -> None:
    paste = (
        "```\n"
        "torch.AcceleratorError: CUDA error: device-side assert triggered\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n\n"
        f"{_KERNEL_FILE}\n"
        "block: [0,0,0], thread: [0,0,0] Assertion `probability tensor contains either `inf`, `nan` or element < 0` "
        "failed.\n\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/layers/sampler.py", line 180, in forward\n'
        "    batch_next_token_ids = torch.multinomial(probs, num_samples=1)\n"
        "torch.AcceleratorError: CUDA error: device-side assert triggered\n"
        "```\n"
    )
    assert "probability tensor contains either" in subject_of(paste)


def test_a_kernel_assertion_on_one_line_beats_the_traceback_that_reports_it() -> None:
    paste = (
        "/opt/src/Indexing.cu:1500: indexSelectSmallIndex: block: [3,0,0], thread: [64,0,0] "
        "Assertion `srcIndex < srcSelectDimSize` failed.\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/layers/vocab_parallel_embedding.py", line 480, in forward\n'
        "    output = F.embedding(masked_input.long(), self.weight)\n"
        "RuntimeError: CUDA error: device-side assert triggered\n"
    )
    assert "srcIndex < srcSelectDimSize" in subject_of(paste)


def test_a_device_side_assert_without_the_kernel_line_stays_the_subject() -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/layers/sampler.py", line 180, in forward\n'
        "    batch_next_token_ids = torch.multinomial(probs, num_samples=1)\n"
        "RuntimeError: CUDA error: device-side assert triggered\n"
    )
    assert subject_of(paste) == "RuntimeError: CUDA error: device-side assert triggered"


def test_a_logged_line_beats_a_sentence_stating_as_much() -> None:
    paste = (
        "# [Bug] Error when waking the engine up\n\n"
        + _TEMPLATE
        + "When the trainer calls `resume_memory_occupation`, the out of memory error occurs:\n\n"
        "(EngineServer pid=2501) [memory_saver.cpp] CUresult error: 2 (out of memory)  file=utils.h line=194\n"
        "(Trainer pid=2097) WARNING:2026-03-03 16:00:45,396:Async request to resume timed out (attempt 1)\n"
    )
    assert "CUresult error: 2 (out of memory)" in subject_of(paste)


# Round 26b, written before its change: a native library's tagged line ("[saver.cpp] ...") is
# a line the program printed; a line that says a child process failed only announces that
# something failed elsewhere; an error code's name states its failure with underscores
# (CUDA_ERROR_OUT_OF_MEMORY); a user's quote of an explanation gives way to a printed
# failure line; a backticked "X failed: detail" quotes an error whatever word leads to it.


def test_a_line_saying_a_child_failed_gives_way_to_the_childs_error() -> None:
    paste = (
        "# CUresult error result=1 in the resume path\n\n"
        "```\n"
        "[memory_saver.cpp] CUresult error  result=1 file=csrc/memory_saver.cpp func=resume line=214\n"
        "[memory_saver.cpp] CUresult error  result=1 file=csrc/memory_saver.cpp func=resume line=214\n"
        "Child process unexpectedly failed with an exit code 256. pid=97721\n"
        "Child process unexpectedly failed with an exit code 256. pid=97719\n"
        "```\n"
    )
    assert "result=1 file=csrc/memory_saver.cpp func=resume" in subject_of(paste)


def test_an_error_code_name_states_its_failure() -> None:
    paste = (
        "# OOM when waking the KV cache up\n\n"
        "[memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY (the allocator may free its cache and retry)\n"
        "[memory_saver.cpp] cudaError error: 2 (out of memory)  file=csrc/core.cpp func=resume line=172\n\n"
        "When resuming the KV cache it runs into OOM even with free memory left.\n"
    )
    assert "cuMemCreate CUDA_ERROR_OUT_OF_MEMORY" in subject_of(paste)


def test_a_printed_failure_line_beats_a_quoted_explanation() -> None:
    paste = (
        "# [memory_saver.cpp] CUresult error result=2 in cu_mem_create\n\n"
        "Question: someone reported this error:\n\n"
        "```\n"
        "[memory_saver.cpp] CUresult error  result=2 file=csrc/memory_saver.cpp func=cu_mem_create line=103 (5)\n"
        "```\n\n"
        'Answer: result 2 means out of memory, "The API call failed because it was unable to allocate enough'
        ' memory to perform the requested operation."\n'
    )
    assert "result=2 file=csrc/memory_saver.cpp func=cu_mem_create" in subject_of(paste)


def test_a_backticked_failure_with_its_detail_is_a_quoted_error() -> None:
    paste = (
        "# fix a draft graph capture failure\n\n"
        "## Motivation\n\n"
        "fix `Capture cuda graph failed: mat1 and mat2 must have the same dtype, but got Float and Half`\n\n"
        "We should pass `--dtype` when the target and the draft model use different dtypes.\n"
    )
    assert "mat1 and mat2 must have the same dtype" in subject_of(paste)


# Round 26c, written before its change: a command-line option names a setting, not a failure:
# its words ("--dump-assert-binaries") are no failure evidence, and a quote holding only
# options ("failed with `--ib-device mlx5_0,mlx5_1`") is no quoted error.


def test_an_options_words_state_no_failure() -> None:
    paste = (
        "# [Bug] crash with the wave attention backend on ROCm\n\n"
        "```\n"
        "[2026-03-04 10:53:09 TP0] Invoke the compiler: /opt/tools/compile --input-type=auto "
        "--hal-dump-assert-binaries-to=/tmp/x --error-format=plain\n"
        "```\n"
    )
    assert "crash with the wave attention backend" in subject_of(paste)


def test_a_quote_of_options_is_no_quoted_error() -> None:
    paste = (
        "# how to deal with the transfer error: worker_pool.cpp:291] Worker: Process failed for slice\n\n"
        "I tried two versions; they all failed with `--disaggregation-ib-device mlx5_0,mlx5_1` but succeed with one NIC.\n"
    )
    assert "Process failed for slice" in subject_of(paste)


# Round 26f: the statement that states a bare assert is for the operator and the classifier;
# repair reads what the exception said itself (nothing), so a primary choice the statement
# names as an operand is still given up last, as before.


def test_a_bare_asserts_statement_does_not_let_repair_give_up_a_primary_choice_early() -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/server_args.py", line 1500, in handle_data_parallelism\n'
        "    assert cfg.tp_size % cfg.attn_dp_size == 0\n"
        "AssertionError\n"
    )
    diagnosis = classify(parse_text(paste), FULL, Gate.PREFLIGHT)
    assert diagnosis.subject.message == "assert cfg.tp_size % cfg.attn_dp_size == 0"
    assert diagnosis.subject.said == ""
    candidate = Candidate.build({"model-path": "/m", "tp-size": "8", "attn-dp-size": "6"})
    for proposal in propose(candidate, diagnosis, FULL):
        if proposal.child.arg("tp-size") != "8":
            assert proposal.gives_up, proposal.move.label()
