"""Issue 14 round 41, written before the change (0.4.10.post2-sixth's two template cases, read
after the set was scored blind): a deployment template that renders a JSON value's INNER parts
with the wrong type.

- An inner object serialized twice (``{"rope_scaling": "{\\"factor\\": 4.0}"}``): the value
  parses, but where the server reads ``rope_scaling.get(...)`` it finds a string ("'str'
  object has no attribute 'get'"). The object inside the string is what was meant.
- A number rendered as a string (``"factor": "2"``): the server compares or multiplies it
  ("'<=' not supported between instances of 'str' and 'int'"). The number is what was meant.

The flags' keys are ours."""

from __future__ import annotations

import json

from autofix.jsonargs import mend

from .proposing import proposed

INNER = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}


def test_an_inner_object_serialized_twice_is_that_object() -> None:
    written = json.dumps({"rope_scaling": json.dumps(INNER), "max_position_embeddings": 131072})
    assert mend(written) == {"rope_scaling": INNER, "max_position_embeddings": 131072}


def test_json_with_no_inner_json_string_is_left_alone() -> None:
    assert mend(json.dumps({"name": "plain words", "n": 2})) is None


def test_the_str_has_no_get_failure_unwraps_the_inner_object() -> None:
    written = json.dumps({"rope_scaling": json.dumps(INNER)})
    _, found = proposed(
        {"json-model-override-args": written, "context-length": "131072"},
        "AttributeError",
        "'str' object has no attribute 'get'",
    )
    assert found and json.loads(str(found[0].child.arg("json-model-override-args"))) == {"rope_scaling": INNER}


def test_a_number_written_as_a_string_is_that_number() -> None:
    written = json.dumps({"rope_scaling": {"type": "yarn", "factor": "2", "mscale": "1.0", "name": "x"}})
    _, found = proposed(
        {"json-model-override-args": written, "tp-size": "16"},
        "TypeError",
        "'<=' not supported between instances of 'str' and 'int'",
    )
    assert found
    meant = json.loads(str(found[0].child.arg("json-model-override-args")))
    assert meant == {"rope_scaling": {"type": "yarn", "factor": 2, "mscale": 1.0, "name": "x"}}


def test_a_type_error_without_numeric_strings_changes_no_json() -> None:
    written = json.dumps({"rope_scaling": {"type": "yarn", "factor": 2}})
    _, found = proposed(
        {"json-model-override-args": written},
        "TypeError",
        "'<=' not supported between instances of 'str' and 'int'",
    )
    assert not any(
        p.move.edits[0].target == "json-model-override-args" and p.move.edits[0].op.value == "set" for p in found
    )


def test_a_key_the_server_looked_up_and_missed_renames_the_users_key_of_that_word() -> None:
    """KeyError: 'factor' where the user's object (nested) holds 'rope_factor': that key was
    the factor, written in another tool's naming."""
    written = json.dumps({"rope_scaling": {"type": "yarn", "rope_factor": 40, "beta_fast": 32}})
    _, found = proposed({"json-model-override-args": written, "tp-size": "8"}, "KeyError", "'factor'")
    assert found
    meant = json.loads(str(found[0].child.arg("json-model-override-args")))
    assert meant == {"rope_scaling": {"type": "yarn", "factor": 40, "beta_fast": 32}}


def test_a_key_error_no_key_of_the_user_shares_a_word_with_changes_no_json() -> None:
    written = json.dumps({"rope_scaling": {"type": "yarn", "factor": 40}})
    _, found = proposed({"json-model-override-args": written}, "KeyError", "'original_max_position_embeddings'")
    assert not any(e.target == "json-model-override-args" and e.op.value == "set" for p in found for e in p.move.edits)


def test_a_section_is_not_renamed_to_the_key_looked_up() -> None:
    """'rope_scaling' holds an object: KeyError 'rope_theta' does not make it the theta."""
    written = json.dumps({"rope_scaling": {"type": "yarn", "factor": 4}})
    _, found = proposed({"json-model-override-args": written}, "KeyError", "'rope_theta'")
    assert not any(e.target == "json-model-override-args" and e.op.value == "set" for p in found for e in p.move.edits)
