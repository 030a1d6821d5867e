"""Classification and fingerprints on real captures; the catalogue as data."""

from __future__ import annotations

import re

import pytest

from autofix.catalog import load_catalog, parse_catalog
from autofix.classify import classify
from autofix.errors import CatalogError
from autofix.model import Gate
from autofix.tracebacks import parse_text

from .conftest import CAPTURES, load_cases

CATALOG = load_catalog()
CASES = {c["id"]: c for c in load_cases()}


def diagnose(case_id: str, text: str | None = None, gate: Gate = Gate.PREFLIGHT):  # type: ignore[no-untyped-def]
    return classify(parse_text(text or CASES[case_id]["traceback"]), CATALOG, gate)


def test_seed_failure_is_the_incomplete_eagle_params_class() -> None:
    """The seed's bare AssertionError is recognised by its frame and source line."""
    d = diagnose("spec-eagle3-draft-tokens-topk-without-steps")
    assert d.failure.class_id == "spec-eagle-params-incomplete"
    assert d.failure.frame is not None and d.failure.frame.function == "_handle_eagle_family"
    assert "Traceback (most recent call last):" in d.failure.evidence
    assert "DeepSeek MTP does not require" in d.failure.evidence


def test_fingerprint_is_stable_across_paths_lines_and_journal_forms() -> None:
    """Install path, line numbers, timestamps and PIDs do not change the fingerprint."""
    text = CASES["spec-eagle3-draft-tokens-topk-without-steps"]["traceback"]
    moved = text.replace("/opt/sglang/.venv/lib/python3.11/site-packages", "/usr/lib/python3/dist-packages")
    moved = re.sub(r"line (\d+)", lambda m: f"line {int(m.group(1)) + 17}", moved)
    moved = moved.replace("2026-12-02 11:51:02", "2027-01-01 00:00:00")
    journal = "\n".join(f"May 25 19:34:29 gpu python[4242]: {line}" for line in moved.splitlines())
    fp = diagnose("x", text).failure.fingerprint
    assert diagnose("x", moved).failure.fingerprint == fp
    assert diagnose("x", journal).failure.fingerprint == fp


def test_fingerprint_differs_for_different_assertion_sites() -> None:
    """Two bare asserts in different places (or the same function) fingerprint differently."""
    seed = diagnose("spec-eagle3-draft-tokens-topk-without-steps").failure.fingerprint
    tp = diagnose("par-tp-not-divisible-by-attn-dp").failure.fingerprint
    eplb = diagnose("par-eplb-without-ep").failure.fingerprint
    assert len({seed, tp, eplb}) == 3


def test_argparse_error_is_classified_by_its_error_line() -> None:
    """An argparse failure's subject is the 'error: argument --x: invalid choice' line."""
    d = diagnose("argparse-kv-cache-dtype-fp8")
    assert d.subject.exception in ("argparse.ArgumentError", "argparse_error")
    assert "invalid choice: 'fp8'" in d.failure.message


def test_runtime_signal_classes_match_without_a_python_traceback() -> None:
    """NCCL WARN lines and port-in-use lines classify with no traceback at all."""
    nccl = "[2026-05-25 19:34:29 TP0] gpu:1:1 [0] NCCL WARN Invalid value BOGUS for NCCL_PROTO\n"
    d = classify(parse_text(nccl), CATALOG, Gate.START)
    assert d.failure.class_id == "nccl-invalid-env"
    assert d.groups["var"] == "NCCL_PROTO"
    port = "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30001): address already in use\n"
    assert classify(parse_text(port), CATALOG, Gate.START).failure.class_id == "port-in-use"


@pytest.mark.parametrize("fault", ["Aborted", "Bus error", "Floating point exception"])
def test_faulthandlers_report_of_a_native_crash_is_the_failure_not_its_thread_dumps(fault: str) -> None:
    """faulthandler prints 'Fatal Python error: X' and then every thread's stack without a
    Traceback header: the report is the failure (a native crash); a CUDA error above it
    says why, and wins."""
    dumps = (
        "Thread 0x00007f00 (most recent call first):\n"
        '  File "/usr/lib/python3.12/threading.py", line 359 in wait\n'
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/managers/scheduler.py", line 901 in event_loop\n'
    )
    alone = classify(
        parse_text(
            f"frame #3: <unknown function> + 0x1f (0x7f in libc.so.6)\n\nFatal Python error: {fault}\n\n{dumps}"
        ),
        CATALOG,
        Gate.START,
    )
    assert alone.subject.message == f"Fatal Python error: {fault}"
    assert alone.failure.class_id == "segfault"
    cuda = "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    first = classify(parse_text(f"{cuda}Fatal Python error: {fault}\n\n{dumps}"), CATALOG, Gate.START)
    assert "illegal memory access" in first.subject.message


def test_unmatched_failure_is_unclassified_with_a_fingerprint() -> None:
    """A failure no class matches still gets a fingerprint and its frame."""
    d = diagnose("val-sampling-mask-max-tokens-zero")
    assert d.failure.class_id is None
    assert len(d.failure.fingerprint) == 16
    assert d.failure.frame is not None and d.failure.frame.function == "validate_sampling_mask_max_tokens"


def test_catalogue_check_rejects_bad_data() -> None:
    """Unknown keys, bad regexes, malformed moves and duplicate ids are refused."""
    good = "classes:\n  - id: a\n    match: {exception: ValueError}\n    moves: [{drop: x}]\n"
    parse_catalog({"ok.yaml": good})
    bad = {
        "unknown key": "classes:\n  - id: a\n    match: {exception: X}\n    colour: red\n",
        "bad regex": "classes:\n  - id: a\n    match: {message: '('}\n",
        "unknown op": "classes:\n  - id: a\n    match: {exception: X}\n    moves: [{explode: x}]\n",
        "not a valid name": "classes:\n  - id: a\n    match: {exception: X}\n    moves: [{drop: 'a b'}]\n",
        "no named group": "classes:\n  - id: a\n    match: {exception: X}\n    moves: [{unset_env: {match: v}}]\n",
    }
    for words, text in bad.items():
        with pytest.raises(CatalogError, match=words):
            parse_catalog({"bad.yaml": text})
    with pytest.raises(CatalogError, match="duplicate class id"):
        parse_catalog({"a.yaml": good, "b.yaml": good})


def test_shipped_catalogue_loads() -> None:
    """strategies/*.yaml validate and cover the seed chain and the runtime failures."""
    ids = {c.id for c in CATALOG.classes}
    assert {
        "spec-eagle-params-incomplete",
        "spec-topk-paged-backend",
        "cuda-oom-load",
        "nccl-invalid-env",
        "port-in-use",
    } <= ids
    assert (CAPTURES / "cases.jsonl").exists()
