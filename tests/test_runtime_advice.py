"""Runtime logs as users paste them, issue 14 round 7: shapes round 6's corpus showed and the
engine missed (a part of the server reporting "<it> failed with error: ...", the log's own
workaround line, an exception's name alone at the end of a line with its message below, an
error code quoted in a sentence, a part of the server named in prose), and moves that follow
the release the host runs.

Written before the engine learnt them, with other values, flags and wording than the corpus
logs they generalise (bench/corpus/real-logs); each asserts what an operator reading the log
would take as the cause, and the first launch change an operator would try.
"""

from __future__ import annotations

import pytest

from autofix.classify import classify
from autofix.model import Candidate, EditOp, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .test_runtime_wild import CATALOG, first_move, subject_of

# --- "<part> failed with error: <detail>", the traceback cut below it ----------------------

FAILED_WITH = """\
```
[2026-11-02 08:14:51 TP2] Overlap scheduler failed with error: Expected all tensors to be on the same device, but found at least two devices, cuda:2 and cpu!
The overlap scheduler is on by default.
To work around this error, add --disable-overlap-schedule to your launch command.
[2026-11-02 08:14:51 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 3120, in run_scheduler_process
    scheduler.event_loop_overlap()
"""


def test_a_part_that_failed_with_error_is_the_root_cause() -> None:
    """The rank's own failure line says what broke; the cut traceback below says only where."""
    assert "found at least two devices" in subject_of(FAILED_WITH)


def test_the_logs_own_workaround_is_the_first_move() -> None:
    """SGLang prints the flag that works around what failed: an operator tries it first."""
    assert first_move(FAILED_WITH) == "set disable-overlap-schedule=True"


@pytest.mark.parametrize(
    ("advice", "wanted"),
    [
        ("Please add `--disable-radix-cache` to the server arguments to avoid this.", "set disable-radix-cache=True"),
        ("As a workaround you can pass --attention-backend triton.", "set attention-backend=triton"),
        ("Try --mem-fraction-static 0.7 if this persists.", "set mem-fraction-static=0.7"),
    ],
)
def test_advice_in_other_words_is_read(advice: str, wanted: str) -> None:
    text = (
        "[2026-11-03 10:00:01 TP0] Decode worker failed with error: invalid configuration argument\n"
        f"{advice}\n"
        "[2026-11-03 10:00:01] Received sigquit from a child process. It usually means the child failed.\n"
    )
    assert first_move(text) == wanted


def test_advice_to_set_what_the_user_already_set_is_no_move() -> None:
    text = (
        "[2026-11-03 10:00:01 TP0] Decode worker failed with error: invalid configuration argument\n"
        "To work around this error, add --disable-radix-cache to your launch command.\n"
    )
    assert first_move(text, disable_radix_cache=True) != "set disable-radix-cache=True"


# --- an exception named alone at the end of its line, its message on the next ------------


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            "The final error is:\n\n```text\ntvm.error.InternalError:\n"
            "Check failed: (buf != nullptr) is false: null buffer for Tensor<3>[dtype=int32, dev\n```\n",
            "null buffer for Tensor<3>",
        ),
        (
            "It dies right after loading:\n\nRuntimeError:\n    shape '[4, -1, 128]' is invalid for input of size 1000\n",
            "is invalid for input of size 1000",
        ),
    ],
)
def test_an_exception_name_alone_takes_its_message_from_the_next_line(text: str, wanted: str) -> None:
    assert wanted in subject_of(text)


def test_a_name_alone_at_the_end_of_prose_is_no_exception() -> None:
    """'Error:' closing a sentence that introduces something else is prose, not a failure."""
    text = "Notes on the Error:\nthe server starts fine on two nodes.\n"
    assert "server starts fine" not in subject_of(text)


# --- an error code quoted in a sentence ----------------------------------------------------


