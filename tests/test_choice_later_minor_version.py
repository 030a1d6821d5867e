"""Issue 14 round 43, written before the change.

A refused choice that is a listed one with a later minor version written after it (``kimi_k25``
for Kimi-K2.5 where ``kimi_k2`` is listed, ``glm451`` where ``glm45`` is) meant the listed major
version: one parser reads the whole line. The cut falls inside the last word, so the leading
words alone spell only the shorter family (``kimi``), the older format of another model.
A value whose extra part is a word of its own (``qwen3-next``) is ranked as before. The choice lists are ours (spellings SGLang's reasoning and tool-call parsers use)."""

from __future__ import annotations

import pytest

from autofix.choices import closest_choices

from .proposing import choice_refused

REASONING = ["deepseek-r1", "deepseek-v3", "glm45", "kimi", "kimi_k2", "qwen3", "qwen3-thinking", "step3"]


@pytest.mark.parametrize(
    ("given", "first"),
    [("kimi_k25", "kimi_k2"), ("kimi-k2.6", "kimi_k2"), ("glm451", "glm45"), ("deepseek-v32", "deepseek-v3")],
)
def test_a_later_minor_version_means_the_listed_major_one(given: str, first: str) -> None:
    assert closest_choices(given, REASONING)[0] == first


def test_a_word_after_the_listed_name_is_no_version() -> None:
    assert closest_choices("qwen3-next", REASONING)[0] == "qwen3"
    assert closest_choices("kimi-k2-instruct", REASONING)[0] == "kimi_k2"


def test_argparse_refusing_a_minor_version_sets_the_major_one() -> None:
    labels = choice_refused("reasoning-parser", "kimi_k25", REASONING, {"tp-size": "8"})
    assert labels[0] == "set reasoning-parser=kimi_k2"
