"""Issue 14 round 7, written before the change: offline (``autofix classify`` of a pasted
error, no argv at hand) the values a message shows are the candidate's values: argparse's
"argument --x: ... value: 'v'", a check's "--x must be ..., got v" and its "field=v". The
moves then mend those values as the search would, instead of only dropping the flag."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.repair import offline_moves, shown_values
from autofix.tracebacks import parse_text

CATALOG = load_catalog()


def first_offline(text: str) -> str:
    moves = offline_moves(classify(parse_text(text), CATALOG, Gate.PREFLIGHT), CATALOG)
    return moves[0].label() if moves else "-"


def test_argparse_shows_the_value_it_refused() -> None:
    assert shown_values("argument --context-length: Invalid integer value: '64K'. Use a plain integer") == {
        "context-length": "64K"
    }


def test_a_check_shows_the_value_it_got() -> None:
    assert shown_values("--return-aux-hidden-state-layer-ids must be non-negative, got [2, 7, -1].") == {
        "return-aux-hidden-state-layer-ids": ("2", "7", "-1")
    }


def test_a_field_shows_its_value() -> None:
    shown = shown_values("page_size=64 is not supported with speculative_eagle_topk=4 on this backend")
    assert shown == {"page-size": "64", "speculative-eagle-topk": "4"}


def test_offline_a_size_with_a_unit_becomes_the_integer() -> None:
    text = (
        "usage: launch_server.py [-h] --model-path MODEL_PATH\n"
        "launch_server.py: error: argument --context-length: Invalid integer value: '64K'. Use a plain integer, "
        "SI suffixes (1k, 1M), or IEC suffixes (1Ki, 1Mi). Suffixes are case-sensitive.\n"
    )
    assert first_offline(text) == "set context-length=65536"


def test_offline_a_negative_member_is_taken_out() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/server_args.py", line 900, in __post_init__\n'
        "    self._check()\n"
        "ValueError: --return-aux-hidden-state-layer-ids must be non-negative, got [2, 7, -1].\n"
    )
    assert first_offline(text) == "set return-aux-hidden-state-layer-ids=2 7"
