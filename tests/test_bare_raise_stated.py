"""Issue 14 round 44e, written before the change (round 60's allocator thread, in our
words): an exception raised with no message ("NotImplementedError" alone on its line) is
stated by the raise statement its failing frame shows, as a bare assert is by its assert:
"raise NotImplementedError()" in a method the allocator does not implement is what the
operator reads. A raise that says something keeps its words."""

from __future__ import annotations

from .proposing import subject_of

BARE = (
    "[2026-01-02 03:42:15 DP1 TP4] Scheduler hit an exception: Traceback (most recent call last):\n"
    '  File "/srv/sglang/python/sglang/srt/managers/scheduler.py", line 2093, in update_running_batch\n'
    "    old = self.toy_allocator.available_size()\n"
    '  File "/srv/sglang/python/sglang/srt/mem_cache/toy_allocator.py", line 215, in available_size\n'
    "    raise NotImplementedError()\n"
    "NotImplementedError\n"
)


def test_a_bare_raise_is_stated_by_its_statement() -> None:
    assert "raise NotImplementedError()" in subject_of(BARE)


def test_a_raise_with_a_message_keeps_its_words() -> None:
    said = BARE.replace("NotImplementedError\n", "NotImplementedError: toy pools have no size\n")
    subject = subject_of(said)
    assert "toy pools have no size" in subject and "raise " not in subject
