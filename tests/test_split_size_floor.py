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
