"""What the operator sees while a search runs: the events of autofix/events.py rendered.

On a terminal a live line under the attempts says where the search is: the attempt out of
its budget, the gate, how long it has waited out of its timeout, the weights loaded as a
bar (from the server's shard progress), the run's time and the server's last words. Every
line fits the terminal's width: text is shortened at a word, never wrapped or cut inside
one. Off a terminal (a pipe, CI, a log file) the same lines are plain, and the progress of
a long wait is a line every half minute instead of a live line.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.live import Live
from rich.markup import escape as _markup_escape
from rich.text import Text

from .events import AttemptDone, AttemptStarted, Event, GateDone, GateProgress, Notice, RunStarted, shard_progress
from .model import AttemptState
from .secrets import kept_out

# Characters a terminal acts on instead of showing: C0/C1 controls (ESC starts a sequence
# that can retitle the window, move the cursor, rewrite what was printed), DEL, the bidi
# overrides that reorder a line, and the Unicode line separators.
_INVISIBLE = {chr(c) for c in (*range(0x00, 0x20), *range(0x7F, 0xA0))} - {"\n", "\t"}
_INVISIBLE |= {"\u061c", "\u200e", "\u200f", "\u2028", "\u2029", *map(chr, range(0x202A, 0x202F))}
_INVISIBLE |= {chr(c) for c in range(0x2066, 0x206A)}

# SGLang's log prefix "[2026-05-25 19:34:29 TP3] ": the rank tag says more than the clock.
_LOG_PREFIX = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: ([^\]]+))?\]\s*")
PLAIN_EVERY_S = 30.0  # off a terminal: one progress line per gate this often


def visible(text: str) -> str:
    """``text`` with what a terminal would act on shown as escapes (\\x1b, \\u202e)."""
    if not any(ch in _INVISIBLE for ch in text):
        return text
    return "".join(ch.encode("unicode_escape").decode("ascii") if ch in _INVISIBLE else ch for ch in text)


def clean(text: str) -> str:
    """Text that comes from a server, a model, a log or the store, made fit to show: the
    run's secrets scrubbed and control characters shown as escapes."""
    return visible(kept_out().scrub(text))


def escape(text: str) -> str:
    """:func:`clean`, with rich markup made inert (for text printed through markup)."""
    return _markup_escape(clean(text))


def fit(text: str, width: int) -> str:
    """``text`` on one line of at most ``width`` columns (its indentation kept), shortened
    at a word with an ellipsis."""
    indent = text[: len(text) - len(text.lstrip(" "))]
    text = indent + " ".join(text.split())
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    cut = text[: width - 1]
    space = cut.rfind(" ")
    if space >= width // 2:  # a word boundary not too far back; else cut the long word
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


def bar(done: int, total: int, width: int = 20) -> str:
    filled = round(width * done / total) if total else 0
    return "█" * filled + "░" * (width - filled)


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass
class _Waiting:
    """The gate being waited on, for the live line."""

    gate: str
    elapsed: float
    timeout: float | None
    line: str
    shards: tuple[int, int] | None


