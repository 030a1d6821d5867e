"""Issue 14 round 23, written before the change (found on the in-sample crossover set):
argparse's "unrecognized arguments" names what it could not place.

- A flag spelled with underscores or capitals that no reading maps to a known flag is still
  the user's flag: with nothing better it is dropped (before: no move at all).
- A word left over after a flag that takes one value, when the user gave that flag several
  (vLLM's --served-model-name takes many, SGLang's one), is the flag's extra values: the
  flag keeps its first.

These tests use their own flags and values."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed

BARE = load_catalog().without_classes()


def test_an_unknown_flag_with_underscores_is_dropped_when_nothing_maps_it() -> None:
    _, found = proposed(
        {"zq_batch_window": "64", "tp-size": "2"},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: --zq_batch_window 64",
        catalog=BARE,
    )
    assert found and not found[0].child.has("zq_batch_window"), [p.move.label() for p in found]


def test_extra_values_of_a_one_value_flag_are_left_out() -> None:
    _, found = proposed(
        {"served-model-name": ["alpha-8b", "org/Alpha-8B"], "tp-size": "2"},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: org/Alpha-8B",
        catalog=BARE,
    )
    assert found and found[0].child.arg("served-model-name") == "alpha-8b", [p.move.label() for p in found]
