"""Issue 14 round 37l, written before the change: a command moved from a shell line into a
docker-compose or Kubernetes args list keeps the shell's quotes around a JSON value
('{"enable_thinking":false}' with its single quotes), and SGLang receives them as part of
the value. The value meant is what the quotes hold; the engine dropped the flag instead
(thinking off and the YaRN override lost). The messages are the shapes argparse and json
give; the values are ours."""

from __future__ import annotations

from .test_json_args import first_value


def test_argparse_refusing_a_quoted_json_value_gets_the_value_inside() -> None:
    given = "'{\"enable_thinking\":false}'"
    value = first_value(
        {"default-chat-template-kwargs": given},
        "argparse_error",
        f"argument --default-chat-template-kwargs: invalid loads value: {given!r}",
        "default-chat-template-kwargs",
    )
    assert value == {"enable_thinking": False}


def test_a_json_parse_error_naming_no_flag_unwraps_the_quoted_override() -> None:
    value = first_value(
        {"json-model-override-args": '"{""rope_scaling"": null}"'.replace('""', '"'), "context-length": "8192"},
        "json.decoder.JSONDecodeError",
        "Expecting value: line 1 column 1 (char 0)",
        "json-model-override-args",
    )
    assert value == {"rope_scaling": None}
