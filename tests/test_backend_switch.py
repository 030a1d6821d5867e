"""Issue 14 round 12, written before the change: a server that crashed at run time in a
backend the user chose, where the failure names that choice ("... in the flashinfer_trtllm
MoE kernel"), is relaunched with another implementation of the same feature (a sibling
choice of that flag: same family prefix, not a variant of the one that crashed), then the
default; after what a matched class knows, before what is read off the text alone. At preflight a check refuses the
combination instead: the named value is still dropped first. These tests use their own
messages."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.model import Gate

from .proposing import proposed

CATALOG = load_catalog()


def labels(args: dict[str, object], message: str, gate: Gate, exception: str = "RuntimeError") -> list[str]:
    _, found = proposed(args, exception, message, gate=gate, catalog=CATALOG)
    return [p.move.label() for p in found]


def test_a_crash_in_the_chosen_backend_tries_its_siblings_first() -> None:
    got = labels(
        {"moe-runner-backend": "flashinfer_trtllm", "tp-size": "8"},
        "CUDA error: an illegal memory access was encountered in the flashinfer_trtllm fused MoE kernel",
        Gate.START,
    )
    assert got and got[0].startswith("set moe-runner-backend=flashinfer_"), got
    assert not got[0].startswith("set moe-runner-backend=flashinfer_trtllm")  # nor a variant of it
    assert "drop moe-runner-backend" in got


def test_a_chosen_value_without_siblings_goes_back_to_the_default() -> None:
    got = labels(
        {"grammar-backend": "llguidance"}, "segfault inside llguidance while compiling the grammar", Gate.SMOKE
    )
    assert got and got[0] == "drop grammar-backend", got


def test_at_preflight_the_named_value_is_still_dropped_first() -> None:
    got = labels(
        {"moe-runner-backend": "flashinfer_trtllm", "tp-size": "8"},
        "flashinfer_trtllm is not supported with --tp-size 8 on this platform",
        Gate.PREFLIGHT,
        exception="ValueError",
    )
    assert got and not got[0].startswith("set moe-runner-backend=flashinfer_"), got
