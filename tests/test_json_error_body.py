"""Issue 14 round 45l, written before the change (round 65's reranker answered with a 400, in
our words): a user who pastes the JSON error object the server answered with
({"object": "error", "message": ..., "type": "BadRequestError", "code": 400}), pretty-printed
or on one line, pastes the server's own statement of the failure: its message, under its
type, is the failure, not the line that opens the object. A JSON object that is no error
(a request body, a config) says nothing."""

from __future__ import annotations

from .proposing import subject_of

SAID = "This model cannot score documents by default. Please relaunch with `--toy-flag` or use another model."


def test_a_pretty_printed_error_object_is_read_by_its_message() -> None:
    text = (
        "# [Bug] scoring endpoint refuses every request\n\nOn /v1/score I get:\n```\n{\n"
        '  "object": "error",\n'
        f'  "message": "{SAID}",\n'
        '  "type": "BadRequestError",\n  "param": null,\n  "code": 400\n}\n```\n'
    )
    assert subject_of(text) == f"BadRequestError: {SAID}"


def test_an_error_object_on_one_line_is_read_the_same() -> None:
    body = f'{{"object":"error","message":"{SAID}","type":"BadRequestError","param":null,"code":400}}'
    text = f"# [Bug] scoring endpoint refuses every request\n\ncurl answers:\n{body}\n"
    assert subject_of(text) == f"BadRequestError: {SAID}"


def test_a_request_body_is_no_error() -> None:
    text = (
        "# [Bug] scoring endpoint is slow\n\nI send:\n```\n{\n"
        '  "model": "toy",\n  "message": "Summarize the following report in two sentences.",\n'
        '  "max_tokens": 64\n}\n```\nand it takes a minute to answer, with a timeout at the client.\n'
    )
    assert "Summarize" not in subject_of(text)
