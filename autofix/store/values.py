"""Frozen values the store returns beyond the shared model."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Candidate, Move


@dataclass(frozen=True)
class Edge:
    """A proposed repair: parent candidate -> child candidate by ``move``."""

    parent_key: str
    child_key: str
    child: Candidate
    move: Move
    rank: int
    class_id: str | None
