"""Issue 14 round 42m, written before the change (in sample: 0.4.10.post2-third and -fourth,
switches given 'true' / 'false' by a config-to-argv converter, passed one switch per attempt:
four attempts for a one-move fix).

argparse leaves every such value over in one error ("unrecognized arguments: true true
true"): every switch written with a value is mended in one move (on: the bare switch; off:
dropped), before each alone. The flags are ours."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed

FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "zz-enable-a": {"kind": "bool"},
    "zz-enable-b": {"kind": "bool"},
    "zz-disable-c": {"kind": "bool"},
}
HOST = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")


def _labels(args: dict[str, object], left: str) -> list[str]:
    _, found = proposed(args, "SystemExit", f"launch_server.py: error: unrecognized arguments: {left}", catalog=HOST)
    return [p.move.label() for p in found]


def test_every_switch_written_with_a_value_is_mended_in_one_move() -> None:
    labels = _labels({"zz-enable-a": "true", "zz-enable-b": "True", "zz-disable-c": "false"}, "true True false")
    assert labels[0] == "set zz-enable-a=True; set zz-enable-b=True; drop zz-disable-c", labels


def test_one_switch_alone_is_one_move_as_before() -> None:
    assert _labels({"zz-enable-a": "false"}, "false")[0] == "drop zz-enable-a"
