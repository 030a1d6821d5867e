"""vLLM as a target, pure parts: JSON-key edits, the base's target, validation inference on the
real captures, vLLM journals (root cause above the engine-core wrapper), /metrics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autofix.catalog import load_catalog
from autofix.classify import classify, engine_of
from autofix.config import parse_base
from autofix.errors import ConfigError
from autofix.gates import spec_accept_length
from autofix.model import Candidate, Edit, EditOp, Gate, Move
from autofix.repair import apply, propose
from autofix.tracebacks import parse_text
from autofix.validation import parse_errors
from bench.vllm_cases import CORPUS, base_candidate, fix_move, load_captures, load_cases

from .conftest import DATA

VLLM = load_catalog(family="vllm")
SPEC = '{"method": "eagle3", "model": "/m/d", "num_speculative_token": 3}'


def test_set_key_edits_one_key_and_keeps_the_rest_in_order() -> None:
    """set_key changes one key of a JSON-valued flag; the others and their order stay."""
    base = Candidate.build({"model": "/m", "speculative-config": SPEC})
    child = apply(base, Move((Edit(EditOp.SET_KEY, "speculative-config", 4, key="num_speculative_token"),)))
    assert json.loads(str(child.arg("speculative-config"))) == {
        "method": "eagle3",
        "model": "/m/d",
        "num_speculative_token": 4,
    }
    assert list(json.loads(str(child.arg("speculative-config")))) == ["method", "model", "num_speculative_token"]


def test_drop_key_of_the_last_key_drops_the_flag() -> None:
    """Removing the only key leaves no empty JSON object behind: the flag goes."""
    base = Candidate.build({"model": "/m", "compilation-config": '{"mode": 7}'})
    child = apply(base, Move((Edit(EditOp.DROP_KEY, "compilation-config", key="mode"),)))
    assert not child.has("compilation-config")


def test_set_key_on_a_value_that_is_not_json_changes_nothing() -> None:
    """A key move cannot apply to a flag that holds no JSON object."""
    base = Candidate.build({"model": "/m", "speculative-config": "method=ngram"})
    assert apply(base, Move((Edit(EditOp.SET_KEY, "speculative-config", 3, key="x"),))) == base


def test_key_edits_round_trip_through_json_and_label() -> None:
    """The store keeps moves as JSON: a key edit comes back equal, its label names flag.key."""
    edit = Edit(EditOp.SET_KEY, "speculative-config", 3, key="num_speculative_tokens")
    assert Edit.from_json(edit.to_json()) == edit
    assert edit.label() == "set_key speculative-config.num_speculative_tokens=3"
    assert Edit(EditOp.DROP_KEY, "compilation-config", key="mode").label() == "drop_key compilation-config.mode"


def test_a_base_written_with_a_mapping_reaches_vllm_as_one_json_argument() -> None:
    """`speculative-config: {method: ...}` in YAML is one JSON argv value; the target is told by the module."""
    config = parse_base(
        "launch:\n  module: vllm.entrypoints.cli.main\n  args:\n    model: /m\n"
        "    speculative-config: {method: eagle3, model: /d, num_speculative_tokens: 3}\n"
    )
    assert config.target == "vllm"
    assert config.unit == "vllm-sglang"
    assert config.launch.subcommand == ("serve",)
    assert config.base.argv() == [
        "--model",
        "/m",
        "--speculative-config",
        '{"method": "eagle3", "model": "/d", "num_speculative_tokens": 3}',
    ]
    assert "speculative-config.method" in config.search.pinned


def test_a_target_that_contradicts_the_module_is_refused() -> None:
    """target: vllm with an SGLang launch.module is bad input naming the key."""
    with pytest.raises(ConfigError, match="target"):
        parse_base("target: vllm\nlaunch:\n  module: sglang.launch_server\n  args: {model-path: /m}\n")


def test_a_pinned_json_key_is_never_changed() -> None:
    """speculative-config.method pinned: no move rewrites the method, even the nearest choice."""
    text = (CORPUS / "captures" / "spec-method-misspelled.txt").read_text()
    case = next(c for c in load_cases() if c["id"] == "spec-method-misspelled")
    journal = parse_text(text)
    diagnosis = classify(journal, VLLM, Gate.PREFLIGHT, package="vllm")
    base = base_candidate(case)
    free = propose(base, diagnosis, VLLM, pinned=["model"])
    pinned = propose(base, diagnosis, VLLM, pinned=["model", "speculative-config.method"])
    assert any(e.key == "method" for p in free for e in p.move.edits)
    assert not any(e.key == "method" for p in pinned for e in p.move.edits)


def test_pydantic_errors_are_read_with_class_field_and_constraint() -> None:
    """The ValidationError text: class, field, constraint kind and the input value."""
    text = (CORPUS / "captures" / "max-num-seqs-zero.txt").read_text()
    root = parse_text(text).root_cause()
    assert root is not None
    errors = parse_errors(root.message)
    assert [(e.config, e.field, e.kind) for e in errors] == [
        ("SchedulerConfig", "max_num_batched_tokens", "greater_than_equal"),
        ("SchedulerConfig", "max_num_seqs", "greater_than_equal"),
    ]


CAPTURED = [c for split in ("dev", "heldout") for c in load_captures(split)]


@pytest.mark.parametrize("capture", CAPTURED, ids=[c["id"] for c in CAPTURED])
def test_every_real_capture_gets_a_root_cause_and_a_move(capture: dict[str, object]) -> None:
    """Each real vLLM 0.33.0 failure: the root cause is vLLM's exception (not the probe's
    frames), it is told as vLLM's journal, and at least one move is proposed for its argv."""
    split = "heldout" if str(capture["id"]).startswith("h-") else "dev"
    case = next(c for c in load_cases(split) if c["id"] == capture["id"])
    text = (CORPUS / "captures" / f"{capture['id']}.txt").read_text()
    journal = parse_text(text)
    diagnosis = classify(journal, VLLM, Gate.PREFLIGHT, package="vllm")
    # argparse's own error (usage line, SystemExit 2) is the subject, as for SGLang.
    expected = "argparse_error" if capture["exception"] == "SystemExit" else capture["exception"]
    assert diagnosis.failure.exception == expected
    if diagnosis.subject.traceback is not None and capture["exception"] != "SystemExit":
        assert engine_of(journal) == "vllm"
    proposals = propose(base_candidate(case), diagnosis, VLLM, pinned=["model"])
    if capture["id"] == "h-compile-custom-ops-syntax":
        return  # a known gap: the message lists templates ('+op'), not values
    assert proposals, f"no move for {capture['id']}: {diagnosis.failure.title[:200]}"


