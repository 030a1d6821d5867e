"""Issue 14 round 30, written before the change.

Some launchers take a config override as ``-o key=value``; written that way for a flag
that takes one JSON object (``--json-model-override-args 'rope_scaling={"type": ...}'``),
the parser fails at the first character. What was meant is the object with that key:
``{"rope_scaling": {...}}``. The value after ``=`` is mended as any other (bare keys,
single quotes), and a key=value list without braces keeps its older reading.

These tests use their own values."""

from __future__ import annotations

import json

import pytest

from autofix.jsonargs import mend

from .proposing import proposed


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ('rope_scaling={"rope_type": "yarn", "factor": 2.0}', {"rope_scaling": {"rope_type": "yarn", "factor": 2.0}}),
        ("rope_scaling={'rope_type': 'linear', 'factor': 3}", {"rope_scaling": {"rope_type": "linear", "factor": 3}}),
        ('architectures=["Qwen3ForCausalLM"]', {"architectures": ["Qwen3ForCausalLM"]}),
        (
            "max_position_embeddings=65536,tie_word_embeddings=false",
            {"max_position_embeddings": 65536, "tie_word_embeddings": False},
        ),
    ],
)
def test_key_equals_json_is_the_object_with_that_key(written: str, meant: object) -> None:
    assert mend(written) == meant


def test_not_json_after_the_key_is_not_mended() -> None:
    assert mend("rope_scaling={unclosed") is None


def test_the_search_sets_the_flag_to_the_object() -> None:
    value = 'rope_scaling={"rope_type": "yarn", "factor": 2.0}'
    _, proposals = proposed(
        {"json-model-override-args": value, "context-length": "65536"},
        "json.decoder.JSONDecodeError",
        "Expecting value: line 1 column 1 (char 0)",
    )
    assert proposals
    first = proposals[0].move
    assert first.label().startswith("set json-model-override-args=")
    assert json.loads(str(first.edits[0].value)) == {"rope_scaling": {"rope_type": "yarn", "factor": 2.0}}
