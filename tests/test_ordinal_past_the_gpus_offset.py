"""Issue 14 round 42g, written before the change (in sample: round 54's slime-1326, read
after its blind scoring: --base-gpu-id 6 with TP 2 where the launcher had narrowed
CUDA_VISIBLE_DEVICES to the two GPUs of the job, "CUDA error: invalid device ordinal"; the
engine proposed nothing for a user who set no CUDA_VISIBLE_DEVICES and no DP).

A rank's GPU is --base-gpu-id plus its index: an ordinal past the visible GPUs with an
offset set has the offset as its first suspect; back to GPU 0, before the environment or the
DP groups are changed. The log is ours."""

from __future__ import annotations

from .proposing import pasted

ORDINAL = """\
[2026-05-02 10:00:01 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/lib/python3/dist-packages/sglang/srt/managers/scheduler.py", line 2400, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)
  File "/usr/lib/python3/dist-packages/torch/cuda/__init__.py", line 560, in set_device
    torch._C._cuda_setDevice(device)
torch.AcceleratorError: CUDA error: invalid device ordinal
"""


def test_the_offset_goes_back_to_the_first_gpu_first() -> None:
    cls, move = pasted(ORDINAL, {"base-gpu-id": "6", "tp-size": "2"})
    assert cls == "gpu-ordinal-out-of-range"
    assert move is not None and move.label() == "drop base-gpu-id"


def test_without_an_offset_the_dp_groups_go_as_before() -> None:
    cls, move = pasted(ORDINAL, {"tp-size": "2", "dp-size": "4"})
    assert cls == "gpu-ordinal-out-of-range"
    assert move is not None and move.label() == "drop dp-size"
