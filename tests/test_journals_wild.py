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
from .proposing import subject_of

CATALOG = load_catalog()
TB = """Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2009, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 269, in __init__
    raise Exception(
Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 448.00 MiB."""


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


def test_markdown_quoted_journal_is_read_like_plain() -> None:
    """A log quoted in an issue comment ("> " before every line, "> > " when nested)."""
    for quote in ("> ", ">", "> > "):
        text = "\n".join(quote + line for line in TB.splitlines())
        root = parse_text(text).root_cause()
        assert root is not None and root.exc_type == "Exception", quote
        assert root.innermost is not None and root.innermost.source == "raise Exception("


def test_ray_lines_joined_into_one_are_taken_apart() -> None:
    """A web page's copy of a Ray worker's log: every line on one, each behind its prefix."""
    ray = "(SGLangWorker pid=38138) "
    joined = "Capturing batches (bs=64): 0%| | 0/11 " + " ".join(ray + line.strip() for line in TB.splitlines())
    root = parse_text(joined).root_cause()
    assert root is not None and root.exc_type == "Exception"
    assert "Capture cuda graph failed" in root.message and len(root.frames) == 2
    assert root.innermost is not None and root.innermost.source == "raise Exception("


def test_a_lone_ray_prefix_at_the_end_of_a_line_is_a_prefix() -> None:
    text = "(SGLangWorker pid=7) RuntimeError: boom (SGLangWorker pid=7)"
    root = parse_text(text).root_cause()
    assert root is not None and root.exc_type == "RuntimeError" and root.message == "boom"


@pytest.mark.parametrize(
    ("text", "exception", "message"),
    [
        # after text in another script, no space between
        (
            "SGlang部署失败Exception: Capture cuda graph failed: no kernel image",
            "Exception",
            "Capture cuda graph failed: no kernel image",
        ),
        # in backticks inside a sentence: the message ends at the closing backtick
        (
            "it stops with `ValueError: Loaded weights leave no GPU memory for the KV cache` at 0.9",
            "ValueError",
            "Loaded weights leave no GPU memory for the KV cache",
        ),
        ("a module path too: `torch.cuda.OutOfMemoryError: boom`", "torch.cuda.OutOfMemoryError", "boom"),
    ],
)
def test_an_exception_quoted_in_prose_is_the_subject_when_nothing_else_is(
    text: str, exception: str, message: str
) -> None:
    d = classify(parse_text(text), CATALOG, Gate.START)
    assert (d.subject.exception, d.subject.message) == (exception, message)


@pytest.mark.parametrize(
    "text",
    [
        "the job ended. Error: 3 retries",  # a bare "Error:" names no exception
        "see my_Error: x",  # the name's last part must start upper-case
        "abcRuntimeError: x",  # glued to an ASCII word: no boundary
    ],
)
def test_prose_without_a_quoted_exception_gives_none(text: str) -> None:
    """No exception is read from it; the line itself may still be the paste's likeliest
    failure line (round 11: a paste no reading explains)."""
    d = classify(parse_text(text), CATALOG, Gate.START)
    assert d.subject.exception in ("UnknownFailure", "error_line")


def test_a_real_traceback_beats_an_exception_quoted_in_prose() -> None:
    text = "users report `ValueError: bad` sometimes\n" + TB
    d = classify(parse_text(text), CATALOG, Gate.START)
    assert d.subject.exception == "Exception" and "Capture cuda graph failed" in d.subject.message


def test_exception_chains_of_any_length_keep_the_original_and_bounded_memory() -> None:
    """A chain nested 500 deep: the first exception (the root cause) stays, the middle goes."""
    from autofix.tracebacks import MAX_CHAIN

    link = TB.replace("Exception: Capture cuda graph failed", "ValueError: link {n}") + "\n\n"
    link += "During handling of the above exception, another exception occurred:\n\n"
    text = "".join(link.format(n=n) for n in range(500)) + TB
    journal = parse_text(text)
    assert len(journal.tracebacks) == 1
    head = journal.tracebacks[0]
    chain = head.chain_list()
    assert len(chain) == MAX_CHAIN
    assert head.original.message.startswith("link 0:")
    assert chain[0].exc_type == "Exception" and chain[1].message.startswith("link 499:")


