"""Issue 14 round 42k, written before the change (blind at this round: users29's
cookbook-dsv32-fp8kv-cp-pp-nsa-cp-mode took three attempts for a one-move fix:
`--nsa-prefill-cp-mode round-robin-split` was renamed to --cp-strategy with its value, which
the new flag's choices refuse, and the next attempt set the choice argparse's error listed).

A flag renamed to one with choices that do not hold the value carried gets, in the same
move, the choice the parser's refusal would have led to (the one a refused value evidently
meant; among a few choices, the nearest): one attempt instead of two, the same winner. A
value the new flag holds is carried as before. The flags and choices are ours."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.model import Candidate
from autofix.renames import rename_move

FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "zz-strategy": {"kind": "value", "type": "str", "choices": ["zigzag", "interleave"]},
}
HISTORY_FREE = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")


def _labels(args: dict[str, object]) -> list[str]:
    move = rename_move(Candidate.build({"model-path": "/m", **args}), HISTORY_FREE)
    assert move is not None
    return [f"{e.op.value} {e.target} {e.value}" for e in move.edits]


def test_a_carried_value_the_new_choices_refuse_becomes_the_meant_choice() -> None:
    labels = _labels({"zz-strategie": "interleaved"})
    assert labels == ["rename zz-strategie zz-strategy", "set zz-strategy interleave"], labels


def test_a_carried_value_among_the_choices_is_kept() -> None:
    assert _labels({"zz-strategie": "zigzag"}) == ["rename zz-strategie zz-strategy"]
