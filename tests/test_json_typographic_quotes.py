"""Issue 14 round 43, written before the change (sglang-0.4.10.post2-eighth's
wiki-em-dash-flag-then-curly-quoted-json, scored blind at 30c84cd: passed with keys that held
the curly quotes, intent lost).

A JSON value copied from a wiki or a word processor has typographic quotes (“rope_scaling”,
‘yarn’) where JSON has straight ones. The value meant is the JSON once they are straight; the
mend kept them inside the keys. The message is the shape json gives; the values are ours."""

from __future__ import annotations

from autofix.jsonargs import mend

from .test_json_args import first_value

CURLY = "{“rope_scaling”: {“rope_type”: “yarn”, “factor”: 4.0}}"


def test_typographic_quotes_are_straightened_before_the_value_is_read() -> None:
    assert mend(CURLY) == {"rope_scaling": {"rope_type": "yarn", "factor": 4.0}}
    assert mend("{‘a’: ‘b’}") == {"a": "b"}


def test_a_curly_quote_inside_a_json_string_is_kept() -> None:
    assert mend('{"say": "“quoted” words"}') is None


def test_the_search_sets_the_straightened_override() -> None:
    value = first_value(
        {"json-model-override-args": CURLY, "context-length": "131072"},
        "json.decoder.JSONDecodeError",
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "json-model-override-args",
    )
    assert value == {"rope_scaling": {"rope_type": "yarn", "factor": 4.0}}
