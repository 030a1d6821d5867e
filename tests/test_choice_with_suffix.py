"""Issue 14 round 31, written before the change.

A refused choice that is a listed one with more written after it (a checkpoint's name
leaking into the value: ``--reasoning-parser step3-fp8``, ``deepseek-r1-0528``,
``kimi_k2-instruct``) meant the listed one its leading words spell, the longest first, before
a spelling that is merely similar (``step3p5`` shares more letters with ``step3-fp8``), unless
another choice holds more of the words written (``minimax_m2_append_think``: vLLM's name of
``minimax-append-think``, not ``minimax``).
The argparse wording is SGLang 0.5.23's; the choice lists are ours."""

from __future__ import annotations

import pytest

from autofix.choices import closest_choices

from .proposing import proposed

PARSERS = ["auto", "deepseek-r1", "deepseek-v3", "kimi", "kimi_k2", "qwen3", "qwen3-thinking", "step3", "step3p5"]


@pytest.mark.parametrize(
    ("given", "first"),
    [
        ("step3-fp8", "step3"),
        ("deepseek-r1-0528", "deepseek-r1"),
        ("kimi_k2-instruct", "kimi_k2"),
        ("qwen3-thinking-2507", "qwen3-thinking"),
    ],
)
def test_the_listed_choice_the_leading_words_spell_comes_first(given: str, first: str) -> None:
    assert closest_choices(given, PARSERS)[0] == first


def test_a_choice_holding_more_of_the_words_written_goes_first() -> None:
    parsers = ["minimax", "minimax-append-think", "minimax-m3", "qwen3"]
    assert closest_choices("minimax_m2_append_think", parsers)[0] == "minimax-append-think"


def test_a_value_without_more_words_is_ranked_as_before() -> None:
    assert closest_choices("step3p", PARSERS)[0] == "step3p5"
    assert closest_choices("qwen", PARSERS)[0] == "qwen3"


def test_argparse_refusing_a_suffixed_choice_sets_the_one_it_starts_with() -> None:
    listed = ", ".join(f"'{p}'" for p in PARSERS)
    _, proposals = proposed(
        {"reasoning-parser": "step3-fp8", "tp-size": "8"},
        "SystemExit",
        f"launch_server.py: error: argument --reasoning-parser: invalid choice: 'step3-fp8' (choose from {listed})",
    )
    assert proposals[0].move.label() == "set reasoning-parser=step3"