def test_past_the_traceback_cap_failure_lines_still_count() -> None:
    """200 tracebacks kept, the rest counted; a failure line after them is still a signal."""
    from autofix.tracebacks import MAX_TRACEBACKS

    tb = 'Traceback (most recent call last):\n  File "a.py", line 1, in f\nValueError: x\n'
    text = tb * (MAX_TRACEBACKS + 50) + "Killed\n"
    journal = parse_text(text)
    assert len(journal.tracebacks) == MAX_TRACEBACKS and journal.dropped_tracebacks == 50
    assert journal.first_signal("killed") is not None


FAMILIES, REAL = load()
# Every round is guarded now that round 11's engine is frozen (issue 14 round 11); a later
# round joins only after its own engine is frozen, its misses listed below then.
GUARDED = REAL
# Real logs whose root cause the engine misses, as measured (bench/runtime_logs.py): left,
# not tuned for. strict: a case found later must leave here. Round 7's were measured after
# the round's engine change was frozen (issue 14 round 7), and are left for the next round.
MISSES = {
    "sglang-1522": "dev: prose naming three errors; the first quoted is not the cause",
    "sglang-36528": "round 7: prose only, the missing method named in backticks in a list, cut mid-word",
    "sglang-6218": "round 9: prose, a title or a template without the error line (after the freeze, not tuned on)",
    "sglang-4747": "round 9: prose, a title or a template without the error line (after the freeze, not tuned on)",
    "sglang-7495": "round 9: prose, a title or a template without the error line (after the freeze, not tuned on)",
    "sglang-13202": "round 9: prose, a title or a template without the error line (after the freeze, not tuned on)",
    "sglang-pr28914": "round 7: an assertion quoted in backticks in a pull request's numbered list",
    "sglang-23865": "round 10: measured after the round's engine was frozen (d8ba6c2), not tuned on",
    "sglang-pr8016": "round 10: measured after the round's engine was frozen (d8ba6c2), not tuned on",
    "angelslim-16": "round 10: measured after the round's engine was frozen (d8ba6c2), not tuned on",
    "sglang-18943": "round 11: measured after the round's engine was frozen (ce58d01), not tuned on",
    "sglang-7338": "round 13: measured after the round-14 engine was frozen (37e2c6d), not tuned on",
    "sglang-23769": "round 13: measured after the round-14 engine was frozen (37e2c6d), not tuned on",
    "kvcached-5": "round 13: measured after the round-14 engine was frozen (37e2c6d), not tuned on",
    "sglang-199": "round 13: measured after the round-14 engine was frozen (37e2c6d), not tuned on",
    "sglang-3547": "round 13: measured after the round-14 engine was frozen (37e2c6d), not tuned on",
    "sglang-4968": "round 13: measured after the round-14 engine was frozen (37e2c6d), not tuned on",
    "sglang-pr11275": "round 13: measured after the round-14 engine was frozen (37e2c6d), not tuned on",
    "sglang-1485": "round 14: measured after the round-15 engine was frozen (7c1af7e), not tuned on",
    "sglang-1473": "round 14: measured after the round-15 engine was frozen (7c1af7e), not tuned on",
    "sglang-3467": "round 14: measured after the round-15 engine was frozen (7c1af7e), not tuned on",
    "sglang-6875": "round 14: measured after the round-15 engine was frozen (7c1af7e), not tuned on",
    "sglang-25682": "round 14: measured after the round-15 engine was frozen (7c1af7e), not tuned on",
    "sglang-9142": "round 14: measured after the round-15 engine was frozen (7c1af7e), not tuned on",
    "sglang-1030": "round 15: measured after the round-16 engine was frozen (7029983), not tuned on",
    "sglang-pr6744": "round 15: measured after the round-16 engine was frozen (7029983), not tuned on",
    "sglang-7903": "round 15: measured after the round-16 engine was frozen (7029983), not tuned on",
    "sglang-4574": "round 15: measured after the round-16 engine was frozen (7029983), not tuned on",
    "sglang-3724": "round 15: measured after the round-16 engine was frozen (7029983), not tuned on",
    "sglang-5372": "round 16: measured after the round-19 engine was frozen (0c76b00), not tuned on",
    "sglang-1310": "round 16: measured after the round-19 engine was frozen (0c76b00), not tuned on",
    "sglang-18004": "round 16: measured after the round-19 engine was frozen (0c76b00), not tuned on",
    "sglang-14282": "round 16: measured after the round-19 engine was frozen (0c76b00), not tuned on",
    "sglang-pr30642": "round 16: measured after the round-19 engine was frozen (0c76b00), not tuned on",
    "sglang-21935": "round 16: measured after the round-19 engine was frozen (0c76b00), not tuned on",
    "sglang-7478": "round 16: measured after the round-19 engine was frozen (0c76b00), not tuned on",
    "sglang-7511": "round 17: measured after the round-20b engine was frozen (4450225), not tuned on",
    "sglang-2312": "round 17: measured after the round-20b engine was frozen (4450225), not tuned on",
    "sglang-4171": "round 17: measured after the round-20b engine was frozen (4450225), not tuned on",
    "sglang-27487": "round 17: measured after the round-20b engine was frozen (4450225), not tuned on",
    "sglang-pr5014": "round 17: measured after the round-20b engine was frozen (4450225), not tuned on",
    "sglang-3315": "round 17: measured after the round-20b engine was frozen (4450225), not tuned on",
    "sglang-pr1498": "round 17: measured after the round-20b engine was frozen (4450225), not tuned on",
    "sglang-12676": "round 18: measured after the round-21 engine was frozen (a206a63), not tuned on",
    "sglang-pr3430": "round 18: measured after the round-21 engine was frozen (a206a63), not tuned on",
    "sglang-25649": "round 18: measured after the round-21 engine was frozen (a206a63), not tuned on",
    "sglang-pr599": "round 18: measured after the round-21 engine was frozen (a206a63), not tuned on",
    "sglang-33858": "round 18: measured after the round-21 engine was frozen (a206a63), not tuned on",
    "sglang-3283": "round 19: measured after the round-25a engine was frozen (b14f2ee), not tuned on",
    "sglang-14365": "round 19: measured after the round-25a engine was frozen (b14f2ee), not tuned on",
    "sglang-105": "round 19: measured after the round-25a engine was frozen (b14f2ee), not tuned on",
    "sglang-6778": "round 19: measured after the round-25a engine was frozen (b14f2ee), not tuned on",
    "sglang-26248": "round 19: measured after the round-25a engine was frozen (b14f2ee), not tuned on",
    "sglang-5389": "round 19: measured after the round-25a engine was frozen (b14f2ee), not tuned on",
    "sglang-13538": "round 19: measured after the round-25a engine was frozen (b14f2ee), not tuned on",
    "sglang-14496": "round 19: measured after the round-25a engine was frozen (b14f2ee), not tuned on",
    "sglang-4257": "round 20: measured after the round-25d engine was frozen (674f5d0), not tuned on",
    "therock-7700": "round 20: measured after the round-25d engine was frozen (674f5d0), not tuned on",
    "sglang-pr7187": "round 20: measured after the round-25d engine was frozen (674f5d0), not tuned on",
    "sglang-836": "round 20: measured after the round-25d engine was frozen (674f5d0), not tuned on",
    "sglang-958": "round 20: measured after the round-25d engine was frozen (674f5d0), not tuned on",
    "sglang-868": "round 20: measured after the round-25d engine was frozen (674f5d0), not tuned on",
    "areal-140": "round 21: measured after the round-26a engine was frozen (bc07aa9), not tuned on",
    "sglang-12134": "round 21: measured after the round-26a engine was frozen (bc07aa9), not tuned on",
    "sglang-23141": "round 21: measured after the round-26a engine was frozen (bc07aa9), not tuned on",
    "uccl-935": "round 21: measured after the round-26a engine was frozen (bc07aa9), not tuned on",
    "sglang-8324": "round 22: measured after the round-26b engine was frozen (81bc1bc), not tuned on",
    "sglang-10819": "round 22: measured after the round-26b engine was frozen (81bc1bc), not tuned on",
    "lmcache-2084": "round 24: measured after the round-27e engine was frozen (c1b9e28), not tuned on",
    "sglang-12464": "round 24: measured after the round-27e engine was frozen (c1b9e28), not tuned on",
    "sglang-docs-ascend-faq": "round 24: measured after the round-27e engine was frozen (c1b9e28), not tuned on",
    "gpustack-3345": "round 26: measured after the round-28c engine was frozen (9ccfff5), not tuned on",
    "ktransformers-1676": "round 26: measured after the round-28c engine was frozen (9ccfff5), not tuned on",
    "sglang-11546": "round 27: measured after the round-28e engine was frozen (c2b964e), not tuned on",
    "sglang-6843": "round 28: measured after the round-29a engine was frozen (c6fc4c3), not tuned on",
    "gitcode-6ca7e6d8": "round 29: measured after the round-30b engine was frozen (01381db), not tuned on",
    "phillipring-ktransformers-2039": "round 30: measured after the round-30f engine was frozen (3f76e41), not tuned on",
    "al-engr-sglang-deepseek-spark-pivot": "round 30: measured after the round-30f engine was frozen (3f76e41), not tuned on",
    # The same user's same paste shape as round 31's sglang-15235, labelled the other way:
    # 31b reads "Exit code: -9" (the kill) where this label names "scheduler is dead" above it.
    "gpustack-3848": "round 31b reads the exit code -9 under the line this label names",
    "gitcode-02a94e2c": "round 35: measured after the round-33 engine was frozen (09bd515), not tuned on",
    "sglang-8654": "round 40: measured after the round-37c engine was frozen (4d7eeb3), not tuned on",
    "sglang-26324": "round 42: measured after the round-38a bench (6cfa77d, engine 59ea74f), not tuned on",
    "sglang-pr27832": "round 45: measured on the round-39b engine (d71b529), not tuned on",
    "sglang-33356": "round 47: measured on the round-39b engine (d71b529), not tuned on",
    "sglang-29646": "round 48: measured on the round-40a engine (006a3ee), not tuned on",
    "sglang-38022": "round 50: measured on the round-40a engine (006a3ee), not tuned on",
    "sglang-pr31653": "round 51: measured on the round-41 start engine (1075adb), not tuned on",
    "sglang-pr15675": "round 53: measured on the round-41 start engine (1075adb), not tuned on",
    "sglang-7639": "round 55: measured on round 42a-d's engine (234b431), not tuned on",
    "sglang-25491": "round 56: measured on round 42a-d's engine (234b431), not tuned on",
    "sglang-pr30355": "round 56: measured on round 42a-d's engine (234b431), not tuned on",
    "sglang-pr39629": "round 57: measured on round 43a-c's engine (eeb5681), not tuned on",
    "sglang-pr29485": "round 57: measured on round 43a-c's engine (eeb5681), not tuned on",
    "sglang-pr40648": "round 57: measured on round 43a-c's engine (eeb5681), not tuned on",
    "sglang-26454": "round 57: measured on round 43a-c's engine (eeb5681), not tuned on",
    "sglang-7602": "round 57: measured on round 43a-c's engine (eeb5681), not tuned on",
    "sglang-4497": "round 58: measured on round 43a-d's engine (b3000f4), not tuned on",
    "sglang-8931": "round 60: measured on round 44a-b's engine (322f109), not tuned on",
    "sglang-24413": "round 61: measured on round 44a-b's engine (322f109), not tuned on",
    "sglang-pr11401": "round 61: measured on round 44a-b's engine (322f109), not tuned on",
    "sglang-34740": "round 61: measured on round 44a-b's engine (322f109), not tuned on",
    "sglang-pr11328": "round 61: measured on round 44a-b's engine (322f109), not tuned on",
    "sglang-24283": "round 61: measured on round 44a-b's engine (322f109), not tuned on",
    "sglang-29725": "round 62: measured on round 44a-b's engine (322f109), not tuned on",
    "sglang-12382": "round 63: measured on round 45a's engine (edae998), not tuned on",
    "sglang-2706": "round 64: measured on round 45a's engine (edae998), not tuned on",
    "sglang-jax-1273": "round 66: measured on round 45's engine (7d6dfc6), not tuned on",
    "sglang-36802": "round 67: measured on round 45's engine (7d6dfc6), not tuned on",
    "dynamo-pr9230": "round 71: measured on round 46's engine (6da43c2), not tuned on",
    "sglang-20230": "round 69: measured on round 47a's engine (d2e9023), not tuned on",
    "sglang-36550": "round 70: measured on round 47a's engine (d2e9023), not tuned on",
    "sglang-39216": "round 70: measured on round 47a's engine (d2e9023), not tuned on",
    "sglang-18201": "round 73: measured on round 47's engine (1f92d2d), not tuned on",
    "sglang-5096": "round 73: measured on round 47's engine (1f92d2d), not tuned on",
    "sglang-26715": "round 72: measured on round 47's engine (1f92d2d), not tuned on",
    "nixl-pr1991": "round 74: measured on round 47's engine (1f92d2d), not tuned on",
    "sglang-pr27667": "round 74: measured on round 47's engine (1f92d2d), not tuned on",
}


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=MISSES[c.id])) if c.id in MISSES else c
        for c in GUARDED
    ],
    ids=[c.id for c in GUARDED],
)
def test_real_log_root_cause(case: object) -> None:
    """Every real log of the corpus: the classifier's subject holds the thread's first real error."""
    from bench.runtime_logs import Case

    assert isinstance(case, Case)
    assert case.root.lower() in subject_of(case.text).lower()


