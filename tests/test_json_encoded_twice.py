"""Issue 14 round 39, written before the change (0.4.10.post2-fourth, in sample, carries it).

A JSON-valued flag given its object serialized twice (a manifest generator's escaping:
``"{\\"rope_scaling\\": {...}}"``) is valid JSON, but a string: the server's
``config.update`` fails with "'str' object has no attribute 'items'". The object inside the
string is what the user meant: unwrapped once. The flag and keys are ours."""

from __future__ import annotations

import json

from autofix.jsonargs import mend

from .proposing import proposed

OBJECT = {"rope_scaling": {"rope_type": "yarn", "factor": 2.0}}


def test_a_json_string_holding_an_object_is_that_object() -> None:
    assert mend(json.dumps(json.dumps(OBJECT))) == OBJECT
    assert mend(json.dumps("plain words")) is None


def test_the_str_has_no_items_failure_unwraps_it() -> None:
    _, found = proposed(
        {"json-model-override-args": json.dumps(json.dumps(OBJECT)), "tp-size": "4"},
        "AttributeError",
        "'str' object has no attribute 'items'",
    )
    assert found and json.loads(str(found[0].child.arg("json-model-override-args"))) == OBJECT
