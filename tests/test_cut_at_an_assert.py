"""Issue 14 round 45c, written before the change (round 64's NVFP4 load failure, in our
words): a traceback pasted up to a frame whose line is an ``assert`` statement, cut before
its exception line, failed that assert: the statement is what killed the process, not a
warning its rank printed before the traceback ("Parameter ... not found in params_dict").
A cut traceback whose last line is no assert still reads the failure line before it."""

from __future__ import annotations

from .proposing import subject_of

WARNING = "[2026-03-01 09:00:00] Parameter blocks.3.mixer.in_proj.input_scale not found in params_dict"
HEAD = (
    "[2026-03-01 09:00:00] Scheduler hit an exception: Traceback (most recent call last):\n"
    '  File "/opt/sglang/python/sglang/srt/models/toy_hybrid.py", line 812, in load_weights\n'
    "    loader(param, tensor)\n"
    '  File "/opt/sglang/python/sglang/srt/layers/toy_linear.py", line 207, in loader\n'
)


def test_a_paste_cut_after_an_assert_failed_that_assert() -> None:
    text = f"The load fails with:\n\n{WARNING}\n{HEAD}    assert param.shape == tensor.shape\n"
    assert subject_of(text) == "AssertionError: assert param.shape == tensor.shape"


def test_a_paste_cut_after_a_call_reads_the_line_before() -> None:
    text = f"The load fails with:\n\n{WARNING}\n{HEAD}    param.copy_(tensor)\n"
    assert subject_of(text) == f"error_line: {WARNING.split('] ', 1)[1]}"
