"""Issue 14 round 30, written before the change.

A traceback cut before its exception line says where the process died, not why; the
newest line that process printed before it which states a failure is read instead. On a
multi-GPU server those lines carry the rank's prefix ("[... TP0]"); a single-GPU server
(tp 1) prints SGLang's prefix with no rank ("[2026-01-03 09:00:00] ..."), which is the
process's own line just as well, unlike a user's sentence, which carries no prefix.

These tests use their own logs."""

from __future__ import annotations

from .proposing import subject_of

CUT = (
    "[2026-01-03 09:00:01] TpModelWorkerClient hit an exception: Traceback (most recent call last):\n"
    '  File "/opt/sglang/python/sglang/srt/managers/tp_worker_overlap_thread.py", line 140, in forward_thread_func\n'
    "    self.forward_thread_func_()\n"
    '  File "/opt/sglang/python/sglang/srt/managers/tp_wo'
)


def test_the_line_a_single_gpu_server_printed_before_the_cut_is_read() -> None:
    text = (
        "Both models crash the server.\n```\n"
        "[2026-01-03 09:00:00] Prefill batch. #new-seq: 1, #new-token: 300, #cached-token: 0, #running-req: 0\n"
        "[2026-01-03 09:00:00] Number of audio tokens does not match the input text. Got 310 in the text but 90.\n"
        + CUT
    )
    assert "Number of audio tokens does not match" in subject_of(text)


def test_a_user_sentence_before_the_cut_is_not_the_processs_line() -> None:
    text = "My input text does not match what I expected at all.\n" + CUT
    assert "does not match what I expected" not in subject_of(text)


def test_a_logger_line_right_before_the_cut_is_the_processs_line() -> None:
    """Round 38j, written before the change (after round 44's sglang-1321 was scored): a
    logger's line of another library ("WARNING 05-02 10:00:00 ext.py:12] Failed to import
    ... with ImportError(...)"), pasted in a backtick, right before an import traceback cut
    before its exception, is what the process said before it died."""
    text = (
        "# [Bug] Error when starting the server.\n\n"
        "### Describe the bug\n\n"
        "`WARNING 05-02 10:00:00 _ext.py:12] Failed to import from fastlib._C with "
        "ImportError('/opt/lib/fastlib/_C.so: undefined symbol: _ZN3foo3barEv')\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.10/runpy.py", line 196, in _run_module_as_main\n'
        "    return _run_code(code, main_globals, None,\n"
        '  File "/opt/conda/lib/python3.10/site-packages/sglang/launch_server.py", line 6, in <module>\n'
        "    from sglang.srt.server import launch_server\n"
        '  File "/opt/conda/lib/python3.10/site-packages/sglang/srt/server.py", line 44,'
    )
    assert "undefined symbol: _ZN3foo3barEv" in subject_of(text)
