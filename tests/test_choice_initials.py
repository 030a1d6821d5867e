"""Issue 14 round 29f, written before the change (the seventeenth fresh set's misses, read
after it was scored blind).

A choice the parser spells as the initials of the words the user wrote out ('slru' for
'segmented-lru', 'lru' for 'least recently used'): the words' first letters, or those of
all words but the last, which is kept whole. It is what the user meant, before any choice
that is only similar in letters.

These tests use their own values where they can."""

from __future__ import annotations

import pytest

from autofix.choices import closest_choices


@pytest.mark.parametrize(
    ("given", "choices", "meant"),
    [
        ("segmented-lru", ["lru", "lfu", "slru", "priority", "tlru"], "slru"),
        ("least_recently_used", ["lfu", "lru", "fifo"], "lru"),
        ("Time LRU", ["slru", "tlru", "lru"], "tlru"),
        ("first-come-first-serve", ["lpm", "random", "fcfs", "lof"], "fcfs"),
    ],
)
def test_the_initials_of_the_words_written_out(given: str, choices: list[str], meant: str) -> None:
    assert closest_choices(given, choices)[0] == meant


def test_one_word_has_no_initials() -> None:
    assert closest_choices("lru", ["lfu", "lru"])[0] == "lru"
