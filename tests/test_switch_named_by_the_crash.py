"""Issue 14 round 42h, written before the change (in sample: round 56's sglang-25491, read
after its blind scoring: "decode crashes with --enable-single-batch-overlap in DeepGEMM",
above a traceback cut inside DeepGEMM's frames; the thread's fix was to drop that switch, the
engine's first move turned DeepGEMM's JIT off, read from the frames).

At run time, a failure line that names, as --flag, a switch the user turned on names the
suspect: the switch is dropped first, before the moves for the components where the process
died. A switch written out that the user did not set is no suspect. The log is ours."""

from __future__ import annotations

from .proposing import pasted

CUT_IN_DEEPGEMM = """\
# decode crashes with --enable-two-batch-overlap in DeepGEMM

The decode process dies once requests arrive:

```text
Traceback (most recent call last):
  ...
  File "/sgl-workspace/sglang/python/sglang/srt/layers/moe/moe_runner/deep_gemm.py", line 398, in run
    out = deep_gemm_wrapper.grouped_gemm_nt_f8f8bf16_masked(...)
  File "/sgl-workspace/sglang/python/sglang/srt/layers/deep_gemm_wrapper/entrypoint.py", line 77, in grouped_gemm
```
"""


def test_a_switch_the_user_set_that_the_crash_names_is_dropped_first() -> None:
    _, move = pasted(CUT_IN_DEEPGEMM, {"enable-two-batch-overlap": True, "tp-size": "8"})
    assert move is not None and move.label() == "drop enable-two-batch-overlap", move


def test_a_switch_named_but_not_set_is_no_suspect() -> None:
    _, move = pasted(CUT_IN_DEEPGEMM, {"tp-size": "8"})
    assert move is None or move.label() != "drop enable-two-batch-overlap", move
