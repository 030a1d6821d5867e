"""Issue 14 round 28g, written before the change: a flag name wrapped across a line of a
pasted command (``--node-r`` at a line's end, ``ank 0`` on the next) reaches argv as a
prefix and a word that, written together, are one flag of the parser. The base takes it
as the user wrote it (no value type refused at load: the word is the name's rest, not the
value), and the rename joins the name and keeps the value after it.

These tests use their own commands."""

from __future__ import annotations

from autofix.config import parse_base

from .proposing import renamed


def test_a_name_wrapped_inside_a_word_joins_and_keeps_its_value() -> None:
    child = renamed({"nnodes": "2", "node-r": ["ank", "1"], "tp-size": "16"})
    assert child.arg("node-rank") == "1" and not child.has("node-r")


def test_a_name_wrapped_at_a_dash_joins_into_a_switch() -> None:
    child = renamed({"enable-dp-": "attention", "dp-size": "2"})
    assert child.arg("enable-dp-attention") is True or child.arg("enable-dp-attention") == "true"
    assert not child.has("enable-dp-")


def test_a_prefix_with_a_value_is_still_a_prefix() -> None:
    child = renamed({"mem-frac": "0.8"})
    assert child.arg("mem-fraction-static") == "0.8"


def test_a_base_with_a_wrapped_name_loads() -> None:
    text = "launch:\n  args:\n    model-path: /m\n    nnodes: 2\n    node-r: [ank, '0']\n"
    config = parse_base(text, source="w.yaml", default_name="w")
    assert config.base.arg("node-r") == ("ank", "0")
