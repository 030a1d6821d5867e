"""Journals as users hand them over (container prefixes, flat pastes, cut tracebacks, bare
failure lines), deep tracebacks and long lines; and the real logs of bench/corpus/real-logs.

Written before the parser learnt these forms: each asserts the root cause a reader finds.
"""

from __future__ import annotations

import hashlib

import pytest

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.tracebacks import MAX_LINE, parse_text
from bench.runtime_logs import HELD_OUT_DIGITS, load

from .conftest import DATA

CATALOG = load_catalog()
TB = """Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2009, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 269, in __init__
    raise Exception(
Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 448.00 MiB."""


def subject_of(text: str) -> str:
    d = classify(parse_text(text), CATALOG, Gate.START)
    return f"{d.subject.exception}: {d.subject.message}"


@pytest.mark.parametrize(
    ("form", "prefix"),
    [
        ("docker-compose", "sglang-1  | "),
        ("docker-compose, bracketed", "[sglang]     | "),
        ("docker --timestamps", "2026-04-12T21:16:41.762854908Z "),
        ("kubectl --prefix", "[pod/sglang-0/server] "),
        ("ray worker", "(SGLangEngine pid=952, ip=10.150.236.219) "),
    ],
)
def test_container_prefixes_are_stripped(form: str, prefix: str) -> None:
    """A traceback behind a container or orchestrator prefix is read like plain stderr."""
    text = "\n".join(prefix + line for line in TB.splitlines())
    journal = parse_text(text)
    root = journal.root_cause()
    assert root is not None, form
    assert root.exc_type == "Exception" and "Capture cuda graph failed" in root.message
    assert root.innermost is not None and root.innermost.function == "__init__"
    assert root.innermost.source == "raise Exception("


def test_flat_paste_keeps_frames_and_sources() -> None:
    """Frames pasted without their indentation (tmux, chat) still pair file and source."""
    flat = "\n".join(line.strip() for line in TB.splitlines())
    root = parse_text(flat).root_cause()
    assert root is not None and root.exc_type == "Exception"
    assert [f.line for f in root.frames] == [2009, 269]
    assert root.frames[0].source.startswith("scheduler = Scheduler(")
    assert root.frames[1].source == "raise Exception("


def test_traceback_cut_at_the_top() -> None:
    """Frames with no 'Traceback' header before them are still a traceback."""
    cut = "\n".join(TB.splitlines()[3:])
    root = parse_text(cut).root_cause()
    assert root is not None and root.exc_type == "Exception"
    assert root.innermost is not None and root.innermost.line == 269


def test_a_bare_exception_line_is_a_failure() -> None:
    """An exception line quoted alone (no frames) is the failure, not 'no traceback'."""
    text = "ValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.88.\n"
    assert subject_of(text).startswith("ValueError: Loaded weights leave no GPU memory")


def test_prose_is_not_an_exception_line() -> None:
    """Capitalised prose with a colon is no exception (only *Error / *Exception types are)."""
    assert parse_text("Note: this is fine\nSummary: all good\n").root_cause() is None


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("[2025-03-09 00:57:15 TP4] Watchdog timeout (self.watchdog_timeout=300)", "sglang_watchdog"),
        (
            "[rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE) ran for 600060 milliseconds before timing out.",
            "nccl_timeout",
        ),
        (
            "CUDA Error: an illegal memory access was encountered (700) /app/include/flashinfer/prefill.cuh",
            "cuda_error",
        ),
    ],
)
def test_timeouts_and_kernel_errors_are_failure_signals(line: str, kind: str) -> None:
    journal = parse_text(line + "\n")
    assert journal.first_signal(kind) is not None


def test_deep_traceback_keeps_its_innermost_frames() -> None:
    """Past the frame cap the outermost frames go, never the innermost; each frame keeps its own source."""
    seed = (DATA / "journals" / "sim-seed-assert.log").read_text()
    head, sep, rest = seed.partition('  File "<frozen runpy>", line 88, in _run_code\n')
    extra = "".join(f'  File "/opt/app/deep.py", line {n}, in f{n}\n    return f{n + 1}()\n' for n in range(195))
    deep = head + sep + extra + rest
    shallow_d = classify(parse_text(seed), CATALOG, Gate.PREFLIGHT)
    deep_d = classify(parse_text(deep), CATALOG, Gate.PREFLIGHT)
    assert deep_d.failure.class_id == shallow_d.failure.class_id == "spec-eagle-params-incomplete"
    root = parse_text(deep).root_cause()
    assert root is not None and root.innermost is not None
    assert root.innermost.function == "_handle_eagle_family"
    for frame in root.frames:
        if frame.file == "/opt/app/deep.py":
            assert frame.source == f"return f{frame.line + 1}()"


def test_very_deep_traceback_drops_middle_frames_only() -> None:
    frames = "".join(f'  File "/x.py", line {n}, in f{n}\n    g({n})\n' for n in range(5000))
    root = parse_text("Traceback (most recent call last):\n" + frames + "RecursionError: too deep\n").root_cause()
    assert root is not None and root.exc_type == "RecursionError"
    assert root.frames[0].line == 0 and root.frames[-1].line == 4999
    assert root.frames[-1].source == "g(4999)"
    assert root.omitted_frames == 5000 - len(root.frames)


def test_long_lines_are_cut_with_a_note() -> None:
    text = "x" * (MAX_LINE + 10) + "\nRuntimeError: boom\n"
    journal = parse_text(text)
    assert journal.cut_lines == 1
    assert any(str(MAX_LINE) in note for note in journal.notes)


FAMILIES, REAL = load()


@pytest.mark.parametrize("case", REAL, ids=[c.id for c in REAL])
def test_real_log_root_cause(case: object) -> None:
    """Every real log of the corpus: the classifier's subject holds the thread's first real error."""
    from bench.runtime_logs import Case

    assert isinstance(case, Case)
    assert case.root.lower() in subject_of(case.text).lower()


def test_corpus_split_is_the_hash_rule() -> None:
    """The held-out part is whatever the URL hash says, and both parts are non-empty."""
    held = {c.id for c in REAL if hashlib.sha256(c.url.encode()).hexdigest()[0] in HELD_OUT_DIGITS}
    assert held == {c.id for c in REAL if c.split == "heldout"}
    assert 0 < len(held) < len(REAL)
