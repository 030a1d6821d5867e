"""Repair moves: curated from the catalogue, inferred from messages and assert sources."""

from __future__ import annotations

from autofix.catalog import load_catalog, parse_catalog
from autofix.choices import closest_choices
from autofix.classify import classify
from autofix.model import Candidate, EditOp, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .conftest import argv_to_args, load_cases

CATALOG = load_catalog()
CASES = {c["id"]: c for c in load_cases()}
PINNED = ("model-path", "tp", "speculative-algorithm", "speculative-draft-model-path")


def proposals(case_id: str, catalog=CATALOG):  # type: ignore[no-untyped-def]
    case = CASES[case_id]
    candidate = Candidate.build(argv_to_args(case["argv"]))
    d = classify(parse_text(case["traceback"]), catalog, Gate.PREFLIGHT)
    return candidate, propose(candidate, d, catalog, pinned=PINNED)


def test_seed_first_move_is_num_steps_from_draft_tokens() -> None:
    """The seed's class sets num-steps = draft tokens - 1, which is the verified fix."""
    _, props = proposals("spec-eagle3-draft-tokens-topk-without-steps")
    first = props[0]
    assert first.move.label() == "set speculative-num-steps=2"
    assert not first.move.inferred and first.move.origin == "spec-eagle-params-incomplete"
    assert first.child.arg("speculative-num-steps") == "2"
    assert first.child.arg("speculative-eagle-topk") == "4"
    assert [p.rank for p in props] == list(range(len(props)))
    # Inferred moves come after curated ones.
    flags = [p.move.inferred for p in props]
    assert flags == sorted(flags)


def test_pinned_flags_are_never_touched() -> None:
    """A move on a pinned flag is dropped; pinning ``tp`` also covers ``tp-size``."""
    case = CASES["spec-unknown-algorithm-mtp"]
    candidate = Candidate.build(argv_to_args(case["argv"]))
    d = classify(parse_text(case["traceback"]), CATALOG, Gate.PREFLIGHT)
    free = propose(candidate, d, CATALOG, pinned=())
    assert free[0].move.label() == "set speculative-algorithm=NEXTN"
    pinned = propose(candidate, d, CATALOG, pinned=PINNED)
    assert all(e.target != "speculative-algorithm" for p in pinned for e in p.move.edits)

    catalog = parse_catalog(
        {
            "t.yaml": "aliases: {tp: tp-size}\nclasses:\n  - id: c\n    match: {exception: AssertionError}\n"
            "    moves: [{set: {tp-size: 4}}, {set: {attn-dp-size: 4}}]\n"
        }
    )
    tp_case = CASES["par-tp-not-divisible-by-attn-dp"]
    tp_d = classify(parse_text(tp_case["traceback"]), catalog, Gate.PREFLIGHT)
    written_tp = Candidate.build({"model-path": "/m", "tp": 3, "attn-dp-size": 2})
    free_tp = propose(written_tp, tp_d, catalog)
    assert free_tp[0].move.label() == "set tp=4"  # the candidate's own spelling
    pinned_tp = propose(written_tp, tp_d, catalog, pinned=("tp-size",))
    assert pinned_tp[0].move.label() == "set attn-dp-size=4"
    assert all(e.target not in ("tp", "tp-size") for p in pinned_tp for e in p.move.edits)


def test_alias_spelling_is_kept() -> None:
    """A move on tp-size edits the candidate's own spelling (--tp) when it is not pinned."""
    case = CASES["moe-flashinfer-cutlass-ep-mismatch"]
    args = argv_to_args(case["argv"])
    candidate = Candidate.build(args)
    d = classify(parse_text(case["traceback"]), CATALOG, Gate.PREFLIGHT)
    props = propose(candidate, d, CATALOG, pinned=())
    assert props[0].move.label() == "set ep-size=4"


def test_inferred_moves_without_a_catalogue() -> None:
    """With the catalogue off, the message and the assert expression still suggest fixes."""
    bare = CATALOG.without_classes()
    _, props = proposals("spec-rejection-sampling-topk4", bare)
    assert props[0].move.inferred and props[0].move.label() == "set speculative-eagle-topk=1"
    _, props = proposals("kv-lmcache-with-disable-radix", bare)
    assert any(p.move.label() == "drop disable-radix-cache" for p in props) or props
    _, props = proposals("spec-eagle3-topk-only-llama", bare)
    # `and cfg.speculative_num_draft_tokens is None` -> nothing to drop (unset); no crash.
    assert all(p.move.inferred for p in props)


