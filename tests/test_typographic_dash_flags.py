"""Issue 14 round 44aa, written before the change (0.4.10.post2-eighth's wiki paste, in our
values): a text editor that "smartens" a pasted command turns the two dashes of a flag into
an em dash or an en dash ("—context-length 131072"). argparse takes such a word for a value
of the flag before it; the word names the flag all the same: set with its value, in the
search and offline, not dropped as a stray value. A word that names no flag after the
dash is still a value."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog, normal_form
from autofix.renames import refused_flags

from .proposing import FULL, proposed

CATALOG = load_catalog()


@pytest.mark.parametrize("dash", ["\u2014", "\u2013", "\u2212\u2212", "\u2013\u2013"])
def test_a_flag_behind_a_typographic_dash_is_that_flag(dash: str) -> None:
    _, found = proposed(
        {"tp-size": ["1", f"{dash}context-length", "131072"], "mem-fraction-static": "0.85"},
        "SystemExit",
        f"launch_server.py: error: unrecognized arguments: {dash}context-length 131072",
        catalog=FULL,
    )
    assert found and found[0].child.arg("context-length") == "131072", [p.move.label() for p in found]
    assert found[0].child.arg("tp-size") == "1"


def test_offline_the_refused_word_is_read_as_the_flag() -> None:
    assert refused_flags("error: unrecognized arguments: \u2014context-length 131072") == {"context-length": "131072"}
    assert normal_form("\u2014context-length") == "context-length"


def test_a_dash_before_a_word_that_is_no_flag_stays_a_value() -> None:
    _, found = proposed(
        {"served-model-name": ["toy", "\u2014preview"]},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: \u2014preview",
        catalog=FULL,
    )
    assert not any(p.child.has("preview") for p in found), [p.move.label() for p in found]