def test_corpus_split_is_the_hash_rule() -> None:
    """Before round 3 the held-out part is whatever the URL hash says (both parts non-empty);
    rounds 3 to 15 are each their own frozen split; a case the engine was tuned on is
    development."""
    from bench.runtime_logs import TUNED_ON

    older = [c for c in REAL if c.round < 3 and c.id not in TUNED_ON]
    held = {c.id for c in older if hashlib.sha256(c.url.encode()).hexdigest()[0] in HELD_OUT_DIGITS}
    assert held == {c.id for c in older if c.split == "heldout"}
    assert 0 < len(held) < len(older)
    newest = 74  # the newest round: it also holds any later one until that round joins
    for r in range(3, newest + 1):
        in_round = [c for c in REAL if (c.round >= r if r == newest else c.round == r) and c.id not in TUNED_ON]
        assert all(c.split == f"round{r}" for c in in_round), r
    assert all(any(c.round == r for c in REAL) for r in (6, 7, 8, 9, 10))
    assert all(c.split == "dev" for c in REAL if c.id in TUNED_ON)


# --- shapes of round 3's real logs (issue 14): each a form that recurs in pasted logs ---

CUT_TB = """[2025-06-13 09:59:00 TP2] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2506, in run_scheduler_process
    scheduler.event_loop_normal()
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 664, in event_loop_normal
    result = self.run_batch("""


