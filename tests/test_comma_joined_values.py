"""Issue 14 round 48e, written before the change: several words given to a flag that takes
one value whose help writes its value as names joined by commas ("a,b", "comma-separated")
are that one value with commas: the words the parser could not place join the first. A flag
whose help says nothing of commas keeps its first word (vLLM's several served names). The
flags and help texts are our own, given as a host parser's facts; the shape is the 0.5.23
thirty-sixth set's (--trace-modules request mooncake)."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog

from .proposing import proposed

OWN_FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "trace-parts": {"kind": "value", "type": "str", "help": "Parts to trace, written part1,part2,..."},
    "probe-kinds": {"kind": "value", "type": "str", "help": "A comma-separated list of probes to run."},
    "display-name": {"kind": "value", "type": "str", "help": "The name shown to clients."},
}
HOST = load_catalog().without_classes().with_parser({"flags": OWN_FLAGS}, "9.9.9")


@pytest.mark.parametrize(
    ("flag", "words", "joined"),
    [
        ("trace-parts", ("request", "transfer"), "request,transfer"),
        ("probe-kinds", ("disk", "net", "gpu"), "disk,net,gpu"),
    ],
)
def test_words_of_a_comma_joined_value_are_joined(flag: str, words: tuple[str, ...], joined: str) -> None:
    left = " ".join(words[1:])
    _, found = proposed({flag: words}, "argparse_error", f"sglang: error: unrecognized arguments: {left}", catalog=HOST)
    assert found and found[0].move.label() == f"set {flag}={joined}"


def test_a_value_with_no_comma_form_keeps_its_first_word() -> None:
    _, found = proposed(
        {"display-name": ("alpha", "beta")},
        "argparse_error",
        "sglang: error: unrecognized arguments: beta",
        catalog=HOST,
    )
    assert found and found[0].move.label() == "set display-name=alpha"