class SearchView:
    """One search's events on ``console``: a line per attempt and gate, a live line while
    a gate waits (on a terminal), and the end: what changed and how to export."""

    def __init__(self, console: Console, unit: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.console = console
        self.unit = unit
        self.clock = clock
        self.live_ok = console.is_terminal
        self.live: Live | None = None
        self.seq = 0
        self.max_attempts = 0
        self.started = clock()
        self.waiting: _Waiting | None = None
        self.shards: tuple[int, int] | None = None
        self._last_plain: float | None = None
        self._lock = threading.Lock()

    @property
    def width(self) -> int:
        return max(self.console.width, 40)

    def on_event(self, event: Event) -> None:
        with self._lock:
            self._on_event(event)

    def _on_event(self, event: Event) -> None:
        if isinstance(event, GateProgress):
            self._progress(event)
            return
        self.close()
        if isinstance(event, RunStarted):
            self.max_attempts = event.max_attempts
            if event.started is not None:
                self.started = event.started
            sim = " (simulated host)" if event.simulated else ""
            line = f"run {event.run.id} {event.run.name} on {event.run.host}: target {event.run.target} "
            self._print(line + f"{event.target_version}{sim}", style="bold")
        elif isinstance(event, AttemptStarted):
            self.seq = event.attempt.seq
            self.shards = None
            move = event.pick.move.label() if event.pick.move else "base config"
            tag = " (inferred)" if event.pick.move and event.pick.move.inferred else ""
            budget = f"/{self.max_attempts}" if self.max_attempts else ""
            self._print(f"#{event.attempt.seq}{budget} {move}{tag}", style="bold cyan")
        elif isinstance(event, GateDone):
            v = event.verdict
            head = f"   {v.gate.value:<9} {'pass' if v.ok else 'FAIL'} {v.seconds:6.1f}s  "
            self._print(head + fit(clean(v.detail), self.width - len(head)), style=None if v.ok else "red")
        elif isinstance(event, AttemptDone):
            self._attempt_done(event)
        elif isinstance(event, Notice):
            self._print(fit(clean(event.text), self.width), style="dim")

    def _attempt_done(self, event: AttemptDone) -> None:
        a = event.attempt
        if a.failure is not None:
            head = f"   -> {a.state.value}: {a.failure.class_id or 'unclassified'} "
            tail = f" ({event.children} repair(s) proposed)"
            room = self.width - len(head) - len(tail)
            self._print(head + fit(clean(a.failure.title), room) + tail, style="yellow")
        elif a.state is not AttemptState.PASSED:
            self._print(f"   -> {a.state.value}")

    def _progress(self, event: GateProgress) -> None:
        shards = event.shards or shard_progress(event.line)
        if shards is not None:
            self.shards = shards
        self.waiting = _Waiting(event.gate.value, event.elapsed, event.timeout, event.line, self.shards)
        if not self.live_ok:
            now = self.clock()
            if self._last_plain is None or now - self._last_plain >= PLAIN_EVERY_S:
                self._last_plain = now
                self.console.print(self.status_line().plain, markup=False, highlight=False, soft_wrap=True)
            return
        if self.live is None:
            self.live = Live(self.status_line(), console=self.console, refresh_per_second=8, transient=True)
            self.live.start()
        else:
            self.live.update(self.status_line())

    def status_line(self) -> Text:
        """The live line: attempt n/max, gate, elapsed/timeout, load bar, run time, last words."""
        w = self.waiting
        if w is None:
            return Text("")
        budget = f"/{self.max_attempts}" if self.max_attempts else ""
        wait = f"{w.elapsed:.0f}s" + (f"/{w.timeout:.0f}s" if w.timeout else "")
        parts = [f"#{self.seq}{budget}", w.gate, wait]
        if w.shards is not None:
            done, total = w.shards
            parts.append(f"{bar(done, total)} {done}/{total} shards")
        parts.append(f"run {_clock(self.clock() - self.started)}")
        head = "  ".join(parts)
        room = self.width - len(head) - 2
        said = _LOG_PREFIX.sub(lambda m: f"{m.group(1)}: " if m.group(1) else "", clean(w.line).strip())
        last = fit(said, room) if room >= 12 else ""
        text = Text(head, style="bold")
        if last:
            text.append("  " + last, style="dim")
        return text

    def _print(self, text: str, style: str | None = None) -> None:
        line = fit(text, self.width)
        self.console.print(Text(line, style=style or ""), soft_wrap=True, no_wrap=True, overflow="ignore")

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
        self.waiting = None
        self._last_plain = None

    def summary(self, result: Any) -> None:
        """The end: PASSED (what the winner gave up and added, the command to export) or why not."""
        self.close()
        run, attempts, launches, winner = result.run, result.attempts, result.launches, result.winner
        took = _clock(self.clock() - self.started)
        if winner is None:
            self._print(f"{run.status.value.upper()} run {run.id}: no candidate passed", style="bold red")
            self._print(
                f"   {attempts} attempt(s), {launches} GPU launch(es), {took}; review: autofix history {run.id}"
            )
            return
        self._print(
            f"PASSED run {run.id}: attempt #{winner.seq} (id {winner.id}) passed every gate", style="bold green"
        )
        self._print(f"   {attempts} attempt(s), {launches} GPU launch(es), {took}")
        for text in result.gave_up:
            self._print(f"   gave up: {clean(text)}")
        for text in result.added:
            self._print(f"   added: {clean(text)}")
        if not result.gave_up:
            self._print("   gave up: nothing the base asked for")
        self._print(f"   export it: autofix export {run.id} -o {self.unit}.service")


class FleetView:
    """The events of several searches at once: one line per attempt, each prefixed with
    its base's name (no live line: several would fight over the terminal)."""

    def __init__(self, console: Console, names: list[str]) -> None:
        self.console = console
        self.names = names
        self.lock = threading.Lock()

    def sink(self, index: int) -> Callable[[Event], None]:
        return lambda event: self.on_event(index, event)

    def on_event(self, index: int, event: Event) -> None:
        tag = f"[{clean(self.names[index])}] "
        width = max(self.console.width, 40) - len(tag)
        with self.lock:
            if isinstance(event, RunStarted):
                sim = " (simulated host)" if event.simulated else ""
                self._print(tag, f"run {event.run.id} on {clean(event.run.host)}{sim}", width)
            elif isinstance(event, AttemptDone):
                a = event.attempt
                move = a.move.label() if a.move else "base config"
                cls = f" {a.failure.class_id or 'unclassified'}" if a.failure else ""
                gate = f" at {a.failed_gate.value}" if a.failed_gate else ""
                self._print(tag, f"#{a.seq} {clean(move)}: {a.state.value}{gate}{clean(cls)}", width)
            elif isinstance(event, Notice):
                self._print(tag, clean(event.text), width, style="dim")

    def _print(self, tag: str, text: str, width: int, style: str = "") -> None:
        line = Text(tag, style="bold")
        line.append(fit(text, width), style=style)
        self.console.print(line, soft_wrap=True, no_wrap=True, overflow="ignore")
