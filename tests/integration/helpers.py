"""Running the command line the way a user does, for the integration tests."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def sim_env(cwd: Path, load_s: str = "1") -> dict[str, str]:
    """The environment of a sim run: its load time, its own TMPDIR (work dirs, locks), no AUTOFIX_DB."""
    env = {**os.environ, "AUTOFIX_SIM_LOAD_S": load_s, "TMPDIR": str(cwd), "COLUMNS": "200"}
    env.pop("AUTOFIX_DB", None)
    return env


def cli(
    *args: str, cwd: Path, load_s: str = "1", timeout: float = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``autofix ARGS`` in ``cwd`` (its runs.db lands there); ``env`` adds to the sim's."""
    return subprocess.run(
        [sys.executable, "-m", "autofix.cli", *args],
        cwd=cwd,
        env={**sim_env(cwd, load_s), **(env or {})},
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


def free_port() -> int:
    """A TCP port nobody listens on right now (the kernel's pick)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def foreign_server(port: int, model: str = "some-other-model") -> Iterator[ThreadingHTTPServer]:
    """Someone else's OpenAI-compatible server on ``port``: /health, /v1/models (``model``),
    /get_server_info and chat completions all answer, as a stale server or another
    team's would. It runs in this (test) process, not in any candidate's."""

    class Handler(BaseHTTPRequestHandler):
        def _json(self, body: dict[str, object]) -> None:
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/v1/models":
                self._json({"object": "list", "data": [{"id": model, "object": "model"}]})
            elif self.path == "/get_server_info":
                self._json({"model_path": model})
            else:
                self._json({})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            message = {"role": "assistant", "content": "hello from somebody else's server"}
            self._json({"choices": [{"message": message}], "usage": {"completion_tokens": 7}})

        def log_message(self, *args: object) -> None:
            return None

    server = ThreadingHTTPServer(("0.0.0.0", port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
