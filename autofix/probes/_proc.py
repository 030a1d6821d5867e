"""What a host's /proc says about processes and sockets, for the scripts beside this one.

Standard library only; copied to the host with the other scripts of autofix/probes and
imported by them from the same directory. A pid alone names nothing for long (the kernel
hands it out again once its process is reaped), so a process is known by its pid AND its
start time (field 22 of /proc/PID/stat, clock ticks since boot), and a candidate's
processes by the token the service manager put in their environment (AUTOFIX_CANDIDATE)
or by their systemd unit in /proc/PID/cgroup.
"""

from __future__ import annotations

import os
from typing import Any

TOKEN_VAR = "AUTOFIX_CANDIDATE"
_LISTEN = "0A"  # TCP_LISTEN in /proc/net/tcp's st column


def _stat(pid: int) -> list[str]:
    """/proc/PID/stat's fields from field 3 (state) on; [] when there is no such process.
    The command name (field 2) may hold spaces and parentheses: split after the last ")"."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().decode("ascii", errors="replace").rsplit(")", 1)[-1].split()
    except OSError:
        return []


def start_time(pid: int) -> int | None:
    """The process's start time in clock ticks since boot; None when there is no such process."""
    fields = _stat(pid)
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


def same_process(pid: int | None, started: int | None) -> bool:
    """Whether ``pid`` is still the live process that started at ``started`` (not a reuse,
    not a zombie waiting for its reaper)."""
    if not pid:
        return False
    fields = _stat(pid)
    if len(fields) < 20 or fields[0] == "Z":
        return False
    return started is None or fields[19] == str(started)


def _environ(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return b"\0" + fh.read()
    except OSError:
        return b""


def _cgroup(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cgroup", encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return ""


def carries(pid: int, token: str) -> bool:
    """Whether the process belongs to the candidate ``token``: the token in its
    environment (process manager) or its systemd unit ``token.service`` (systemd)."""
    if not token:
        return False
    if f"\0{TOKEN_VAR}={token}\0".encode() in _environ(pid) + b"\0":
        return True
    return f"/{token}.service" in _cgroup(pid)


def pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def carriers(token: str) -> list[int]:
    """Every live process of the candidate ``token`` (what is left of it, after its leader)."""
    me = os.getpid()
    return [pid for pid in pids() if pid != me and carries(pid, token) and not _zombie(pid)]


def _zombie(pid: int) -> bool:
    fields = _stat(pid)
    return not fields or fields[0] == "Z"


def command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            raw = fh.read()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode("utf-8", errors="replace").strip()[:300]


def _listening_inodes(port: int) -> dict[int, int]:
    """Socket inode -> owner uid of every TCP socket listening on ``port`` (v4 and v6)."""
    found: dict[int, int] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii", errors="replace") as fh:
                rows = fh.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if len(cols) < 10 or cols[3] != _LISTEN:
                continue
            try:
                if int(cols[1].rsplit(":", 1)[1], 16) == port:
                    found[int(cols[9])] = int(cols[7])
            except (IndexError, ValueError):
                continue
    return found


def listeners(port: int, token: str = "") -> list[dict[str, Any]]:
    """Who listens on ``port``: one entry per listening socket, with the process that holds
    it where this user may see it (pid None: another user's, unseen without root) and
    whether it is the candidate ``token``."""
    inodes = _listening_inodes(port)
    if not inodes:
        return []
    holders: dict[int, list[int]] = {}
    for pid in pids():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:[") and int(link[8:-1]) in inodes:
                holders.setdefault(int(link[8:-1]), []).append(pid)
    out = []
    for inode, uid in inodes.items():
        # A forked server shares its listening socket with its children: any of them tells.
        held_by = sorted(set(holders.get(inode, [])))
        first = held_by[0] if held_by else None
        out.append(
            {
                "pid": first,
                "uid": uid,
                "command": command(first) if first else "",
                "ours": any(carries(p, token) for p in held_by),
            }
        )
    return out
