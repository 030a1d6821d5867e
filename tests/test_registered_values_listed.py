"""Issue 14 round 30, written before the change.

A check that refuses a value a flag's parser lets through (a free-text flag resolved
through a registry) lists what it accepts under another word than "only" / "one of":
``Registered: ['hf', 'mistral']``, ``Available: [...]``, ``Valid values: ...``. The flag
holding the refused value is set to a listed one, the one the user evidently meant first:
the same word shortened (``huggingface`` is ``hf``: the choice's letters in order in what
was written) or a typo apart (``mistrl``), before the rest in the message's order.

These tests use their own messages, except the registry wording, which is SGLang 0.5.23's."""

from __future__ import annotations

import pytest

from autofix.choices import near_choice

from .proposing import proposed


@pytest.mark.parametrize(
    ("given", "listed", "first"),
    [
        ("huggingface", "Registered: ['hf', 'mistral']", "hf"),
        ("mistrl", "Registered: ['hf', 'mistral']", "mistral"),
        ("mistral-common", "Available: ['hf', 'mistral']", "mistral"),
        ("hugging_face", "Valid values: 'mistral', 'hf'", "hf"),
    ],
)
def test_the_refused_value_becomes_the_listed_one_meant(given: str, listed: str, first: str) -> None:
    _, proposals = proposed(
        {"model-config-parser": given, "port": "30000"},
        "ValueError",
        f"Unknown model-config parser '{given}'. {listed}",
    )
    assert proposals
    assert proposals[0].move.label() == f"set model-config-parser={first}"


def test_a_listed_value_with_nothing_near_is_tried_in_the_message_order() -> None:
    _, proposals = proposed(
        {"model-config-parser": "yaml", "port": "30000"},
        "ValueError",
        "Unknown model-config parser 'yaml'. Registered: ['hf', 'mistral']",
    )
    assert [p.move.label() for p in proposals[:2]] == ["set model-config-parser=hf", "set model-config-parser=mistral"]


def test_a_choice_shortened_from_the_word_written_is_near_it() -> None:
    assert near_choice("huggingface", "hf")
    assert near_choice("HuggingFace", "hf")
    assert not near_choice("huggingface", "mistral")
    assert not near_choice("flash", "hf")  # the first letters differ
