"""Issue 14 round 44d, written before the change (round 61's tool-parser thread, in our
words): a client library's exception (openai.BadRequestError, httpx.HTTPStatusError,
requests.exceptions.HTTPError ...) reports the server's answer to a request; where the
paste quotes the server's own exception too, that one is the failure. Alone, the client's
exception is still read (a request that got no JSON back names nothing else)."""

from __future__ import annotations

from .proposing import subject_of

BOTH = (
    "# [Bug] Tool call parsing for a toy model raises\n\n"
    "### Describe the bug\n\n"
    "Running the toy test fails with a `openai.BadRequestError: Error code: 400 - {'object': 'error', "
    "'message': '400', 'type': 'Failed to parse toy info'}`\n\n"
    "An exception is written to the logs: `Exception: name 'toy_text' is not defined`\n"
)

ALONE = (
    "# [Bug] toy endpoint answers nothing\n\n"
    "The client stops with `requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)`\n"
)


def test_the_servers_exception_beats_the_clients_report_of_it() -> None:
    assert "toy_text" in subject_of(BOTH)


def test_a_clients_exception_alone_is_still_read() -> None:
    assert "JSONDecodeError" in subject_of(ALONE)
