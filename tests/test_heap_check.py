"""Issue 14 round 41, written before the change: glibc's allocator refusing a corrupt heap.

When a native library frees a pointer it does not own or writes past a buffer, glibc's
allocator checks stop the process with one line naming the check ("free(): invalid pointer",
"double free or corruption (!prev)", "corrupted size vs. prev_size") and abort; faulthandler's
``Fatal Python error: Aborted`` below it only reports that abort. The texts are ours; the
shapes are those real pastes take (a fence with the check line, the abort, C++ frames)."""

from __future__ import annotations

import pytest

from .proposing import subject_of

_ABORT = "Fatal Python error: Aborted\n\nThread 0x00007f01 (most recent call first):\n"


@pytest.mark.parametrize(
    "check",
    [
        "munmap_chunk(): invalid pointer",
        "free(): invalid pointer",
        "free(): invalid next size (fast)",
        "double free or corruption (!prev)",
        "double free or corruption (out)",
        "corrupted size vs. prev_size",
        "malloc(): corrupted top size",
        "malloc_consolidate(): invalid chunk size",
        "corrupted double-linked list",
    ],
)
def test_the_heap_check_is_the_failure_not_the_abort(check: str) -> None:
    text = (
        "[2026-03-04 10:00:01 TP0] Prefill batch. #new-seq: 1, #new-token: 12\n"
        f"{check}\n" + _ABORT + "toy::Pool::release(unsigned long)\ntoy::Pool::insert(int const*, unsigned long)\n"
    )
    assert check in subject_of(text)


def test_a_sentence_about_free_memory_is_not_a_heap_check() -> None:
    """Prose that mentions free() or corruption in passing names no failure of its own."""
    text = "we call free() on the buffer after use; data corruption was not seen\n" + _ABORT
    assert "Aborted" in subject_of(text)


def test_a_python_traceback_before_it_still_wins() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/sglang/srt/toy.py", line 3, in f\n'
        "    g()\n"
        "ValueError: toy value refused\n"
        "free(): invalid pointer\n" + _ABORT
    )
    assert subject_of(text).startswith("ValueError: toy value refused")


def test_a_heap_check_is_a_native_crash() -> None:
    """Its class is the native crash's: what compiles or captures kernels goes first."""
    from autofix.classify import classify
    from autofix.model import Gate
    from autofix.tracebacks import parse_text

    from .proposing import FULL

    text = "free(): invalid pointer\n" + _ABORT
    assert classify(parse_text(text), FULL, Gate.START).failure.class_id == "segfault"
