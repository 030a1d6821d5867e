"""Issue 14 round 47c, written before the change (in sample: 0.4.10.post2-twelfth's
yarn-override-extra-closing-brace, scored blind at round 47: the override was dropped, the
YaRN context lost).

A JSON value typed by hand with one closing brace too many (json: "Extra data") or too few
("Expecting ',' delimiter" at the end) is the object its brackets evidently meant: the
stray closer goes, the missing one is added. Brackets inside strings are text. The
messages are the shapes json gives; the values are ours."""

from __future__ import annotations

import pytest

from autofix.jsonargs import mend

from .test_json_args import first_value

MEANT = {"rope_scaling": {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 16384}}
TYPED = '{"rope_scaling": {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 16384}'


@pytest.mark.parametrize("typed", [TYPED + "}}", TYPED + "} }", TYPED, TYPED + "}]"])
def test_a_closing_bracket_too_many_or_too_few_is_mended(typed: str) -> None:
    assert mend(typed) == MEANT


def test_brackets_inside_strings_are_text() -> None:
    assert mend('{"stop": ["}", "]"], "n": [1, 2}') == {"stop": ["}", "]"], "n": [1, 2]}


def test_two_objects_side_by_side_are_not_one() -> None:
    assert mend('{"a": 1} {"b": 2}') is None


def test_the_search_sets_the_balanced_override() -> None:
    value = first_value(
        {"json-model-override-args": TYPED + "}}", "context-length": "65536"},
        "json.decoder.JSONDecodeError",
        "Extra data: line 1 column 99 (char 98)",
        "json-model-override-args",
    )
    assert value == MEANT