def test_argparse_invalid_choice_moves_to_the_closest_choice() -> None:
    """'invalid choice: fp8' proposes an fp8_* choice first."""
    _, props = proposals("argparse-kv-cache-dtype-fp8", CATALOG.without_classes())
    first = props[0].move
    assert first.edits[0].op is EditOp.SET and first.edits[0].target == "kv-cache-dtype"
    assert str(first.edits[0].value).startswith("fp8_")
    assert closest_choices("fp8", ["auto", "fp8_e5m2", "fp8_e4m3"])[:2] == ["fp8_e5m2", "fp8_e4m3"]


def test_scale_uses_the_resolved_value_when_the_flag_is_unset() -> None:
    """cuda-oom scales mem-fraction-static from what SGLang resolved at preflight."""
    oom = (
        "[2026-05-25 19:34:29 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/x/sglang/srt/model_executor/model_runner.py", line 1, in load_model\n'
        "    x()\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n"
    )
    d = classify(parse_text(oom), CATALOG, Gate.START)
    assert d.failure.class_id == "cuda-oom-load"
    candidate = Candidate.build({"model-path": "/m"})
    props = propose(candidate, d, CATALOG, resolved={"mem_fraction_static": 0.88})
    assert props[0].child.arg("mem-fraction-static") == "0.792"


def test_a_chain_without_steps_gets_its_steps_and_its_width_of_one_in_one_move() -> None:
    """Issue 14 round 36c, written before the change: draft tokens alone (no topk) ask for a
    chain, so steps = draft tokens - 1 comes with topk 1; without it the next attempt fails
    on the missing topk (the twenty-third fresh set's EAGLE-3 case took three attempts)."""
    case = CASES["spec-eagle3-draft-tokens-topk-without-steps"]
    args = {k: v for k, v in argv_to_args(case["argv"]).items() if k != "speculative-eagle-topk"}
    candidate = Candidate.build({**args, "speculative-num-draft-tokens": 6})
    d = classify(parse_text(case["traceback"]), CATALOG, Gate.PREFLIGHT)
    first = propose(candidate, d, CATALOG, pinned=PINNED)[0]
    assert first.move.label() == "set speculative-num-steps=5; set speculative-eagle-topk=1"


def test_the_failing_file_adds_moves_only_where_the_class_has_none_that_apply() -> None:
    """Issue 14 round 36m, written before the change: a class that matched and has a move
    for this candidate is the operator's answer, as before the search read the file for
    classed failures (36j); where none of its moves applies (its backend is not set), what
    the file says is all there is. (With both, a cheap move read off the file went before
    the curated one: 0.5.11's 'standalone ... does not support dp attention' dropped the
    algorithm.)"""
    catalog = parse_catalog(
        {"t.yaml": "classes:\n  - id: c\n    match: {exception: AssertionError}\n    moves: [{drop: toy-backend}]\n"}
    )
    source = "def check(cfg):\n    if cfg.toy_runner == 'cutlass':\n        assert cfg.ep_size == 1, 'toy'\n"
    text = (
        "Traceback (most recent call last):\n"
        '  File "/x/sglang/srt/toy.py", line 3, in check\n'
        "    assert cfg.ep_size == 1, 'toy'\n"
        "AssertionError: toy\n"
    )
    diagnosis = classify(parse_text(text), catalog, Gate.PREFLIGHT)
    with_backend = Candidate.build({"model-path": "/m", "toy-backend": "x", "toy-runner": "cutlass", "ep-size": 8})
    labels = [p.move.label() for p in propose(with_backend, diagnosis, catalog, source=source)]
    assert labels[0] == "drop toy-backend" and "drop toy-runner" not in labels
    without = Candidate.build({"model-path": "/m", "toy-runner": "cutlass", "ep-size": 8})
    labels = [p.move.label() for p in propose(without, diagnosis, catalog, source=source)]
    assert "drop toy-runner" in labels
