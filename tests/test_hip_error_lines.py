"""Issue 14 round 42l, written before the change (in sample: round 11's sglang-24011, a root
miss since it was scored blind, read this round): ROCm's torch reports a device error as
"HIP error: ..." where CUDA's says "CUDA error: ...", the same failure line under another
runtime's name (here under the process group's watchdog line, which only reports it). It is
the failure, and its words classify it as CUDA's do (an event recorded in a capturing stream:
a graph capture that failed, cudaErrorCapturedEvent). The log lines are ours."""

from __future__ import annotations

from .proposing import pasted, subject_of

WATCHDOG_THEN_HIP = """\
during graph capture on MI300X:
```
Process group watchdog thread terminated with exception:
HIP error: operation not permitted on an event last recorded in a capturing stream
-> scheduler aborts (SIGABRT, exit code -6)
```
"""

HIP_IMA = """\
[2026-03-02 10:00:01 TP3] Scheduler hit an exception: HIP error: an illegal memory access was encountered
Compile with `TORCH_USE_HIP_DSA` to enable device-side assertions.
"""


def test_a_hip_error_line_is_the_failure_under_the_watchdog() -> None:
    assert "HIP error: operation not permitted on an event" in subject_of(WATCHDOG_THEN_HIP)


def test_an_event_recorded_in_the_capturing_stream_is_a_graph_capture_failure() -> None:
    """(CUDA's cudaErrorCapturedEvent, in the words both runtimes print.)"""
    cls, move = pasted(WATCHDOG_THEN_HIP, {"tp": "8"})
    assert cls == "cuda-graph-capture-failed"
    assert move is not None and move.label() == "set disable-cuda-graph=True"


def test_a_hip_illegal_memory_access_is_classified_as_cudas() -> None:
    cls, _ = pasted(HIP_IMA, {"tp": "8"})
    assert cls == "illegal-memory-access"
