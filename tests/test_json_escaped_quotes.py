"""Issue 14 round 42b, written before the change (in sample: 0.4.10.post2-fourth's
json-override-backslash-escaped-quotes, scored blind at round 38, passed with keys that held
the backslashes: intent lost).

A JSON value escaped once more than the shell undoes (`{\\"rope_scaling\\": ...}`, copied from
a JSON string or a YAML double-quoted scalar) reaches SGLang with its backslashes. The value
meant is the JSON once the escapes go; the mend read it as a YAML flow mapping and kept
`\\"rope_scaling\\"` as the key. The message is the shape json gives; the values are ours."""

from __future__ import annotations

from autofix.jsonargs import mend

from .test_json_args import first_value

ESCAPED = '{\\"rope_scaling\\": {\\"rope_type\\": \\"yarn\\", \\"factor\\": 4.0}}'


def test_the_escapes_go_before_the_value_is_read() -> None:
    assert mend(ESCAPED) == {"rope_scaling": {"rope_type": "yarn", "factor": 4.0}}


def test_escaped_quotes_inside_a_python_dict_too() -> None:
    assert mend("{\\'a\\': 1}") == {"a": 1}


def test_a_string_value_that_holds_an_escaped_quote_is_kept() -> None:
    assert mend('{"say": "a \\"b\\" c"}') is None


def test_the_search_sets_the_unescaped_override() -> None:
    value = first_value(
        {"json-model-override-args": ESCAPED, "context-length": "131072"},
        "json.decoder.JSONDecodeError",
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "json-model-override-args",
    )
    assert value == {"rope_scaling": {"rope_type": "yarn", "factor": 4.0}}
