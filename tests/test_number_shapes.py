"""Issue 14 round 17, written before the change: a number the parser refused for how it
is written, read as the operator meant it: a size given with the unit the flag's own name
already carries is that many of the unit ('50MB' to a -mb flag is 50, '2GB' to a -gb flag
is 2, '512MB' to a -gb flag is 0.5); a percentage given to a ratio or fraction is that
fraction ('90%' is 0.9); a fraction given to an int flag is the whole number at or below
it ('8.5' is 8). These tests use their own values."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed

BARE = load_catalog().without_classes()


def first(args: dict[str, object], flag: str, kind: str, value: str) -> str:
    message = f"argument --{flag}: invalid {kind} value: '{value}'"
    _, found = proposed(args, "SystemExit", message, catalog=BARE)
    return found[0].move.label() if found else "-"


def test_the_unit_in_the_flag_name() -> None:
    assert first({"mm-preprocess-cache-size-mb": "256MB"}, "mm-preprocess-cache-size-mb", "int", "256MB") == (
        "set mm-preprocess-cache-size-mb=256"
    )
    assert first({"cpu-offload-gb": "4GiB"}, "cpu-offload-gb", "int", "4GiB") == "set cpu-offload-gb=4"


def test_a_percentage_for_a_ratio() -> None:
    assert first({"hicache-ratio": "150%"}, "hicache-ratio", "float", "150%") == "set hicache-ratio=1.5"
    assert (
        first({"mem-fraction-static": "85%"}, "mem-fraction-static", "float", "85%") == "set mem-fraction-static=0.85"
    )


def test_a_fraction_for_an_int_flag() -> None:
    assert first({"max-running-requests": "12.5"}, "max-running-requests", "int", "12.5") == (
        "set max-running-requests=12"
    )


def test_a_plain_size_still_means_its_unit_elsewhere() -> None:
    # a chunk of tokens written with k is sized as tokens are, in powers of two (round 39,
    # test_token_sizes); a count of requests written with k stays decimal
    assert first({"chunked-prefill-size": "4k"}, "chunked-prefill-size", "int", "4k") == "set chunked-prefill-size=4096"
    assert first({"max-queued-requests": "4k"}, "max-queued-requests", "int", "4k") == "set max-queued-requests=4000"
