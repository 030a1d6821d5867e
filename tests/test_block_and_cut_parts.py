"""Issue 14 round 28, written before the change.

- A block-quantized weight's shard is reported in more words than SGLang's own sentence:
  "size=N not divisible by block_n=M" (a user's summary, another release's wording, the
  block_k of the input side). It is the same failure: the shard is cut finer than a
  block, and half the tp makes each shard twice as large.
- A traceback cut before its exception line (a paste that stops mid-path) still says
  where the server died: when nothing else names the failure, the parts its frames run
  in give the moves (a capture's frames: no CUDA graphs).

These tests use their own messages, paths and sizes."""

from __future__ import annotations

import pytest

from .proposing import pasted


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: output_partition_size=24 not divisible by block_n=128",
        "ValueError: input_size_per_partition = 112 is not divisible by block_k = 128",
        "AssertionError: weight shard 40 not divisible by the quantization block_n 64",
    ],
)
def test_a_shard_finer_than_a_block_halves_tp(line: str) -> None:
    log = f"[2026-02-02 09:00:00 TP3] Scheduler hit an exception: Traceback (most recent call last):\n{line}\n"
    cls, move = pasted(log, {"tp": "8"})
    assert cls == "quant-shard-not-divisible"
    assert move is not None and move.label() == "set tp=4"


def test_block_size_of_a_page_is_not_a_quantization_block() -> None:
    cls, _ = pasted("ValueError: max_total_tokens 1000 is not divisible by block_size 64\n", {"tp": "8"})
    assert cls != "quant-shard-not-divisible"


CUT_IN_CAPTURE = """\
The server dies while it starts. Here is what it prints:

```
[2026-01-09 11:22:33 DP1 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/py/sglang/srt/model_executor/cuda_graph_runner.py", line 512, in capture_one_batch_size
    out = run_once()
  File "/srv/py/sglang/srt/model_executor/cuda_graph_runner.py", line 498, in run_once
    logits_output = forward(input_ids, forward_batch.positions, forward_batch)
  File "/srv/py/sglang/srt/models/qwen3_moe.py", line 901, in forward
    hidden_states = self.model(input_ids, positions, forward_batch)
  File "/usr/lib/python3.12/site-packages/torch/nn/mod
```
"""


def test_a_traceback_cut_inside_graph_capture_turns_graphs_off() -> None:
    _, move = pasted(CUT_IN_CAPTURE, {"tp": "2", "dp": "2", "enable-dp-attention": True})
    assert move is not None and move.label() == "set disable-cuda-graph=True"


def test_a_cut_traceback_in_no_known_part_moves_nothing_by_its_frames() -> None:
    log = CUT_IN_CAPTURE.replace("model_executor/cuda_graph_runner.py", "managers/tp_worker.py")
    _, move = pasted(log, {"tp": "2"})
    assert move is None or "disable-cuda-graph" not in move.label()


# Issue 14 round 28c: out of GPU memory as users write it (a title, a summary), in lower
# case or shortened to OOM, is the same failure as torch's "CUDA out of memory".
@pytest.mark.parametrize(
    ("line", "evidence", "expected"),
    [
        ("[Bug] cuda out of memory when serving 32 long prompts", "", "cuda-oom-load"),
        ("Qwen3-32B at tp 2 hits CUDA OOM right after start", "", "cuda-oom-load"),
        ("cuda out of memory", "while capturing cuda graph bs 256", "cuda-oom-graph-capture"),
    ],
)
def test_out_of_memory_in_a_users_words_is_out_of_memory(line: str, evidence: str, expected: str) -> None:
    paste = f"{evidence}\n{line}\n" if evidence else f"{line}\n"
    cls, move = pasted(paste, {"mem-fraction-static": 0.9})
    assert cls == expected
    assert move is not None and move.edits[0].target == "mem-fraction-static"
    assert float(str(move.edits[0].value)) < 0.9


def test_oom_inside_a_longer_word_is_no_out_of_memory() -> None:
    cls, _ = pasted("ERROR: CUDA OOMKILLER_DISABLED is unknown\n", {})
    assert cls is None or not cls.startswith("cuda-oom")


# Issue 14 round 28e: torch's out-of-memory on the other accelerators SGLang serves on
# (Ascend's torch_npu, ROCm, Intel's XPU) is worded as CUDA's, with the device's name.
@pytest.mark.parametrize("device", ["NPU", "HIP", "XPU"])
def test_out_of_memory_on_another_accelerator_is_out_of_memory(device: str) -> None:
    paste = (
        "[2026-02-02 10:00:00 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/py/sglang/srt/model_executor/model_runner.py", line 900, in load_model\n'
        "    self.model = get_model(model_config=self.model_config)\n"
        f"torch.OutOfMemoryError: {device} out of memory. Tried to allocate 512.00 MiB ({device} 1; 60.00 GiB total)\n"
    )
    cls, move = pasted(paste, {"mem-fraction-static": 0.9})
    assert cls is not None and cls.startswith("cuda-oom")
    assert move is not None and move.edits[0].target == "mem-fraction-static"
    assert float(str(move.edits[0].value)) < 0.9


def test_out_of_memory_on_another_accelerator_while_serving_is_read_as_serving() -> None:
    paste = (
        "[2026-02-02 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/py/sglang/srt/models/qwen3.py", line 300, in forward\n'
        "    hidden_states = self.mlp(hidden_states)\n"
        "RuntimeError: NPU out of memory. Tried to allocate 226.00 MiB (NPU 2; 60.96 GiB total capacity)\n"
    )
    assert pasted(paste, {})[0] == "cuda-oom-serving"
