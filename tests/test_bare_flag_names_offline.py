"""Issue 14 round 38d, written before the change.

Some checks name flags without their dashes: "The arguments enable-hierarchical-cache and
disable-radix-cache are mutually exclusive", "The argument disaggregation-decode-enable-
offload-kvcache is only supported when hicache-storage-backend is provided". Offline (a
pasted error, no argv) those are the flags the user set, as --x would be: the switches
that exclude each other are both on, and the disable-switch goes first, as the search
would do. A word that merely looks like a flag (a hyphenated English word) is no flag.
The wordings are SGLang 0.5.11's shape."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.repair import exclusive_switches, offline_moves
from autofix.tracebacks import parse_text

CATALOG = load_catalog()


def _offline(text: str) -> list[str]:
    return [m.label() for m in offline_moves(classify(parse_text(text), CATALOG, Gate.PREFLIGHT), CATALOG)]


def test_switches_named_without_dashes_are_read_as_flags() -> None:
    message = (
        "The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive and cannot be "
        "used at the same time. Please use only one of them."
    )
    assert exclusive_switches(message, CATALOG) == ["enable-hierarchical-cache", "disable-radix-cache"]
    assert _offline(f"ValueError: {message}")[:1] == ["drop disable-radix-cache"]


def test_a_hyphenated_word_is_no_flag() -> None:
    assert exclusive_switches("The two-batch and long-context modes are mutually exclusive", CATALOG) == []
