"""Issue 14 round 36k, written before the change: a range stated as "must be in (0, 1]" (no
"range" word) is read as one: a percentage given for a fraction becomes the fraction (50 ->
0.5). The engine read only "in range ...", "between ..." and "within ..." and dropped the
flag. The message is ours, in the shape SGLang 0.5.23's HiCache check takes."""

from __future__ import annotations

from .proposing import proposed_labels


def test_in_a_bracketed_interval_is_a_range() -> None:
    labels = proposed_labels(
        {"enable-hierarchical-cache": True, "hicache-host-memory-fraction": 50},
        "ValueError",
        "--hicache-host-memory-fraction must be in (0, 1].",
    )
    assert labels[0] == "set hicache-host-memory-fraction=0.5"


def test_in_without_an_interval_is_no_range() -> None:
    labels = proposed_labels(
        {"enable-hierarchical-cache": True, "hicache-host-memory-fraction": 50},
        "ValueError",
        "--hicache-host-memory-fraction must be in the toy unit.",
    )
    assert "set hicache-host-memory-fraction=0.5" not in labels
