"""Issue 14 round 45d, written before the change (round 65's SFT embedding load, in our
words): a user's sentence that ends by pointing at the error shown below it ("... will
trigger the error below:", "I get the following error:") only announces it, like a
"Traceback" header: the line the program printed below is the failure, even when it states
it in weak words ("Parameter ... not found in params_dict"). A sentence that says what failed
is still read as before."""

from __future__ import annotations

import pytest

from .proposing import subject_of

PRINTED = "[2026-02-02 10:00:00] Parameter model.model.norm.weight not found in params_dict"


@pytest.mark.parametrize(
    "sentence",
    [
        "As a result, loading the fine-tuned reranker will trigger the error below:",
        "When I start the server I get the following error:",
        "Then the scheduler logs this error:",
    ],
)
def test_a_sentence_pointing_below_gives_way_to_the_printed_line(sentence: str) -> None:
    text = f"# [Bug] Weight names differ after fine-tuning\n\n{sentence}\n```\n{PRINTED}\n```\n"
    assert "params_dict" in subject_of(text)


def test_a_sentence_that_says_what_failed_still_counts() -> None:
    text = "# [Bug] Weight names differ after fine-tuning\n\nThe server crashes with an error when loading weights.\n"
    assert "crashes" in subject_of(text)
