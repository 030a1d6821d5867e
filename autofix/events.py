"""What a search reports while it runs: frozen events, rendered by the command line (the
search itself never prints). One sink per search; several hosts of one search share it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .model import Attempt, Gate, GateVerdict, Run

if TYPE_CHECKING:
    from .search import Pick


@dataclass(frozen=True)
class RunStarted:
    run: Run
    target_version: str
    simulated: bool
    max_attempts: int = 0
    started: float | None = None  # time.monotonic() at the start of the search


@dataclass(frozen=True)
class AttemptStarted:
    attempt: Attempt
    pick: Pick


@dataclass(frozen=True)
class GateProgress:
    gate: Gate
    elapsed: float
    line: str
    timeout: float | None = None  # how long the gate waits at most, where it has a timeout


@dataclass(frozen=True)
class GateDone:
    verdict: GateVerdict


@dataclass(frozen=True)
class AttemptDone:
    attempt: Attempt
    children: int


@dataclass(frozen=True)
class Notice:
    text: str


Event = RunStarted | AttemptStarted | GateProgress | GateDone | AttemptDone | Notice
