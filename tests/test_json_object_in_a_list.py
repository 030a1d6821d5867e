"""Issue 14 round 43, written before the change (sglang-0.4.10.post2-eighth's
helm-dp-size-one-then-override-as-list, scored blind at 30c84cd: failed).

A template that renders a YAML list item with toJson hands SGLang a JSON array holding the one
object meant (`[{"rope_scaling": {...}}]`); the code that reads an object finds a list
("'list' object has no attribute 'items'"). The value meant is the object inside. A list of
several objects is no such slip: no move from it. The values are ours."""

from __future__ import annotations

from .test_json_args import first_value, proposals

WRAPPED = '[{"rope_scaling": {"rope_type": "yarn", "factor": 4.0}}]'


def test_a_one_object_list_where_an_object_is_read_is_that_object() -> None:
    value = first_value(
        {"json-model-override-args": WRAPPED, "tp-size": "8"},
        "AttributeError",
        "'list' object has no attribute 'items'",
        "json-model-override-args",
    )
    assert value == {"rope_scaling": {"rope_type": "yarn", "factor": 4.0}}


def test_a_list_of_several_objects_is_left_alone() -> None:
    found = proposals(
        {"json-model-override-args": '[{"a": 1}, {"b": 2}]', "tp-size": "8"},
        "AttributeError",
        "'list' object has no attribute 'items'",
    )
    assert all(
        str(p.arg("json-model-override-args")).startswith("[") for p in found if p.has("json-model-override-args")
    )
