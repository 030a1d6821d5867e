"""Issue 14 round 13, written before the change: a check that refuses a value the user never
set, one SGLang resolved for them (an 'auto' strategy turned into a concrete one), names
that value and no flag. The probe now reports the values the resolution had changed when a
check refused the record, and the repair sets that flag explicitly to another of its
choices (not back to the automatic one that chose the refused value). These tests use
their own messages."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.probes.preflight import _resolved_before_refusal

from .proposing import proposed

CATALOG = load_catalog()


def labels(resolved: dict[str, object], message: str) -> list[str]:
    _, found = proposed({"tp-size": "2"}, "ValueError", message, catalog=CATALOG, resolved=resolved)
    return [p.move.label() for p in found]


def test_a_refused_value_sglang_chose_is_replaced_by_another_choice() -> None:
    got = labels(
        {"mamba_radix_cache_strategy": "extra_buffer_lazy"},
        "extra_buffer_lazy cannot snapshot state on this platform",
    )
    assert got and got[0].startswith("set mamba-radix-cache-strategy="), got
    assert got[0] not in ("set mamba-radix-cache-strategy=extra_buffer_lazy", "set mamba-radix-cache-strategy=auto")


def test_a_value_the_message_does_not_name_gives_no_such_move() -> None:
    got = labels({"sampling_backend": "flashinfer"}, "tp_size must be divisible by the number of nodes")
    assert not any(label.startswith("set sampling-backend=") for label in got)


class _Record:
    def __init__(self) -> None:
        self.tp_size = 2
        self.mamba_radix_cache_strategy = "auto"
        self.random_seed = 1


def test_the_probe_reports_what_resolution_changed_before_the_refusal() -> None:
    record = _Record()
    names = ["tp_size", "mamba_radix_cache_strategy", "random_seed"]
    held = {
        "record": record,
        "names": names,
        "raw": {"tp_size": 2, "mamba_radix_cache_strategy": "auto", "random_seed": 1},
    }
    record.mamba_radix_cache_strategy = "extra_buffer"  # what a resolution step chose
    record.random_seed = 7  # noise: a seed drawn at resolution
    assert _resolved_before_refusal(held, ["tp_size"]) == {"mamba_radix_cache_strategy": "extra_buffer"}
    assert _resolved_before_refusal({}, []) == {}  # parsing itself failed: nothing resolved