def subject_both_ways(text: str) -> str:
    """The subject read in block mode, after checking that line mode reads the same."""
    from autofix.tracebacks import parse

    block = classify(parse_text(text), CATALOG, Gate.START).subject
    line = classify(parse(text.splitlines()), CATALOG, Gate.START).subject
    assert (block.exception, block.message) == (line.exception, line.message)
    return f"{block.exception}: {block.message}"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("triton.runtime.errors.OutOfResources", True),  # triton's: neither Error nor Exception
        ("torch._dynamo.exc.Unsupported", True),
        ("jinja2.exceptions.TemplateSyntaxError", True),
        ("sglang.srt.Server", False),  # a module path and a class, but no exceptions module
        ("errors.lowercase", False),
    ],
)
def test_a_class_of_an_exceptions_module_is_an_exception_line(name: str, expected: bool) -> None:
    text = f"{name}: out of resource: shared memory, Required: 147456, Hardware limit: 101376.\n"
    assert subject_both_ways(text).startswith(name) is expected


@pytest.mark.parametrize(
    "lone",
    [
        "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072",
        "AssertionError: Committed KV cache already freed (self.kv_committed_len=1)",
    ],
)
def test_a_lone_exception_line_explains_a_traceback_cut_above_its_own(lone: str) -> None:
    """Users paste the error, then the traceback cut before its exception line: the first
    says what failed, the second only where."""
    assert subject_both_ways(f"{lone}\n\n{CUT_TB}\n") == lone


