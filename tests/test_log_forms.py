"""Issue 14 round 27e, written before the change: more of the ways a journal is handed over.

* Terminal colours: ANSI escape sequences around a line or inside it (`docker compose logs`
  colours each service's prefix on a terminal; loggers colour their level words).
* Slurm's ``srun --label``: each line starts with the task's number (``0: ``), the way
  multi-node SGLang runs under Slurm print; tasks interleave like ranks.
* ``journalctl -o short-monotonic``: ``[ 1234.567890] host ident[pid]: ``.
* The container runtime's own log files: CRI (containerd / CRI-O, what
  /var/log/pods/*/*.log holds: ``<RFC 3339> stderr F <line>``) and Docker's json-file
  driver (``{"log": "<line>\\n", "stream": "stderr", "time": ...}``), and a log shipper's
  JSON lines (Google Cloud's ``textPayload``, Loki's ``line``, a structured logger's
  ``message`` beside its level).

These tests use their own pastes."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from autofix.classify import classify
from autofix.model import Gate
from autofix.tracebacks import parse_text

from .proposing import FULL, subject_of

_TRACEBACK = [
    "[2026-01-02 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/usr/lib/python3/dist-packages/sglang/srt/managers/scheduler.py", line 300, in run_scheduler_process',
    "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)",
    '  File "/usr/lib/python3/dist-packages/sglang/srt/model_executor/model_runner.py", line 400, in init_memory_pool',
    '    raise RuntimeError("Not enough memory. Please try to increase --mem-fraction-static.")',
    "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
    "",
    "[2026-01-02 10:00:01] Received sigquit from a child process. It usually means the child failed.",
]
_FAILURE = "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static."


def _json(key: str, **extra: str) -> Callable[[str], str]:
    return lambda line: json.dumps({key: line + ("\n" if key == "log" else ""), **extra})


FORMS: dict[str, Callable[[str], str]] = {
    "ansi colours around the line": lambda line: f"\x1b[31m{line}\x1b[0m" if line else line,
    "ansi colours on a compose prefix": lambda line: f"\x1b[36msglang-1  |\x1b[0m {line}",
    "srun --label": lambda line: f"0: {line}",
    "journalctl -o short-monotonic": lambda line: f"[ 1234.567890] gpu-node-3 python3[4242]: {line}",
    "CRI log file": lambda line: f"2026-01-02T10:00:00.123456789Z stderr F {line}",
    "docker json-file": _json("log", stream="stderr", time="2026-01-02T10:00:00.123456789Z"),
    "google cloud textPayload": _json("textPayload", severity="ERROR"),
    "loki line": _json("line"),
    "structured logger message": _json("message", level="error"),
}


@pytest.mark.parametrize("form", list(FORMS))
def test_the_traceback_is_read_in_every_form(form: str) -> None:
    _assert_traceback_read("\n".join(FORMS[form](line) for line in _TRACEBACK) + "\n")


def _assert_traceback_read(paste: str) -> None:
    """The subject is the traceback's exception with its frames, not a line quoting it."""
    subject = classify(parse_text(paste), FULL, Gate.START).subject
    assert f"{subject.exception}: {subject.message}" == _FAILURE
    assert subject.traceback is not None
    assert [f.function for f in subject.traceback.frames] == ["run_scheduler_process", "init_memory_pool"]


def test_srun_tasks_interleaved_keep_their_own_tracebacks() -> None:
    first, second = _TRACEBACK[:3], _TRACEBACK[3:6]
    lines = [f"1: {first[0]}", f"0: {first[0]}"]
    lines += [f"{task}: {line}" for line in first[1:] for task in (0, 1)]
    lines += [f"{task}: {line}" for line in second for task in (0, 1)]
    _assert_traceback_read("\n".join(lines) + "\n")


def test_a_json_line_of_the_servers_own_output_is_not_unwrapped_into_something_else() -> None:
    paste = (
        '$ curl localhost:30000/generate -d \'{"text": "hi"}\'\n'
        '{"object": "error", "message": "The input (70000 tokens) is longer than the model\'s context length (40960).", '
        '"type": "BadRequestError", "code": 400}\n'
    )
    assert "is longer than the model's context length (40960)" in subject_of(paste)


# Round 27j, written before the change: Python's exception groups (3.11+; anyio's task groups
# under SGLang's HTTP server print them) nest each sub-exception's traceback behind "| "
# margins and "+-+---- 1 ----" separators. The group only says its task group failed: the
# sub-exception, read as an ordinary traceback, is the failure.

_GROUP = """[2026-01-02 10:00:00] ERROR:    Exception in ASGI application
  + Exception Group Traceback (most recent call last):
  |   File "/usr/lib/python3/dist-packages/starlette/_utils.py", line 76, in collapse_excgroups
  |     yield
  |   File "/usr/lib/python3/dist-packages/anyio/_backends/_asyncio.py", line 772, in __aexit__
  |     raise BaseExceptionGroup(
  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/usr/lib/python3/dist-packages/sglang/srt/entrypoints/http_server.py", line 500, in generate_request
    |     ret = await _global_state.tokenizer_manager.generate_request(obj, request).__anext__()
    |   File "/usr/lib/python3/dist-packages/sglang/srt/managers/tokenizer_manager.py", line 900, in _validate_one_request
    |     raise ValueError(
    | ValueError: The input (70000 tokens) is longer than the model's context length (40960 tokens).
    +------------------------------------
"""


def test_the_sub_exception_of_an_exception_group_is_the_failure() -> None:
    subject = classify(parse_text(_GROUP), FULL, Gate.START).subject
    assert subject.exception == "ValueError"
    assert subject.message == "The input (70000 tokens) is longer than the model's context length (40960 tokens)."
    assert subject.traceback is not None
    assert [f.function for f in subject.traceback.frames] == ["generate_request", "_validate_one_request"]


def test_a_markdown_table_keeps_its_pipes() -> None:
    paste = (
        "| --mem-fraction-static | CUDA OOM? |\n"
        "| 0.9 | RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB |\n"
    )
    assert "CUDA out of memory" in subject_of(paste)
