"""Issue 14 round 34, written before the change: a C++ exception nothing caught.

``terminate called after throwing an instance of 'T'`` is the C++ runtime saying an exception
of type T escaped (its ``what():`` line follows); the ``Fatal Python error: Aborted`` below it
only reports the abort that followed. A paste often glues the terminate line onto the
progress bar it interrupted. The texts are ours; the shapes are those real pastes take."""

from __future__ import annotations

from .proposing import subject_of

_ABORT = "Fatal Python error: Aborted\n\nThread 0x00007f01 (most recent call first):\n"


def test_the_escaped_exception_is_the_failure_not_the_abort() -> None:
    text = (
        "[2026-01-02 10:00:01 TP0] Load weight end. avail mem=20.1 GB\n"
        "Capturing batches (bs=256 avail_mem=19.8 GB):   0%|          | 0/36 [00:00<?, ?it/s]"
        "terminate called after throwing an instance of 'toylib::binding_error'\n"
        "  what():  Expected a toy object (got [<toy.Result object at 0x7f0>]).\n" + _ABORT
    )
    assert "toylib::binding_error" in subject_of(text)


def test_a_cuda_error_in_what_still_says_more() -> None:
    """The what() line that states a CUDA error names the failure better than the type."""
    text = (
        "terminate called after throwing an instance of 'ToyException'\n"
        "  what():  Failed: CUDA error /build/toy/kernel.cpp:12 'an illegal memory access was encountered'\n" + _ABORT
    )
    assert "illegal memory access" in subject_of(text)


def test_an_exception_with_a_traceback_still_wins() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/sglang/srt/toy.py", line 3, in f\n'
        "    g()\n"
        "ValueError: toy value refused\n"
        "terminate called after throwing an instance of 'ToyException'\n"
        "  what():  gone\n" + _ABORT
    )
    assert subject_of(text).startswith("ValueError: toy value refused")