def test_an_error_code_quoted_in_prose_is_the_root_cause() -> None:
    text = (
        "## Summary\n"
        "- The worker aborts in its first decode step (`CUDA_ERROR_LAUNCH_FAILED` in "
        "`flashinfer_backend.forward_decode`) when the batch is larger than 512.\n"
        "- This PR caps the batch.\n"
    )
    assert "CUDA_ERROR_LAUNCH_FAILED" in subject_of(text)


def test_a_constant_in_prose_without_a_failure_word_is_no_error() -> None:
    text = "We set `NCCL_IB_DISABLE` and `MAX_JOBS` before building; it works now.\n"
    assert "NCCL_IB_DISABLE" not in subject_of(text)


# --- the part of the server a log names, and moves in the host's release ------------------


def test_a_part_named_in_prose_suggests_switching_it_off() -> None:
    """`piecewise_cuda_graph_runner.capture` named in the sentence: the prefill (piecewise) graph
    goes off, in the spelling of the host's release (0.5.23's parser: the prefill backend)."""
    text = (
        "- The server crashes while capturing (`CUBLAS_STATUS_NOT_SUPPORTED` in "
        "`piecewise_cuda_graph_runner.capture`) when --max-prefill-tokens is 256.\n"
    )
    assert first_move(text) == "set cuda-graph-backend-prefill=disabled"


def test_a_failure_inside_the_piecewise_runner_switches_off_that_graph_first() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/sglang/srt/model_executor/piecewise_cuda_graph_runner.py", '
        "line 410, in capture_one_batch_size\n"
        "    out = self.model_runner.model.forward(input_ids, positions, forward_batch)\n"
        "RuntimeError: CUDA error: misaligned address\n"
    )
    move = first_move(text)
    assert move == "set cuda-graph-backend-prefill=disabled", move


def test_a_move_on_a_flag_the_host_knows_stays_in_its_spelling() -> None:
    """On a release that still has --disable-piecewise-cuda-graph (0.5.11's parser), the move
    names that flag."""
    old = CATALOG.with_parser(_old_parser(), "0.5.11")
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/model_executor/piecewise_cuda_graph_runner.py", line 88, in warmup\n'
        "    self.capture()\n"
        "RuntimeError: CUDA error: misaligned address\n"
    )
    proposals = propose(Candidate(()), classify(parse_text(text), old, Gate.START), old)
    assert proposals[0].move.edits[0].op is EditOp.SET
    assert proposals[0].move.edits[0].target == "disable-piecewise-cuda-graph"


def _old_parser() -> dict[str, dict[str, object]]:
    """A parser table like 0.5.11's in the part that matters: the piecewise switch exists."""
    flags = {name: {"kind": info.kind} for name, info in CATALOG.flags.items() if info.kind != "list"}
    flags.pop("cuda-graph-backend-prefill", None)
    flags.pop("disable-prefill-cuda-graph", None)
    flags["disable-piecewise-cuda-graph"] = {"kind": "bool"}
    return {"flags": flags, "aliases": {}}


# --- issue 14 round 8 (round 7's logs showed each; other wording and values here) ---------


def test_a_failure_in_the_hierarchical_cache_switches_it_off() -> None:
    text = (
        "Exception in thread Thread-3 (load_thread_func):\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/cache_controller.py", line 512, in load\n'
        "    self.mem_pool_host.load_to_device(op)\n"
        "AttributeError: 'MLATokenToKVPoolHost' object has no attribute 'layer_num'\n"
    )
    assert first_move(text, enable_hierarchical_cache=True, tp=4) == "drop enable-hierarchical-cache"


