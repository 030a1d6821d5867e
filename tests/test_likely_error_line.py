"""Issue 14 round 11, written before the change: a paste with no traceback and no failure
line the reader knows (an issue's prose, a JSON error body, a launcher's rank prefix, a
hang described in words) still holds the line an operator would point at. Offline, that
line is the subject, ranked by how much failure it states, instead of "the process failed
and left no traceback". Inside a search (where the executor knows the process timed out or
exited) the executor's own account stays the subject.

The pastes are written for these tests, in the shapes users paste.
"""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.tracebacks import failure_evidence, parse_text

from .proposing import subject_of

CATALOG = load_catalog()

TEMPLATE = """### Checklist

- [x] 1. I have searched related issues but cannot get the expected help.
- [x] 2. The bug has not been fixed in the latest version.
- [x] 3. Please note that if the bug-related issue you submitted lacks environment info, it will be closed.

### Describe the bug
"""


def test_a_hang_told_in_words_is_the_subject() -> None:
    text = (
        TEMPLATE
        + "With --tp 4 the server gets stuck at NCCL initialization and never prints ready.\n"
        + "[2026-01-03 10:00:01] server_args=ServerArgs(model_path='m', tp_size=4)\n"
        + "[2026-01-03 10:00:09 TP0] Init torch distributed begin.\n"
    )
    assert "stuck at NCCL initialization" in subject_of(text)


def test_an_api_error_body_is_the_subject() -> None:
    text = (
        "I raised the context in config.json but requests still fail:\n\n"
        '{"object":"error","message":"Requested 90000 tokens, which exceeds the maximum context length '
        'of 32768 tokens.","type":"BadRequestError","code":400}\n\n'
        "How can I fix it?\n"
    )
    assert "exceeds the maximum context length" in subject_of(text)


def test_a_launchers_rank_prefix_does_not_hide_the_error_line() -> None:
    text = (
        "3: [W103 11:02:17 socket.cpp:204] [c10d] The hostname of the client socket cannot be retrieved.\n"
        "3: torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/2 clients joined.\n"
        "3: Exception raised from waitForWorkers at ../torch/csrc/distributed/c10d/TCPStore.cpp:190\n"
    )
    assert "Timed out after 601 seconds waiting for clients" in subject_of(text)


def test_the_strongest_statement_wins_and_the_earliest_of_equals() -> None:
    text = (
        "WARNING: the tokenizer could not find a chat template; using the default one.\n"
        "The first request ran out of memory on GPU 1 (CUDA out of memory during prefill).\n"
        "After that every request fails with a connection error.\n"
    )
    assert "ran out of memory on GPU 1" in subject_of(text)


def test_a_paste_that_states_no_failure_keeps_the_unknown_subject() -> None:
    text = TEMPLATE + "The throughput is lower than I expected with --tp 2. Is this normal?\n"
    assert subject_of(text).startswith("UnknownFailure")


def test_inside_a_search_the_executors_account_stays_the_subject() -> None:
    text = "The first request ran out of memory on GPU 1.\n"
    subject = classify(parse_text(text), CATALOG, Gate.READY, fallback=("Timeout", "not ready after 600 s")).subject
    assert (subject.exception, subject.message) == ("Timeout", "not ready after 600 s")


def test_evidence_is_scored_by_the_failure_a_line_states() -> None:
    assert failure_evidence("Traceback printed above; the scheduler crashed with an illegal memory access") > (
        failure_evidence("the run failed")
    )
    assert failure_evidence("- [x] 1. I have searched related issues but cannot get the expected help.") == 0
    assert failure_evidence('  File "/x/sglang/srt/managers/scheduler.py", line 10, in run') == 0
    assert failure_evidence("Throughput is 3,000 tokens/s at batch 64") == 0
