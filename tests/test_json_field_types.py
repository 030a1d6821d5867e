"""Issue 14 round 43, written after sglang-0.5.11-ninth was scored at 64b5b55 (its six
wrong-typed --json-model-override-args cases lost the override or failed: in sample from here).

A config class that checks its fields' types names the field and the type it expected
("Field 'max_position_embeddings' expected int, got str (value: '65536')", "... expected a
list, got str"): the value the user gave that field, in the JSON flag that holds it, is written
as that type (the number the string spells, a whole float as an int, a lone string as a
one-item list). A number written as a string and then multiplied shows only as the repeated
string ("invalid literal for int() with base 10: '2.02.02.0...'") or as Python refusing its
length ("Exceeds the limit (4300 digits) for integer string conversion"): numbers written as
strings are unquoted. The wordings are huggingface_hub's and Python's; the values are ours."""

from __future__ import annotations

import pytest

from .test_json_args import first_value

FLAG = "json-model-override-args"
STRICT = "huggingface_hub.errors.StrictDataclassFieldValidationError"


@pytest.mark.parametrize(
    ("given", "message", "meant"),
    [
        (
            '{"rope_scaling": {"factor": 4.0}, "max_position_embeddings": "65536"}',
            "Validation error for field 'max_position_embeddings': TypeError: Field 'max_position_embeddings' "
            "expected int, got str (value: '65536')",
            {"rope_scaling": {"factor": 4.0}, "max_position_embeddings": 65536},
        ),
        (
            '{"max_position_embeddings": 131072.0}',
            "Validation error for field 'max_position_embeddings': TypeError: Field 'max_position_embeddings' "
            "expected int, got float (value: 131072.0)",
            {"max_position_embeddings": 131072},
        ),
        (
            '{"num_experts_per_tok": 6.0}',
            "Validation error for field 'num_experts_per_tok': TypeError: Field 'num_experts_per_tok' with value 6.0 "
            "doesn't match any type in (<class 'int'>, <class 'NoneType'>). Errors: Field 'num_experts_per_tok' "
            "expected int, got float (value: 6.0); Field 'num_experts_per_tok' expected NoneType, got float",
            {"num_experts_per_tok": 6},
        ),
        (
            '{"architectures": "ToyForSequenceClassification"}',
            "Validation error for field 'architectures': TypeError: Field 'architectures' with value "
            "'ToyForSequenceClassification' doesn't match any type in (list[str], <class 'NoneType'>). Errors: "
            "Field 'architectures' expected a list, got str",
            {"architectures": ["ToyForSequenceClassification"]},
        ),
    ],
)
def test_a_field_given_the_wrong_type_is_written_as_the_type_expected(
    given: str, message: str, meant: dict[str, object]
) -> None:
    assert first_value({FLAG: given, "tp-size": "2"}, STRICT, message, FLAG) == meant


@pytest.mark.parametrize(
    ("exception", "message"),
    [
        ("ValueError", "invalid literal for int() with base 10: '2.02.02.02.02.02.02.02.0'"),
        (
            "ValueError",
            "Exceeds the limit (4300 digits) for integer string conversion: value has 8192 digits; "
            "use sys.set_int_max_str_digits() to increase the limit",
        ),
    ],
)
def test_a_number_string_multiplied_shows_as_the_string_repeated(exception: str, message: str) -> None:
    given = '{"rope_scaling": {"rope_type": "dynamic", "factor": "2.0"}}'
    assert first_value({FLAG: given, "tp-size": "2"}, exception, message, FLAG) == {
        "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}
    }
