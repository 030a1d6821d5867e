"""Issue 14 round 28i, written before the change: a flag written with its words shortened
(``--enable-dp-attn``, ``--spec-algo``, ``--max-run-reqs``) is the one flag of the parser
with as many words, each of which the user's word abbreviates (its letters in order, the
first the same). Two flags that fit, or a word no flag's word holds, name none.

These tests use their own spellings."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.renames import meaning

CATALOG = load_catalog()


@pytest.mark.parametrize(
    ("spelling", "flag"),
    [
        ("enable-dp-attn", "enable-dp-attention"),
        ("spec-algo", "speculative-algorithm"),
        ("max-run-reqs", "max-running-requests"),
        ("attn-backend", "attention-backend"),
    ],
)
def test_shortened_words_name_the_one_flag_they_abbreviate(spelling: str, flag: str) -> None:
    found = meaning(spelling, CATALOG, "8")
    assert found is not None and found.flags and found.flags[0][0] == flag


def test_a_word_no_flag_word_holds_names_nothing() -> None:
    assert meaning("disable-radix-zebra", CATALOG, True) is None


def test_a_short_option_or_a_word_sharing_only_its_first_letter_is_no_abbreviation() -> None:
    # (ik_llama.cpp's -ser is no --sidecar: s-e-r are in "sidecar" in order, but a shortened
    # word keeps at least the word's first two letters, and a short option names no words)
    for spelling in ("-ser", "ser"):
        found = meaning(spelling, CATALOG, "7,1")
        assert found is None or not found.flags or found.flags[0][0] != "sidecar", found
