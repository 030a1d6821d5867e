"""Issue 14 round 39, written before the change (0.5.11's sets, in sample, carry it).

"Elastic EP rejoin requires elastic_ep_backend to be set." names the field that is missing
by its snake_case name: the flag is asked for (set to a value it takes), as "--x must be set"
already is, never dropped (it is not set: the message says so). The wording is SGLang
0.5.11's shape; the flag and its choices are ours."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.repair import offline_moves
from autofix.tracebacks import parse_text

from .proposing import proposed

FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "rejoin-toy": {"kind": "bool", "default": False},
    "toy-ep-backend": {"kind": "value", "type": "str", "choices": ["mooncake", "nixl"]},
}
HOST = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")
MESSAGE = "Toy EP rejoin requires toy_ep_backend to be set."


def test_a_field_required_to_be_set_is_set() -> None:
    _, found = proposed({"rejoin-toy": True}, "AssertionError", MESSAGE, catalog=HOST)
    assert found and found[0].move.label() == "set toy-ep-backend=mooncake", [p.move.label() for p in found]


def test_offline_it_is_set_not_dropped() -> None:
    moves = offline_moves(classify(parse_text(f"AssertionError: {MESSAGE}"), HOST, Gate.PREFLIGHT), HOST)
    assert moves and moves[0].label() == "set toy-ep-backend=mooncake", [m.label() for m in moves]
