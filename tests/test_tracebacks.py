"""The journal parser on real SGLang captures and their journal renderings."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from autofix.tracebacks import JournalParser, parse, parse_stream, parse_text

from .conftest import CAPTURES, load_cases

CASES = load_cases()


def journal_short(text: str, pid: int = 67732) -> str:
    """Render stderr as `journalctl -o short` would show it."""
    return "\n".join(f"May 25 19:34:29 dflash-train python[{pid}]: {line}" for line in text.splitlines())


def journal_json(text: str, pid: int = 67732) -> str:
    return "\n".join(
        json.dumps({"MESSAGE": line, "_PID": str(pid), "SYSLOG_IDENTIFIER": "python"}) for line in text.splitlines()
    )


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
@pytest.mark.parametrize("form", ["raw", "short", "json"])
def test_root_cause_of_every_capture(case: dict[str, object], form: str) -> None:
    """Every real capture yields its exception type and innermost SGLang frame, in every form."""
    text = str(case["traceback"])
    rendered = {"raw": text, "short": journal_short(text), "json": journal_json(text)}[form]
    root = parse_text(rendered).root_cause()
    assert root is not None
    expected = case["innermost_sglang_frame"]
    assert isinstance(expected, dict)
    if case["exception_type"] == "SystemExit":
        # argparse raises ArgumentError internally; SystemExit is its noise.
        assert root.exc_type == "argparse.ArgumentError"
        return
    assert root.exc_type == case["exception_type"]
    sglang_frames = [f for f in root.frames if "/sglang/" in f.file]
    assert sglang_frames[-1].function == expected["function"]
    assert sglang_frames[-1].line == expected["line"]
    assert sglang_frames[-1].file.endswith(str(expected["file"]))
    assert " ".join(root.message.split()).startswith(" ".join(str(case["message"]).split())[:60])


def test_seed_bare_assert_keeps_source_and_preceding_log_lines() -> None:
    """The seed's bare AssertionError keeps its source line and SGLang's log lines before it."""
    text = (CAPTURES / "tracebacks" / "spec-eagle3-draft-tokens-topk-without-steps.log").read_text()
    root = parse_text(text).root_cause()
    assert root is not None and root.exc_type == "AssertionError" and root.message == ""
    assert root.innermost is not None
    assert root.innermost.source == "and cfg.speculative_num_draft_tokens is None"
    assert any("DeepSeek MTP does not require" in line for line in root.preceding)


def test_interleaved_ranks_pick_the_first_failing_rank_not_the_wrapper() -> None:
    """Eight ranks interleaved in journal form: TP3's exception wins over the parent's wrapper."""
    lines = []
    for i in range(20):
        for rank in range(8):
            lines.append(
                json.dumps(
                    {"MESSAGE": f"[2026-05-25 19:34:{i:02d} TP{rank}] Load weight step {i}", "_PID": str(100 + rank)}
                )
            )
    tb3 = [
        "[2026-05-25 19:35:00 TP3] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py", line 10, in run_scheduler_process',
        "    scheduler = Scheduler(server_args, port_args)",
        '  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/srt/model_executor/model_runner.py", line 99, in load_model',
        "    self.model = get_model(...)",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
    ]
    tb5 = [line.replace("TP3", "TP5") for line in tb3]
    # TP3's and TP5's lines interleave, as separate journal entries per PID.
    for a, b in zip(tb3, tb5, strict=True):
        lines.append(json.dumps({"MESSAGE": a, "_PID": "103"}))
        lines.append(json.dumps({"MESSAGE": b, "_PID": "105"}))
    lines += [
        json.dumps(
            {
                "MESSAGE": "[2026-05-25 19:35:01] Received sigquit from a child process. It usually means the child failed.",
                "_PID": "99",
            }
        ),
        json.dumps({"MESSAGE": "Traceback (most recent call last):", "_PID": "99"}),
        json.dumps(
            {
                "MESSAGE": '  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/srt/entrypoints/engine.py", line 5, in _launch',
                "_PID": "99",
            }
        ),
        json.dumps(
            {"MESSAGE": "RuntimeError: Rank 0 scheduler died during initialization (exit code: 1).", "_PID": "99"}
        ),
    ]
    journal = parse_text("\n".join(lines))
    assert len(journal.tracebacks) == 3
    root = journal.root_cause()
    assert root is not None
    assert root.exc_type == "torch.OutOfMemoryError" and root.rank == "TP3"
    assert [f.function for f in root.frames] == ["run_scheduler_process", "load_model"]


def test_chained_exception_keeps_the_cause() -> None:
    """'The above exception was the direct cause' links both; the original is the root."""
    text = "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "/x/sglang/a.py", line 1, in f',
            "    g()",
            "KeyError: 'k'",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "Traceback (most recent call last):",
            '  File "/x/sglang/b.py", line 2, in h',
            "    raise ValueError('bad') from e",
            "ValueError: bad",
        ]
    )
    journal = parse_text(text)
    assert len(journal.tracebacks) == 1
    head = journal.tracebacks[0]
    assert head.exc_type == "ValueError" and head.cause is not None and head.cause.exc_type == "KeyError"
    assert journal.root_cause() is not None and journal.root_cause().exc_type == "KeyError"  # type: ignore[union-attr]


def test_truncated_traceback_and_failure_lines_survive() -> None:
    """A traceback cut off by journald and non-Python failure lines are still reported."""
    text = "\n".join(
        [
            "May 25 19:34:29 h python[1]: Traceback (most recent call last):",
            'May 25 19:34:29 h python[1]:   File "/x/sglang/a.py", line 1, in f',
            "May 25 19:34:29 h systemd-journald[9]: Suppressed 1234 messages from sglang.service",
            "May 25 19:34:30 h python[2]: NCCL WARN Invalid NCCL_PROTO value BOGUS",
            "May 25 19:34:31 h systemd[1]: sglang.service: Main process exited, code=killed, status=9/KILL",
        ]
    )
    journal = parse_text(text)
    assert journal.tracebacks and journal.tracebacks[0].truncated
    kinds = [s.kind for s in journal.signals]
    assert "nccl_warn" in kinds and "killed" in kinds


def test_json_message_as_byte_array() -> None:
    """journald writes non-UTF-8 MESSAGE fields as byte arrays; they still parse."""
    line = json.dumps({"MESSAGE": list(b"RuntimeError: CUDA error: \xff bad"), "_PID": "4"})
    journal = parse_text("Traceback (most recent call last):\n" + line)
    assert any(s.kind == "cuda_error" for s in journal.signals)


def test_parser_memory_is_bounded(tmp_path: Path) -> None:
    """Thousands of tracebacks keep at most the cap, and the count of the rest."""
    tb = 'Traceback (most recent call last):\n  File "/x/sglang/a.py", line 1, in f\nValueError: x\n'
    journal = parse_text(tb * 1000)
    assert len(journal.tracebacks) == 200
    assert journal.dropped_tracebacks == 800


def _summary(journal):  # type: ignore[no-untyped-def]
    return (
        [(tb.exc_type, tb.message, tb.frames, tb.rank, tb.preceding, tb.truncated) for tb in journal.tracebacks],
        [(s.kind, s.line) for s in journal.signals],
        journal.lines,
    )


@pytest.mark.parametrize("case", CASES[::7], ids=[c["id"] for c in CASES[::7]])
def test_block_mode_line_mode_and_tiny_chunks_agree(case: dict[str, object]) -> None:
    """The fast block scan finds exactly what the line-by-line reading finds."""
    text = journal_json(str(case["traceback"])) + "\n" + journal_short(str(case["traceback"]), pid=7) + "\n"
    by_line = parse(io.StringIO(text))
    by_block = parse_text(text)
    parser = JournalParser()
    data = text.encode()
    for i in range(0, len(data), 97):
        parser.feed_bytes(data[i : i + 97])
    assert _summary(by_line) == _summary(by_block) == _summary(parser.result())


def test_stream_parsing_of_a_big_file_is_bounded(tmp_path: Path) -> None:
    """A journal of many MB parses block by block with the root cause found at the end."""
    info = "[2026-05-25 19:34:29 TP1] Decode batch. #running-req: 12, #token: 34567, gen throughput (token/s): 812.45\n"
    tb = (CAPTURES / "tracebacks" / "par-tp-not-divisible-by-attn-dp.log").read_text()
    path = tmp_path / "big.log"
    with open(path, "w") as fh:
        for _ in range(60):
            fh.write(info * 1000)
        fh.write(tb)
    with open(path, "rb") as fh:
        journal = parse_stream(fh)
    root = journal.root_cause()
    assert root is not None and root.exc_type == "AssertionError"
    assert journal.lines == 60_000 + tb.count("\n")


def test_value_error_whose_text_starts_with_warning() -> None:
    """'ValueError: Warning: …' is an exception, not one of the UserWarning lines before it."""
    text = "\n".join(
        [
            "/opt/x/sglang/srt/layers/quantization/awq/awq.py:53: UserWarning: Only CUDA, HIP and XPU support AWQ currently.",
            '  warnings.warn(f"Only CUDA, HIP and XPU support AWQ currently.")',
            "Traceback (most recent call last):",
            '  File "/opt/x/sglang/srt/multimodal/processors/base_processor.py", line 1207, in process',
            "    raise ValueError(",
            "ValueError: Warning: More image data items provided than corresponding tokens found in the prompt.",
        ]
    )
    root = parse_text(text).root_cause()
    assert root is not None and root.exc_type == "ValueError"
    assert root.message.startswith("Warning: More image data items")
