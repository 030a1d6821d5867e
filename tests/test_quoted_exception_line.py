"""Issue 14 round 30, written before the change.

An issue's description often quotes the exception it got as a line of its own, between
double quotes (straight or curly), after a sentence that ends "but still got". The quoted
line is the exception line itself (a failure-named type, or a class of an exceptions
module), and it says more than the issue's title.

These tests use their own texts."""

from __future__ import annotations

import pytest

from .proposing import subject_of

TITLE = "# [Bug] Small MLA model reports out of resource ERROR on A10\n\n### Describe the bug\n\nWe still got\n"
AFTER = "\n### Reproduction\n\nShrink the config.\n"
LINE = "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536."


@pytest.mark.parametrize("quoted", [f'"{LINE}"', f"\u201c{LINE}\u201d", f'"{LINE} Reducing block sizes may help."'])
def test_an_exception_line_quoted_whole_is_read_as_the_exception(quoted: str) -> None:
    subject = subject_of(TITLE + quoted + "\n" + AFTER)
    assert subject.startswith("triton.runtime.errors.OutOfResources: out of resource")
    assert "Required: 98304" in subject


def test_a_quoted_sentence_that_is_no_exception_line_is_left_as_prose() -> None:
    subject = subject_of(TITLE + '"Note: the model is small."\n' + AFTER)
    assert not subject.startswith("Note")
