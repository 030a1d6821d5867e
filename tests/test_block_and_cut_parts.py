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