def test_a_cloud_log_viewers_severity_and_timestamp_are_a_prefix() -> None:
    prefix = "ERROR 2026-06-15T14:10:59.392125190Z "
    text = "\n".join(prefix + line.strip() for line in TB.splitlines())
    journal = parse_text(text)
    root = journal.root_cause()
    assert root is not None and root.exc_type == "Exception" and len(root.frames) == 2
    assert root.innermost is not None and root.innermost.source == "raise Exception("


@pytest.mark.parametrize(
    ("line", "kind", "root"),
    [
        (
            "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1500: indexSelectSmallIndex: block: [32,0,0], "
            "thread: [63,0,0] Assertion `srcIndex < srcSelectDimSize` failed.",
            "device_assert",
            "srcIndex < srcSelectDimSize",
        ),
        (
            "CUDA error (_deps/repo-flashmla-src/csrc/smxx/get_mla_metadata.cu:93): no kernel image is "
            "available for execution on the device",
            "cuda_error",
            "no kernel image is available",
        ),
        (
            "[rank4]:[E421 02:05:38.764490322 ProcessGroupGloo.cpp:143] Gloo connectFullMesh failed with "
            "[../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error",
            "torch_error",
            "Gloo connectFullMesh failed",
        ),
        (
            "[2025-07-02 07:41:59 DP0 TP0] max_total_tokens=131072 is larger than the profiled value -561981. "
            "Use the profiled value instead.",
            "kv_budget_negative",
            "profiled value -561981",
        ),
    ],
)
def test_native_failure_lines_before_a_cut_traceback_are_the_subject(line: str, kind: str, root: str) -> None:
    journal = parse_text(f"{line}\n{CUT_TB}\n")
    assert journal.first_signal(kind) is not None
    assert root in subject_both_ways(f"{line}\n{CUT_TB}\n")


