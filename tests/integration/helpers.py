"""Running the command line the way a user does, for the integration tests."""

from __future__ import annotations

import os
import sqlite3
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


def left_running(root: Path) -> list[str]:
    """Live processes started under ``root``: every process of a search inherits its
    TMPDIR (supervisor, launcher, ranks, probes), so a marker in /proc/*/environ finds
    them all. Zombies are dead already, only waiting for a reaper: not counted."""
    marker = f"TMPDIR={root}".encode() + b"\0"
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        zombie = stat.rsplit(")", 1)[1].split()[0] == "Z"
        if marker in environ + b"\0" and not zombie:
            command = cmdline.replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{pid}: {command[:160]}")
    return found


def launched_and_running(db: Path) -> int:
    """Attempts of the store at ``db`` whose candidate is launched and still running: 0
    while the store does not exist yet or its migrations have not made the tables."""
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        try:
            row = conn.execute("select count(*) from attempts where launched = 1 and state = 'running'").fetchone()
        except sqlite3.OperationalError:
            return 0
    return int(row[0])
