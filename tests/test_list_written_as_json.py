"""Issue 14 round 48i, written before the change: a list flag given its members as one JSON
(or Python) list, pasted from a config file ('["q_proj","k_proj"]', "['gate', 'up']"), is
refused by argparse as one choice; the members, when each is a choice, are the value (not
the nearest one choice). Our own flags; the shape is the 0.5.23 thirty-sixth set's (PEFT's
target_modules pasted into --lora-target-modules)."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog

from .proposing import proposed

OWN_FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "adapt-modules": {"kind": "list", "type": "str", "choices": ["q_proj", "k_proj", "v_proj", "o_proj", "all"]},
}
HOST = load_catalog().without_classes().with_parser({"flags": OWN_FLAGS}, "9.9.9")


@pytest.mark.parametrize(
    "given",
    ['["q_proj","k_proj","v_proj"]', "['q_proj', 'k_proj', 'v_proj']", "[q_proj, k_proj, v_proj]"],
)
def test_a_list_written_as_one_json_list_is_its_members(given: str) -> None:
    said = (
        f"sglang: error: argument --adapt-modules: invalid choice: {given!r} "
        "(choose from 'q_proj', 'k_proj', 'v_proj', 'o_proj', 'all')"
    )
    _, found = proposed({"adapt-modules": given}, "argparse_error", said, catalog=HOST)
    assert found and found[0].move.label() == "set adapt-modules=q_proj k_proj v_proj"
