"""Issue 14 round 30, written before the change.

Triton reports a kernel that does not compile as ``CompilationError: at L:C:`` and prints
the cause on the lines after it: the kernel's source line, a caret under the column, then
the error itself (``ValueError("type ... not supported in this architecture")``). Users
paste it with the traceback above it or without (an issue's "Observed behavior" section).
Either way the failure is the error under the caret, not ``at 1:0:``.

These tests use their own kernel names and messages."""

from __future__ import annotations

from .proposing import subject_of

COMPILE_ERROR = (
    "triton.compiler.errors.CompilationError: at 1:0:\n"
    "def grouped_scale_kernel(\n"
    "^\n"
    "ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e5',)\")\n"
)


def test_a_pasted_compile_error_without_frames_is_read_to_its_cause() -> None:
    text = "### Failure 1: the kernel does not compile\n\n" + COMPILE_ERROR + "\n### Failure 2: later\n"
    subject = subject_of(text)
    assert subject.startswith("triton.compiler.errors.CompilationError")
    assert "fp8e4nv not supported in this architecture" in subject


def test_a_compile_error_under_its_traceback_is_read_to_its_cause() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/layers/moe/grouped.py", line 40, in run\n'
        "    grouped_scale_kernel[grid](x, w)\n" + COMPILE_ERROR
    )
    assert "fp8e4nv not supported in this architecture" in subject_of(text)


def test_prose_after_an_ordinary_orphan_exception_is_not_glued_to_it() -> None:
    text = "RuntimeError: the pool is full:\nWe tried a smaller batch and it worked.\n"
    assert "We tried" not in subject_of(text)
