"""Running the command line the way a user does, for the integration tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def sim_env(cwd: Path, load_s: str = "1") -> dict[str, str]:
    """The environment of a sim run: its load time, its own TMPDIR (work dirs, locks), no AUTOFIX_DB."""
    env = {**os.environ, "AUTOFIX_SIM_LOAD_S": load_s, "TMPDIR": str(cwd), "COLUMNS": "200"}
    env.pop("AUTOFIX_DB", None)
    return env


def cli(*args: str, cwd: Path, load_s: str = "1", timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``autofix ARGS`` in ``cwd`` (its runs.db lands there)."""
    return subprocess.run(
        [sys.executable, "-m", "autofix.cli", *args],
        cwd=cwd,
        env=sim_env(cwd, load_s),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
