"""What the operator sees: every line fits the terminal at 80 columns and up, shortened at
a word; the live line says attempt n/max, gate, elapsed/timeout, the load bar and the
run's time; off a terminal the same lines are plain and a long wait prints a line per
half minute."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from rich.console import Console

from autofix.events import AttemptDone, AttemptStarted, GateDone, GateProgress, Notice, RunStarted, shard_progress
from autofix.model import (
    Attempt,
    AttemptState,
    Candidate,
    Edit,
    EditOp,
    Failure,
    Gate,
    GateVerdict,
    Move,
    Run,
    RunStatus,
)
from autofix.search import Pick
from autofix.view import SearchView, bar, fit

LONG = (
    "ValueError: speculative_eagle_topk > 1 with page_size > 1 is only supported on ('flashinfer', 'fa3', "
    "'triton'); got attention_backend='trtllm_mla'. Use page_size == 1 or one of those backends."
)
NOW = datetime(2026, 12, 3, tzinfo=UTC)
RUN = Run(1, "k26-eagle3", "k26.yaml", "", "sim", "sim", RunStatus.RUNNING, NOW)


def test_fit_shortens_at_a_word_and_keeps_short_text() -> None:
    assert fit("short text", 80) == "short text"
    shortened = fit(LONG, 60)
    assert len(shortened) <= 60 and shortened.endswith("…")
    assert LONG.startswith(shortened[:-1].rstrip())  # a prefix of the words, cut between two
    assert LONG[len(shortened[:-1].rstrip())] in " ,;:'"  # ... at a word's end


def test_shard_progress_is_read_from_sglangs_loading_line() -> None:
    line = "Loading safetensors checkpoint shards:  45% Completed | 29/64 [00:10<00:12,  2.30it/s]"
    assert shard_progress(line) == (29, 64)
    assert shard_progress("Load weight end. type=DeepseekV3ForCausalLM") is None
    assert bar(29, 64, 10) == "█████░░░░░"


def _attempt(seq: int, state: AttemptState, failure: Failure | None = None) -> Attempt:
    return Attempt(seq, 1, seq, Candidate.build({"tp": 8}), None, None, state, NOW, NOW, failure=failure)


def _events() -> list[object]:
    move = Move((Edit(EditOp.SET, "speculative-num-steps", "2"),))
    failure = Failure(Gate.PREFLIGHT, "spec-topk-paged-backend", "f", "ValueError", LONG[12:])
    return [
        RunStarted(RUN, "0.5.23", True, max_attempts=12, started=0.0),
        AttemptStarted(_attempt(2, AttemptState.RUNNING), Pick(Candidate.build({}), None, move, 1)),
        GateDone(GateVerdict(Gate.PREFLIGHT, False, 0.01, LONG)),
        AttemptDone(_attempt(2, AttemptState.FAILED, failure), 3),
        Notice("a notice " + "with many words " * 12),
        GateProgress(Gate.READY, 12.3, "Loading safetensors checkpoint shards:  45% Completed | 29/64 [..]", 900.0),
    ]


@pytest.mark.parametrize("width", [80, 100, 160])
def test_every_line_fits_the_terminal(width: int) -> None:
    """No line is wider than the terminal: nothing wraps, words are not cut."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=False, color_system=None)
    view = SearchView(console, "sglang-k26-eagle3", clock=lambda: 83.0)
    for event in _events():
        view.on_event(event)  # type: ignore[arg-type]
    view.close()
    lines = buffer.getvalue().splitlines()
    assert lines and all(len(line) <= width for line in lines), [ln for ln in lines if len(ln) > width]
    assert any(line.startswith("#2/12 set speculative-num-steps=2") for line in lines)


def test_the_live_line_says_where_the_search_is() -> None:
    """Attempt n/max, gate, elapsed/timeout, the load as a bar of shards, the run's time."""
    console = Console(file=io.StringIO(), width=120, force_terminal=False, color_system=None)
    view = SearchView(console, "u", clock=lambda: 83.0)
    for event in _events():
        view.on_event(event)  # type: ignore[arg-type]
    line = view.status_line().plain
    assert line.startswith("#2/12  ready  12s/900s  ")
    assert "29/64 shards" in line and "█" in line and "run 1:23" in line
    assert len(line) <= 120


def test_off_a_terminal_progress_is_a_plain_line_now_and_then() -> None:
    """Piped: no live display, no escape codes; a long wait prints one line per 30 s."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, force_terminal=False, color_system=None)
    now = [0.0]
    view = SearchView(console, "u", clock=lambda: now[0])
    view.on_event(RunStarted(RUN, "0.5.23", True, max_attempts=12, started=0.0))
    for second in range(0, 95):
        now[0] = float(second)
        view.on_event(GateProgress(Gate.READY, float(second), "loading", 900.0))
    progress = [ln for ln in buffer.getvalue().splitlines() if " ready " in ln]
    assert len(progress) == 4  # at 0, 30, 60 and 90 s
    assert "\x1b" not in buffer.getvalue()


def test_the_end_says_what_changed_and_how_to_export() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, force_terminal=False, color_system=None)
    view = SearchView(console, "sglang-k26-eagle3", clock=lambda: 61.0)
    view.on_event(RunStarted(RUN, "0.5.23", True, max_attempts=12, started=0.0))

    class Result:
        run, attempts, launches = RUN, 3, 1
        winner = _attempt(3, AttemptState.PASSED)
        gave_up = ("--speculative-eagle-topk: 4 -> 1",)
        added = ("--speculative-num-steps 2",)

    view.summary(Result())
    text = buffer.getvalue()
    assert "PASSED run 1: attempt #3" in text and "1:01" in text
    assert "gave up: --speculative-eagle-topk: 4 -> 1" in text and "added: --speculative-num-steps 2" in text
    assert "export it: autofix export 1 -o sglang-k26-eagle3.service" in text


def test_the_bar_follows_the_shards_the_watch_saw_not_only_the_line_shown() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=120, force_terminal=False, color_system=None)
    view = SearchView(console, "sglang-k26", clock=lambda: 0.0)
    view.on_event(RunStarted(RUN, "0.5.23", True, max_attempts=12, started=0.0))
    view.on_event(GateProgress(Gate.READY, 3.0, "[TP0] Load weight end. elapsed=9.1 s", 900.0, (64, 64)))
    (line,) = [ln for ln in buffer.getvalue().splitlines() if " ready " in ln]
    assert "64/64 shards" in line and bar(64, 64) in line
