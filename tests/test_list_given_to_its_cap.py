"""Issue 14 round 42i, written before the change (blind at this round: 0.4.10.post2-seventh's
cuda-graph-max-bs-given-a-list, scored at 2e806f9, passed as `--cuda-graph-max-bs 1`).

Several values given to a flag that takes one, where the parser has a flag of the same
name without one of its words that takes a list (`--zz-max-bs 1 2 4 8` beside `--zz-bs`):
the user meant the list flag, the values carried. Keeping the first value (the cap at 1)
comes after it. The flag names are ours."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed

FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "zz-max-bs": {"kind": "value", "type": "int"},
    "zz-bs": {"kind": "list", "type": "int"},
    "zz-label": {"kind": "value", "type": "str"},
}
HOST = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")


def _labels(args: dict[str, object], left: str) -> list[str]:
    _, found = proposed(args, "SystemExit", f"launch_server.py: error: unrecognized arguments: {left}", catalog=HOST)
    return [p.move.label() for p in found]


def test_the_values_go_to_the_list_flag_of_the_same_name() -> None:
    labels = _labels({"zz-max-bs": ["1", "2", "4", "8"]}, "2 4 8")
    assert labels[0] == "rename zz-max-bs to zz-bs", labels
    assert "set zz-max-bs=1" in labels


def test_a_flag_with_no_list_sibling_keeps_its_first_value() -> None:
    labels = _labels({"zz-label": ["a", "b"]}, "b")
    assert labels[0] == "set zz-label=a", labels
