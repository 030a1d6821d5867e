"""Issue 14 round 39, written before the change (0.4.10.post2-first/third and 0.5.23-
twenty-third, in sample, carry it).

SGLang asks for --speculative-num-steps whenever the EAGLE width or draft tokens are given.
For a chain (topk 1) the steps are the draft tokens less one: SGLang itself makes the draft
tokens steps + 1 then. A tree (topk 8, 64 draft tokens, SGLang's EAGLE docs) is not 63
steps deep: every step is a draft forward pass, and the documented trees are 5 deep at
most. The steps are the draft tokens less one, at most 5."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import Diagnosis, Subject
from autofix.model import Candidate, Failure, Frame, Gate
from autofix.repair import propose

CATALOG = load_catalog()


def _first(args: dict[str, object]) -> str:
    candidate = Candidate.build({"model-path": "/m", "speculative-algorithm": "EAGLE", **args})
    frame = Frame(file="/x/sglang/srt/server_args.py", line=900, function="__post_init__", source="assert (")
    failure = Failure(Gate.PREFLIGHT, "spec-eagle-params-incomplete", "f", "AssertionError", "")
    cls = next(c for c in CATALOG.classes if c.id == "spec-eagle-params-incomplete")
    diagnosis = Diagnosis(failure, Subject("AssertionError", "", frame), cls)
    proposals = propose(candidate, diagnosis, CATALOG)
    return proposals[0].move.label()


def test_a_tree_is_at_most_five_steps_deep() -> None:
    assert "set speculative-num-steps=5" in _first(
        {"speculative-eagle-topk": "8", "speculative-num-draft-tokens": "64"}
    )


def test_a_chain_is_draft_tokens_less_one() -> None:
    assert "set speculative-num-steps=3" in _first({"speculative-eagle-topk": "1", "speculative-num-draft-tokens": "4"})