@pytest.mark.parametrize(
    ("case_id", "first"),
    [
        (
            "spec-key-misspelled",
            "drop_key speculative-config.num_speculative_token; set_key speculative-config.num_speculative_tokens=3",
        ),
        ("tp-3-qwen3", "set tensor-parallel-size=2"),
        ("max-len-over-llama3", "set max-model-len=8192"),
        ("gpu-util-percent", "set gpu-memory-utilization=0.9"),
        ("compile-mode-out-of-range", "set_key compilation-config.mode=3"),
        ("spec-not-json", 'set speculative-config={"method": "ngram", "num_speculative_tokens": 3}'),
    ],
)
def test_first_move_is_the_operators_fix(case_id: str, first: str) -> None:
    """For failures whose message says exactly what holds, the first move is that."""
    case = next(c for c in load_cases() if c["id"] == case_id)
    journal = parse_text((CORPUS / "captures" / f"{case_id}.txt").read_text())
    diagnosis = classify(journal, VLLM, Gate.PREFLIGHT, package="vllm")
    proposals = propose(base_candidate(case), diagnosis, VLLM, pinned=["model"])
    assert proposals[0].move.label() == first
    assert fix_move(case).edits  # the case's verified fix is data too


SIM_JOURNALS = DATA / "vllm-sim"


@pytest.mark.parametrize(
    ("name", "exception", "cls"),
    [
        ("flashinfer-sm120-tp2.log", "ValueError", "vllm-gpu-attention-backend"),
        ("kv-below-max-len.log", "ValueError", "vllm-memory-kv-below-max-len"),
        ("no-cache-blocks.log", "ValueError", "vllm-memory-no-cache-blocks"),
    ],
)
def test_root_cause_stands_above_the_engine_core_wrapper(name: str, exception: str, cls: str) -> None:
    """A failed vLLM start prints the worker's (or engine core's) error, then
    'WorkerProc initialization failed' and 'Engine core initialization failed. See root cause
    above': the classifier takes the first, for every rank."""
    journal = parse_text((SIM_JOURNALS / name).read_text())
    diagnosis = classify(journal, VLLM, Gate.START, package="vllm")
    assert diagnosis.failure.exception == exception
    assert "Engine core initialization failed" not in diagnosis.failure.message
    assert diagnosis.failure.class_id == cls


def test_kv_sizing_takes_the_length_vllm_estimates() -> None:
    """'the estimated maximum model length is N': the first move sets --max-model-len N."""
    journal = parse_text((SIM_JOURNALS / "kv-below-max-len.log").read_text())
    diagnosis = classify(journal, VLLM, Gate.START, package="vllm")
    base = Candidate.build({"model": "/models/Qwen3-32B", "gpu-memory-utilization": "0.75"})
    first = propose(base, diagnosis, VLLM, pinned=["model"])[0]
    assert first.move.label() == "set max-model-len=12288"


def test_sglang_journals_are_not_read_as_vllm() -> None:
    """The SGLang captures stay SGLang's: no vLLM class in their catalogue, their engine told apart."""
    sglang = load_catalog()
    assert not any(c.id.startswith("vllm-") for c in sglang.classes)
    text = (
        next(Path(DATA / "sglang-0.5.23").glob("*.txt")).read_text()
        if list(Path(DATA / "sglang-0.5.23").glob("*.txt"))
        else ""
    )
    if text:
        assert engine_of(parse_text(text)) == "sglang"


def test_accept_length_from_vllm_metrics() -> None:
    """1 + accepted / drafts, summed over label sets; None before any draft."""
    text = (
        "# TYPE vllm:spec_decode_num_drafts_total counter\n"
        'vllm:spec_decode_num_drafts_total{engine="0",model_name="m"} 10.0\n'
        'vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} 15.0\n'
        'vllm:spec_decode_num_accepted_tokens_created{engine="0",model_name="m"} 1.7e9\n'
    )
    assert spec_accept_length(text) == 2.5
    assert spec_accept_length("vllm:spec_decode_num_drafts_total 0.0\n") is None
    assert spec_accept_length("") is None


def test_a_traceback_logged_through_vllms_logger_is_read() -> None:
    """The engine core logs its traceback with `ERROR 10-15 08:32:29 [core.py:708] ` on every
    line (after the process prefix): the frames are read through it, so the failing frame is
    vLLM's KV-cache check, not the re-raise in run_engine_core."""
    journal = parse_text((DATA / "vllm-journals" / "engine-core-logged-traceback.log").read_text())
    diagnosis = classify(journal, VLLM, Gate.START, package="vllm")
    assert diagnosis.failure.class_id == "vllm-memory-no-cache-blocks"
    assert diagnosis.failure.frame is not None
    assert diagnosis.failure.frame.function == "check_enough_kv_cache_memory"
