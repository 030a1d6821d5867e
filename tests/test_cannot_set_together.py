"""Issue 14 round 42q, written before the change (blind at this round: 0.5.11-eighth's
kimi-encoder-only-and-language-only-on-one-server: `autofix classify` read "Cannot set
--encoder-only and --language-only together" as asking for both and proposed setting them).

"Cannot set --a and --b together" says the two exclude each other: each is dropped in turn,
never both turned on; "requires --a and --b" still asks for both. The flags are ours."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.repair import offline_moves
from autofix.tracebacks import parse_text

from .proposing import proposed

FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "zz-enc-only": {"kind": "bool", "default": False},
    "zz-lang-only": {"kind": "bool", "default": False},
}
HOST = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")


def _offline(message: str) -> list[str]:
    text = f'Traceback (most recent call last):\n  File "/x/sglang/srt/server_args.py", line 9, in check\nValueError: {message}\n'
    return [m.label() for m in offline_moves(classify(parse_text(text), HOST, Gate.PREFLIGHT), HOST)]


def test_two_flags_that_cannot_be_set_together_are_dropped_not_set() -> None:
    labels = _offline("Cannot set --zz-enc-only and --zz-lang-only together")
    assert labels and all(lb.startswith("drop ") for lb in labels), labels


def test_the_search_drops_one_of_them() -> None:
    _, found = proposed(
        {"zz-enc-only": True, "zz-lang-only": True},
        "ValueError",
        "Cannot set --zz-enc-only and --zz-lang-only together",
        catalog=HOST,
    )
    assert found and found[0].move.label() in ("drop zz-enc-only", "drop zz-lang-only"), [p.move.label() for p in found]


def test_requires_both_still_asks_for_both() -> None:
    labels = _offline("--zz-x requires --zz-enc-only and --zz-lang-only")
    assert "set zz-enc-only=True; set zz-lang-only=True" in labels, labels
