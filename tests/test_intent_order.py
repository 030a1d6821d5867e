"""Issue 14 round 6, written before the engine change: what the operator asked for is kept
first. A move that changes or drops a primary choice the user made (the speculative
algorithm, the disaggregation role, a parallel size) that the message does not name ranks
after a move that drops the option the message refuses; an argparse value the parser
refuses is read for what it means (a list given with commas, a word for a mode)."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog

from .proposing import proposed

CATALOG = load_catalog()


def first(args: dict[str, object], exception: str, message: str) -> str:
    _, proposals = proposed(args, exception, message)
    assert proposals, "no move at all"
    return proposals[0].move.label()


def test_an_option_that_supports_only_other_algorithms_goes_before_the_algorithm() -> None:
    """'--x only supports A / B / C': the user's algorithm (not named as a flag) stays; x goes."""
    label = first(
        {"speculative-algorithm": "NGRAM", "speculative-adaptive": True},
        "ValueError",
        "--speculative-adaptive only supports EAGLE / EAGLE3 / STANDALONE.",
    )
    assert label == "drop speculative-adaptive"


def test_an_option_incompatible_with_the_role_is_dropped_not_the_role() -> None:
    """The disaggregation role is the deployment; the option the message opens with goes first."""
    label = first(
        {"disaggregation-mode": "prefill", "enable-mixed-chunk": True, "tp-size": 2},
        "ValueError",
        "--enable-mixed-chunk is incompatible with prefill-decode disaggregation (prefill side).",
    )
    assert label == "drop enable-mixed-chunk"


def test_a_primary_choice_the_message_names_may_change() -> None:
    """When the message names the algorithm's flag, changing it is what it asks."""
    label = first(
        {"speculative-algorithm": "NGRAM"},
        "ValueError",
        "--speculative-algorithm NGRAM is not supported on this platform; use --speculative-algorithm EAGLE.",
    )
    assert label.startswith(("set speculative-algorithm=", "drop speculative-algorithm"))


@pytest.mark.parametrize(
    ("args", "message", "expected"),
    [
        (
            {"gc-threshold": "500,20,20"},
            "launch_server.py: error: argument --gc-threshold: invalid int value: '500,20,20'",
            "set gc-threshold=500 20 20",
        ),
        (
            {"return-aux-hidden-state-layer-ids": "1,7,13"},
            "launch_server.py: error: argument --return-aux-hidden-state-layer-ids: invalid int value: '1,7,13'",
            "set return-aux-hidden-state-layer-ids=1 7 13",
        ),
    ],
)
def test_a_list_given_with_commas_is_split(args: dict[str, object], message: str, expected: str) -> None:
    """A list flag's values written 'a,b,c' are the list a b c, not a value to drop."""
    assert first(args, "argparse_error", message) == expected


def test_a_word_for_a_mode_is_read_for_its_meaning() -> None:
    """'error' asked of a none/log/raise choice means raise (fail on it), not the nearest spelling."""
    label = first(
        {"kv-canary": "error"},
        "argparse_error",
        "launch_server.py: error: argument --kv-canary: invalid choice: 'error' (choose from 'none', 'log', 'raise')",
    )
    assert label == "set kv-canary=raise"