def test_deepeps_dispatch_buffer_grows_from_the_value_in_use() -> None:
    text = (
        "[2026-11-20 03:10:44 DP3 TP3 EP3] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/layers/moe/token_dispatcher/deepep.py", line 700, in dispatch\n'
        "    recv = self.buffer.low_latency_dispatch(hidden, topk_idx, self.num_max_dispatch_tokens_per_rank)\n"
        "RuntimeError: Failed: Assertion error /build/DeepEP/csrc/deep_ep.cpp:1301 "
        "'x.size(0) == topk_idx.size(0) and x.size(0) <= num_max_dispatch_tokens_per_rank'\n"
        "env: SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=512\n"
    )
    assert first_move(text, moe_a2a_backend="deepep") == "set_env SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=1024"


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        # glog's own error line (a C++ transfer engine's), no Python traceback at all
        (
            "on the decode node:\n"
            "E1103 09:41:07.512330 88121 rdma_context.cpp:412] Failed to register memory region: Cannot allocate "
            "memory (errno 12)\n"
            "[2026-11-03 09:41:07] Decode transfer failed for request rank=0\n",
            "Failed to register memory region",
        ),
        # the error in double quotes first, the word "error" after it
        (
            'I get "expected scalar type BFloat16 but found Float" error when I add --enable-torch-compile, '
            "without it all is fine\n",
            "expected scalar type BFloat16 but found Float",
        ),
        # an assertion's condition in backticks in a sentence about the assertion
        (
            "With the default capture list the decode capture trips the assertion "
            "(`num_tokens <= self.max_tokens_per_rank`) in the dispatcher.\n",
            "num_tokens <= self.max_tokens_per_rank",
        ),
    ],
)
def test_errors_in_other_pasted_shapes_are_the_root_cause(text: str, wanted: str) -> None:
    assert wanted in subject_of(text)


def test_flashinfers_attention_kernel_named_in_the_message_switches_the_backend() -> None:
    """Issue 14 round 9: no frame shows flashinfer, the message names its kernel."""
    text = "RuntimeError: BatchPrefillWithPagedKVCache failed with error: invalid configuration argument\n"
    assert first_move(text, attention_backend="flashinfer") == "set attention-backend=triton"


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        # Ray's wrapper names the remote exception in parentheses
        (
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.10/site-packages/ray/_private/worker.py", line 2661, in get\n'
            "    raise value.as_instanceof_cause()\n"
            "ray.exceptions.RayTaskError(ValueError): ray::rollout() (pid=1200, ip=10.0.0.9)\n"
            '  File "/workspace/rollout.py", line 40, in rollout\n',
            "RayTaskError(ValueError)",
        ),
        # error-level lines: the one that says what went wrong, not the one that says what follows
        (
            "[rank1]:[E1201 10:00:01.000000001 ProcessGroupNCCL.cpp:1500] [PG ID 0 PG GUID 0 Rank 1] "
            "ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1\n"
            "[rank3]:[E1201 10:00:02.000000002 ProcessGroupNCCL.cpp:1800] [PG ID 0 PG GUID 0 Rank 3] "
            "Received a dump signal due to a collective timeout from rank 3\n",
            "collective timeout",
        ),
        # a message in backticks that says it should not happen
        ("the scheduler logs `slot 12 freed twice, this should never happen` and then hangs\n", "freed twice"),
        # a failure word, then five words, then the quote
        (
            "The first request fails inside the FlashMLA decode with `unsupported head dim 96`.\n",
            "unsupported head dim 96",
        ),
    ],
)
def test_round_eight_paste_shapes_are_read(text: str, wanted: str) -> None:
    """Issue 14 round 9, written before the change: shapes round 8's logs showed."""
    assert wanted in subject_of(text)


# --- advice that names a flag of another release with a word value -------------------------


def test_advice_for_a_renamed_flag_keeps_its_word_value() -> None:
    """Round 44i, written before the change (round 60's hybrid-model thread, in our words):
    the log advises "--mamba-scheduler-strategy extra_buffer", an older release's name; the
    move is spelled in the host's release with the value the advice gives, not as a switch
    turned on (the value was lost: "set ...=True")."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/sglang/srt/server_args.py", line 900, in _handle_toy\n'
        "    raise ValueError(\n"
        "ValueError: Speculative decoding for ToyHybridForCausalLM is not compatible with radix cache when "
        "using --mamba-scheduler-strategy no_buffer.To use radix cache with speculative decoding, please use "
        "--mamba-scheduler-strategy extra_buffer and set SGLANG_TOY=1.\n"
    )
    assert first_move(text, speculative_algorithm="NEXTN") == "set mamba-radix-cache-strategy=extra_buffer"
