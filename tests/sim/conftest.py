"""Fixtures for the simulated-host tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sim_helpers import Launch, sim_environ


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Any]:
    """Start simulator launches; every one is killed (process group) at teardown."""
    started: list[Launch] = []

    def start(argv: list[str], load_s: float = 0.5, **extra_env: str) -> Launch:
        run = Launch(argv, tmp_path / f"launch-{len(started)}.log", sim_environ(load_s, **extra_env))
        started.append(run)
        return run

    yield start
    for run in started:
        run.stop()
