"""autofix watcher: one long-lived process per attempt that pushes what happens.

Copied to the host (with _proc.py beside it) and run with its Python; standard library
only. Polling the host from the controller costs a command (~150 ms over a kept SSH
connection) per look; this looks locally every 0.1 s and streams one JSON line per event
over the one session:

    {"log": "<new log text>"}            the service's log grew
    {"exit": {"code": N, "signal": S}}   the main process ended (then the watcher ends)
    {"gone": true}                       no process and no exit record (the host lost it)
    {"alive": T}                         a heartbeat every 2 s (a silent session is a dead one)

    watch.py process DIR [OFFSET]     a process-manager service (supervise.py's DIR)
    watch.py systemd UNIT INVOCATION  a systemd unit: journalctl -f + systemctl show
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

try:
    from . import _proc
except ImportError:  # run as a script on the host: _proc.py lies beside this file
    import _proc  # type: ignore[import-not-found,no-redef]

INTERVAL = 0.1
HEARTBEAT = 2.0
CHUNK = 65536
_out_lock = threading.Lock()


def emit(obj: dict[str, Any]) -> None:
    with _out_lock:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


def _still_there(directory: str) -> bool:
    """The supervisor or the candidate it started is alive: the same processes, pid and
    start time (identity.json), not whatever later took their pids."""
    try:
        with open(os.path.join(directory, "identity.json")) as fh:
            ident = json.load(fh)
    except (OSError, ValueError):
        # Written before the start is reported, so before any watcher runs: missing, the
        # host lost it (a reboot wiped the directory); a torn write is retried (misses).
        return False
    return _proc.same_process(ident.get("pid"), ident.get("started")) or _proc.same_process(
        ident.get("supervisor"), ident.get("supervisor_started")
    )


def watch_process(directory: str, offset: int) -> int:
    log_path = os.path.join(directory, "log")
    exit_path = os.path.join(directory, "exit.json")
    last_beat = 0.0
    misses = 0
    while True:
        try:
            with open(log_path, "rb") as fh:
                fh.seek(offset)
                data = fh.read(CHUNK)
        except OSError:
            data = b""
        if data:
            offset += len(data)
            emit({"log": data.decode("utf-8", errors="replace"), "offset": offset})
            if len(data) == CHUNK:
                continue  # more is waiting
        if os.path.exists(exit_path):
            try:
                with open(exit_path) as fh:
                    info = json.load(fh)
            except (OSError, ValueError):
                time.sleep(INTERVAL)
                continue
            time.sleep(INTERVAL)  # the last words may still be on their way to the log
            try:
                with open(log_path, "rb") as fh:
                    fh.seek(offset)
                    rest = fh.read()
            except OSError:
                rest = b""
            if rest:
                offset += len(rest)
                emit({"log": rest.decode("utf-8", errors="replace"), "offset": offset})
            emit({"exit": {"code": info.get("code"), "signal": info.get("signal")}})
            return 0
        if not _still_there(directory):
            misses += 1
            if misses > 5:  # neither process nor exit record: the host lost it
                emit({"gone": True})
                return 0
        else:
            misses = 0
        now = time.monotonic()
        if now - last_beat >= HEARTBEAT:
            emit({"alive": round(now, 1)})
            last_beat = now
        time.sleep(INTERVAL)


def _systemctl_show(unit: str) -> dict[str, str]:
    done = subprocess.run(
        ["systemctl", "show", "-p", "ActiveState,SubState,ExecMainStatus,ExecMainCode,InvocationID", unit],
        capture_output=True,
        text=True,
        check=False,
    )
    out = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition("=")
        out[key] = value
    return out


def watch_systemd(unit: str, invocation: str) -> int:
    journal = subprocess.Popen(
        ["journalctl", "-f", "-o", "json", "--no-tail", "-n", "all", f"_SYSTEMD_INVOCATION_ID={invocation}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )

    def pump() -> None:
        assert journal.stdout is not None
        for raw in journal.stdout:
            emit({"journal": raw.decode("utf-8", errors="replace").rstrip("\n")})

    threading.Thread(target=pump, daemon=True).start()
    last_beat = 0.0
    try:
        while True:
            state = _systemctl_show(unit)
            if state.get("InvocationID") and state.get("InvocationID") != invocation:
                emit({"gone": True})
                return 0
            if state.get("ActiveState") in ("failed", "inactive"):
                time.sleep(0.3)  # let journald deliver the last lines
                code = state.get("ExecMainStatus")
                killed = state.get("ExecMainCode") == "2"  # CLD_KILLED
                emit(
                    {"exit": {"code": None if killed else int(code or 0), "signal": int(code or 0) if killed else None}}
                )
                return 0
            now = time.monotonic()
            if now - last_beat >= HEARTBEAT:
                emit({"alive": round(now, 1)})
                last_beat = now
            time.sleep(INTERVAL)
    finally:
        journal.terminate()


def main(argv: list[str]) -> int:
    if len(argv) in (2, 3) and argv[0] == "process":
        return watch_process(argv[1], int(argv[2]) if len(argv) == 3 else 0)
    if len(argv) == 3 and argv[0] == "systemd":
        return watch_systemd(argv[1], argv[2])
    sys.stderr.write(__doc__ or "")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
