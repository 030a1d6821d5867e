"""Issue 14 round 37c, written before the change: a size that splits the TP ranks into groups
(expert parallelism inside TP, like attention DP: the catalogue's ``splits`` facts) held
under a floor ("assert ep_size > 1" under --enable-eplb) is raised to the whole it splits
(EP over all TP ranks, the layout operators and SGLang's own DeepEP path use), not to the
smallest size that passes (EP 2 of TP 8). With no whole given, the bound's edge stays.
The tracebacks are ours, in the shape of SGLang's bare asserts; no class is used."""

from __future__ import annotations

from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .proposing import BARE

BARE_ASSERT = """Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/server_args.py", line 2101, in _handle_toy_balancer
    assert self.ep_size > 1
AssertionError
"""


def _labels(args: dict[str, object]) -> list[str]:
    diagnosis = classify(parse_text(BARE_ASSERT), BARE, Gate.PREFLIGHT)
    found = propose(Candidate.build({"model-path": "/m", **args}), diagnosis, BARE, pinned=("model-path",))
    return [p.move.label() for p in found]


def test_a_split_size_under_its_floor_takes_the_whole_it_splits() -> None:
    labels = _labels({"tp-size": "8", "enable-eplb": True})
    assert labels[0] == "set ep-size=8", labels


def test_without_the_whole_the_floor_is_the_edge() -> None:
    labels = _labels({"enable-eplb": True})
    assert labels[0] == "set ep-size=2", labels


DP_FLOOR = """Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/server_args.py", line 410, in __post_init__
    assert self.dp_size > 1, "Please set a dp-size > 1. You can use 1 < dp-size <= tp-size."
AssertionError: Please set a dp-size > 1. You can use 1 < dp-size <= tp-size.
"""


def _floor_labels(args: dict[str, object]) -> list[str]:
    diagnosis = classify(parse_text(DP_FLOOR), BARE, Gate.PREFLIGHT)
    found = propose(Candidate.build({"model-path": "/m", **args}), diagnosis, BARE, pinned=("model-path",))
    return [p.move.label() for p in found]


def test_dp_attention_groups_under_their_floor_take_all_of_tp() -> None:
    """Round 37j: with --enable-dp-attention the DP groups are carved out of the TP ranks
    (the ``gpu_shares`` switch), so a DP size raised past its floor takes all of TP, one
    attention DP rank per GPU (DeepEP's layout), before the smallest size that passes."""
    labels = _floor_labels({"tp-size": "8", "enable-dp-attention": True})
    assert labels[0] == "set dp-size=8", labels


def test_dp_replicas_under_their_floor_are_not_sized_from_tp() -> None:
    """Without DP attention a DP size counts replicas of the whole server, not groups of
    TP: nothing says they should number tp."""
    labels = _floor_labels({"tp-size": "8"})
    assert labels[:1] != ["set dp-size=8"], labels
