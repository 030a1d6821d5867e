"""Issue 14 round 14, written before the change: a server that crashed at run time, whose
failure text names a feature by its switch's words ("the overlap scheduler", "DP attention",
"custom allreduce"), is relaunched with that feature off when it is on: a switch the user
turned on is dropped, a feature on by default gets its disable- switch. After what a
matched class knows; a feature already off, or named by one word only, is no move; at
preflight the reading stays out (a validation refusal has its own readings). These tests
use their own messages."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .proposing import proposed

CATALOG = load_catalog()


def labels(
    args: dict[str, object], message: str, gate: Gate = Gate.START, exception: str = "RuntimeError"
) -> list[str]:
    _, found = proposed(args, exception, message, gate=gate, catalog=CATALOG)
    return [p.move.label() for p in found]


def test_a_default_on_feature_named_at_run_time_is_switched_off() -> None:
    got = labels({"tp-size": "2"}, "illegal memory access in the overlap scheduler's result thread")
    assert got and got[0] == "set disable-overlap-schedule=True", got


def test_the_words_match_in_other_forms() -> None:
    # "scheduling" for schedule, "allreduce" for all-reduce
    got = labels({}, "overlap scheduling produced a batch of the wrong size")
    assert "set disable-overlap-schedule=True" in got, got
    got = labels({"tp-size": "8"}, "custom allreduce kernel hung after 300 s", gate=Gate.READY)
    assert got and got[0] == "set disable-custom-all-reduce=True", got


def test_a_feature_the_user_turned_on_is_dropped() -> None:
    got = labels(
        {"enable-dp-attention": True, "dp-size": "2", "tp-size": "2"},
        "shape mismatch while gathering hidden states for DP attention",
        gate=Gate.SMOKE,
    )
    # (round 37p: the two DP groups lived inside TP 2 and go with the switch; as replicas
    # they would ask for four GPUs)
    assert got and got[0] == "drop enable-dp-attention; drop dp-size", got


def test_a_feature_that_is_off_is_no_move() -> None:
    # torch.compile is off unless asked for; the user turned CUDA graphs off already
    got = labels({"disable-cuda-graph": True}, "torch compile cache was corrupt; cuda graph replay skipped")
    assert "drop enable-torch-compile" not in got
    assert not any(label.startswith("set enable-torch-compile") for label in got)
    assert "set disable-cuda-graph=True" not in got


def test_a_feature_of_one_word_is_not_read() -> None:
    # (the last resort may still drop it for the shared word: that reading says so)
    _, found = proposed({"enable-metrics": True}, "RuntimeError", "metrics exporter thread died", gate=Gate.START)
    assert all(p.move.origin == "words" for p in found), [(p.move.label(), p.move.origin) for p in found]


def test_a_matched_class_keeps_its_moves_first() -> None:
    journal = parse_text(
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/srt/model_executor/cuda_graph_runner.py", line 300, in capture\n'
        "    graph.replay()\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. Capture cuda graph failed\n"
    )
    candidate = Candidate.build({"model-path": "/m", "tp-size": "2"})
    diagnosis = classify(journal, CATALOG, Gate.START)
    assert diagnosis.failure_class is not None
    found = [p.move.label() for p in propose(candidate, diagnosis, CATALOG, pinned=("model-path",))]
    assert found and found[0].startswith(("set mem-fraction-static", "set cuda-graph-max-bs")), found


def test_at_preflight_the_reading_stays_out() -> None:
    got = labels({}, "custom allreduce needs at least two GPUs", gate=Gate.PREFLIGHT, exception="ValueError")
    assert "set disable-custom-all-reduce=True" not in got, got
