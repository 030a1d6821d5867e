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


# Issue 14 round 10, written before the change: a statement that two switches exclude each
# other says both are on. Offline (no argv) the engine assumed nothing of them and proposed
# turning both on (a move that changes nothing) before the drops that resolve it.
EXCLUSIVE = [
    "ValueError: --enable-mixed-chunk and --enable-two-batch-overlap are mutually exclusive.",
    "ValueError: Cannot enable both --enable-mixed-chunk and --enable-two-batch-overlap; pick one.",
    "ValueError: --enable-two-batch-overlap cannot be combined with --enable-mixed-chunk.",
    "ValueError: --enable-mixed-chunk cannot be used together with --enable-two-batch-overlap",
]


def _preflight_error(line: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/sglang/srt/server_args.py", line 900, in check\n'
        "    raise ValueError(msg)\n"
        f"{line}\n"
    )


def test_switches_said_to_exclude_each_other_are_on_so_the_moves_drop_one() -> None:
    for line in EXCLUSIVE:
        moves = offline_moves(classify(parse_text(_preflight_error(line)), CATALOG, Gate.PREFLIGHT), CATALOG)
        labels = [m.label() for m in moves]
        assert labels and all("=True" not in label for label in labels), (line, labels)
        assert labels[0] in ("drop enable-mixed-chunk", "drop enable-two-batch-overlap"), (line, labels)


def test_switches_a_check_requires_are_still_turned_on() -> None:
    line = "ValueError: --enable-dp-lm-head requires --enable-dp-attention and --enable-mixed-chunk to be set."
    moves = offline_moves(classify(parse_text(_preflight_error(line)), CATALOG, Gate.PREFLIGHT), CATALOG)
    assert any("set enable-dp-attention=True" in m.label() for m in moves)
