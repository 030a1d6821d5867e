"""Issue 14 round 40d, written before the change: offline (``autofix classify``, no argv),
a check about one flag that names a primary choice only as the condition it met ("--x is
only supported with speculative_algorithm == EAGLE, got EAGLE3") ranks as the search ranks
it: the flag the check is about is mended or dropped before the choice the user made (an
algorithm with the drafter that serves it) is changed. A message that tells to change the
choice, or requires a value of it, still names it as the fix.

These tests use messages of their own."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.repair import offline_moves
from autofix.tracebacks import parse_text

CATALOG = load_catalog()


def _offline(message: str, statement: str = "assert ok") -> list[str]:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/venv/lib/python3.12/site-packages/srv/args.py", line 3314, in check\n'
        f"    {statement}\n"
        f"AssertionError: {message}\n"
    )
    return [m.label() for m in offline_moves(classify(parse_text(text), CATALOG, Gate.PREFLIGHT), CATALOG)]


def test_the_flag_the_check_is_about_goes_before_the_algorithm_it_met() -> None:
    moves = _offline("--enable-mixed-chunk is only supported with speculative_algorithm == NGRAM, got EAGLE.")
    assert moves and moves[0] == "drop enable-mixed-chunk", moves
    # (the failing statement, as the traceback prints it, tests the algorithm: still context)
    moves = _offline(
        "--enable-mixed-chunk is only supported with speculative_algorithm == NGRAM, got EAGLE.",
        'assert self.speculative_algorithm == "NGRAM", (',
    )
    assert moves and moves[0] == "drop enable-mixed-chunk", moves


def test_a_message_that_tells_to_change_the_algorithm_keeps_it_first() -> None:
    moves = _offline("--enable-mixed-chunk needs NGRAM: set --speculative-algorithm NGRAM.")
    assert moves and moves[0] == "set speculative-algorithm=NGRAM", moves


def test_an_algorithm_the_check_shows_unset_is_set_first() -> None:
    """(Round 40d's review: "..., got None" shows the condition's flag holds nothing: setting
    it changes no choice of the user's, and is what the check asks.)"""
    moves = _offline("--enable-mixed-chunk needs --speculative-algorithm NGRAM to pick its drafts, got None.")
    assert moves and moves[0] == "set speculative-algorithm=NGRAM", moves
