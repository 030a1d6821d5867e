"""Issue 14 round 11, written before the change: a refusal that names no flag, no field and
no value the reader knows left the search with no move at all, and it stopped after the
base. An operator reads the words: the flags whose own words (or values) the message uses,
a CamelCase name split into its words and read by its initials too, go first, one at a
time. Only when nothing else is proposed: a last resort, never ahead of a reading. These
tests use their own messages."""

from __future__ import annotations

from autofix.model import Gate

from .proposing import FULL, proposed, proposed_labels


def labels(args: dict[str, object], message: str, exception: str = "RuntimeError") -> list[str]:
    return proposed_labels(args, exception, message)


def test_a_value_named_inside_a_camelcase_word() -> None:
    got = labels(
        {"disaggregation-mode": "prefill", "disaggregation-transfer-backend": "nixl", "tp-size": "2"},
        "NixlAgent could not start: UCX transport unavailable",
    )
    assert got and got[0] == "drop disaggregation-transfer-backend"


def test_the_flag_sharing_most_words_goes_first() -> None:
    got = labels(
        {"enable-hierarchical-cache": True, "hicache-storage-backend": "file", "tp-size": "2"},
        "HiCache storage prefetch thread exited unexpectedly",
    )
    assert got[:2] == ["drop hicache-storage-backend", "drop enable-hierarchical-cache"]


def test_a_camelcase_words_initials_name_a_flags_short_word() -> None:
    got = labels(
        {"enable-dp-lm-head": True, "tp-size": "4"}, "LM head sharding across DataParallel ranks: no such group"
    )
    assert got and got[0] == "drop enable-dp-lm-head"


def test_no_shared_word_no_move() -> None:
    assert labels({"tp-size": "2", "mem-fraction-static": "0.8"}, "the weather is bad today") == []


def test_never_ahead_of_a_reading() -> None:
    got = labels(
        {"hicache-storage-backend": "file", "page-size": "16"},
        "--page-size must be a multiple of 64 for the HiCache storage backend",
        exception="ValueError",
    )
    assert got and "hicache-storage-backend" not in got[0]


# Issue 14 round 26d, written before the change: at launch and after it, words alone never
# give up a primary choice (a parallel size, the speculative algorithm): a title that names
# "tp-4" as the setup ("tp-4 start timeout") is no reason to serve on one GPU.


def test_words_alone_give_up_no_primary_choice_once_the_server_runs() -> None:
    _, found = proposed(
        {"tp-size": "4", "mem-fraction-static": "0.98"},
        "error_line",
        "tp-4 start timeout",
        gate=Gate.START,
        catalog=FULL,
    )
    assert "drop tp-size" not in [p.move.label() for p in found]


def test_words_still_reach_a_flag_that_is_no_primary_choice_once_the_server_runs() -> None:
    _, found = proposed(
        {"enable-dp-lm-head": True, "tp-size": "4"},
        "error_line",
        "LM head sharding across DataParallel ranks: no such group",
        gate=Gate.START,
    )
    assert [p.move.label() for p in found][:1] == ["drop enable-dp-lm-head"]