def test_a_positive_profiled_budget_is_no_failure_line() -> None:
    text = "[2025-07-02 07:41:59 TP0] max_total_tokens=131072 is larger than the profiled value 56198. Use it.\n"
    assert parse_text(text).first_signal("kv_budget_negative") is None


def test_the_negative_kv_budget_is_a_kv_sizing_class() -> None:
    text = "[2025-07-02 07:41:59 TP0] max_total_tokens=131072 is larger than the profiled value -561981.\n"
    assert classify(parse_text(text), CATALOG, Gate.START).failure.class_id == "kv-pool-too-small"


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        (
            'once I disable radix cache there is an error reporting "Failed to allocate memory for '
            'batch_prefill_tmp_v with size 421134336 and alignment 16 in AlignedAllocator"',
            "Failed to allocate memory for batch_prefill_tmp_v",
        ),
        (
            'Sglang exit with error "triton out of resource: shared memory, Required: 163840"\n```\n'
            '  File "/x/triton/compiler/compiler.py", line 395, in __getattribute__\n    self.',
            "triton out of resource: shared memory",
        ),
        ("> the server crashed with `cudaErrorLaunchFailure: unspecified launch failure`", "unspecified launch"),
    ],
)
def test_an_error_quoted_in_prose_is_the_weakest_subject(text: str, quoted: str) -> None:
    assert quoted in subject_both_ways(text + "\n")


@pytest.mark.parametrize(
    "text",
    [
        'I launched it with "--tp 4 --mem-fraction-static 0.8" on two nodes',  # quoted, no failure word
        'the error went away after "pip install -U sglang"\nRuntimeError: boom',  # an exception line wins
    ],
)
def test_quotes_without_a_failure_or_beside_a_real_one_are_not_the_subject(text: str) -> None:
    subject = subject_both_ways(text + "\n")
    assert "pip install" not in subject and "--tp 4" not in subject


def test_an_exception_in_prose_counts_when_the_traceback_is_cut_above_its_own() -> None:
    """A cut traceback names no exception: prose that does is still heard."""
    text = "It fails with a `RuntimeError: invalid argument` in custom all-reduce.\n" + CUT_TB + "\n"
    assert subject_both_ways(text) == "RuntimeError: invalid argument"


def test_an_exceptions_module_class_is_found_in_a_block_after_other_names() -> None:
    """Block mode finds the module-named class past other names and look-alike modules
    ("versions.", "mirrors.") as line mode does."""
    noise = "".join(
        f"[2025-07-29 15:06:{n % 60:02d}] see versions.Foo: x and mirrors.Bar: y, ValueError: z\n" for n in range(300)
    )
    lone = "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 147456"
    assert subject_both_ways(f"{noise}{lone}\n") == lone
