"""Issue 14 round 25, written before the change: an issue's title says what the user saw
even in words that hold no failure term ("X is not installed", "A not work with B"). When
the paste under it states less (a traceback cut before its exception, a line that only
announces one, template headings), the title is the subject, not "the process failed and
left no traceback" or the announcing line. A line the program logged that states any
failure still comes first. These tests use their own pastes."""

from __future__ import annotations

from .proposing import subject_of

_TEMPLATE = (
    "### Checklist\n- [x] 1. I have searched related issues but cannot get the expected help.\n### Describe the bug\n"
)


def test_a_cut_traceback_under_an_announcement_gives_way_to_a_title_without_failure_words() -> None:
    paste = (
        "# [Bug] deep_gemm 2.1 is required for the block-FP8 path\n"
        "\n"
        "[turn 1 by someone]\n"
        "[2026-04-02 10:11:12 TP1] Memory pool end. avail mem=3.10 GB\n"
        "[2026-04-02 10:11:13 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/managers/scheduler.py", line 2100, in run_scheduler_process\n'
        "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_ra\n"
    )
    assert "deep_gemm 2.1 is required for the block-FP8 path" in subject_of(paste)


def test_frames_alone_give_way_to_the_title() -> None:
    paste = (
        "# [Bug] GPTQ kernels not work together with piecewise graphs\n" + _TEMPLATE + "```\n"
        '  File "/usr/lib/python3/site-packages/torch/nn/modules/module.py", line 1700, in _call_impl\n'
        "    return forward_call(*args, **kwargs)\n"
        '  File "/opt/sglang/srt/layers/quantization/gptq.py", line 410, in apply\n'
        "    out = ops.gptq_gemm(x, layer.qweight,\n"
        '  File "/usr/lib/python3/site-pack\n'
    )
    assert "GPTQ kernels not work together with piecewise graphs" in subject_of(paste)


def test_a_logged_line_with_a_weak_failure_word_beats_a_title_without_any() -> None:
    paste = (
        "# [Bug] prefix hits are slower than a cold prefill with the host cache\n"
        "[2026-04-03 01:00:00 TP0] Allocating 64.00 GB host memory for hierarchical KV cache.\n"
        "[2026-04-03 01:01:00 TP0] Unsupported page stride = 1312 for the host copy kernel\n"
        "[2026-04-03 01:01:00 TP1] Unsupported page stride = 1312 for the host copy kernel\n"
    )
    assert "Unsupported page stride = 1312" in subject_of(paste)


def test_without_a_title_the_announcement_is_still_the_subject() -> None:
    paste = (
        "[2026-04-02 10:11:13 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/managers/scheduler.py", line 2100, in run_scheduler_process\n'
        "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_ra\n"
    )
    assert "Scheduler hit an exception" in subject_of(paste)


def test_a_template_heading_is_no_title() -> None:
    paste = (
        _TEMPLATE + "```\n"
        '  File "/opt/sglang/srt/layers/quantization/gptq.py", line 410, in apply\n'
        "    out = ops.gptq_gemm(x, layer.qweight,\n"
    )
    assert "Describe the bug" not in subject_of(paste) and "Checklist" not in subject_of(paste)
