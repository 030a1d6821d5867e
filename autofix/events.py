"""What a search reports while it runs: frozen events, rendered by the command line (the
search itself never prints). One sink per search; several hosts of one search share it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .model import Attempt, Gate, GateVerdict, Run

if TYPE_CHECKING:
    from .search import Pick


# SGLang's (tqdm's) shard progress: "Loading safetensors checkpoint shards:  45% Completed | 29/64"
_SHARDS = re.compile(r"checkpoint shards:\s*(\d{1,3})%[^|]*\|\s*(\d+)/(\d+)")


def shard_progress(line: str) -> tuple[int, int] | None:
    """(shards loaded, shards) from a weight-loading progress line, if it is one."""
    found = _SHARDS.search(line)
    return (int(found.group(2)), int(found.group(3))) if found else None


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
    # The weights loaded so far, from every log line seen (not only the last one, which
    # may already be the next message when loading ends between two looks).
    shards: tuple[int, int] | None = None


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
