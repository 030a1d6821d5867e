"""Issue 14 round 31, written before the change.

Offline (``autofix classify`` of a pasted error, no argv at hand) a check that refuses a
free-text flag's value names the flag in its own words, not as ``--flag``: ``Unknown
model-config parser 'huggingface'. Registered: ['hf', 'mistral']``. The words before the
quoted value spell a flag's name (hyphens, underscores or spaces between them), so the
value is that flag's, and the listed value the user meant is the first move, as the
search makes it with the argv in hand. A quoted value after words that only end in part
of a flag's name, or a one-word flag, shows nothing.

The registry wording is SGLang 0.5.23's; the other messages are ours."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.repair import offline_moves, prose_values
from autofix.tracebacks import parse_text

CATALOG = load_catalog()


def first_offline(message: str) -> str:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/server_args.py", line 812, in check\n'
        "    raise ValueError(msg)\n"
        f"ValueError: {message}\n"
    )
    moves = offline_moves(classify(parse_text(text), CATALOG, Gate.PREFLIGHT), CATALOG)
    return moves[0].label() if moves else "-"


@pytest.mark.parametrize(
    ("message", "first"),
    [
        ("Unknown model-config parser 'huggingface'. Registered: ['hf', 'mistral']", "set model-config-parser=hf"),
        ("unknown radix_cache_backend 'lmcach', available: ['hicache', 'lmcache']", "set radix-cache-backend=lmcache"),
        (
            "No model config parser \"mistrl\" is registered. Registered: ['hf', 'mistral']",
            "set model-config-parser=mistral",
        ),
    ],
)
def test_offline_the_value_a_flag_named_in_words_holds_is_mended(message: str, first: str) -> None:
    assert first_offline(message) == first


def test_the_words_before_a_quoted_value_spell_the_flag() -> None:
    assert prose_values("Unknown model-config parser 'huggingface'.", CATALOG) == {"model-config-parser": "huggingface"}
    assert prose_values('the radix cache backend "x" failed', CATALOG) == {"radix-cache-backend": "x"}


def test_words_that_are_only_part_of_a_name_or_one_word_show_nothing() -> None:
    assert prose_values("Unknown config parser 'huggingface'.", CATALOG) == {}
    assert prose_values("Unknown quantization 'fp9'.", CATALOG) == {}
    assert prose_values("model-config parser: see 'docs'", CATALOG) == {}
