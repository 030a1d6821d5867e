"""Processes of a simulated launch: the launcher and its rank processes (stdlib: /proc)."""

import logging
import os
import signal
import socket
import sys
import threading
import time

logger = logging.getLogger("sglang.srt.utils.common")


def _parents():
    """pid -> parent pid of every process, read from /proc/<pid>/stat."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1:
            out[int(name)] = int(fields[1])
    return out


def descendants(pid):
    parents = _parents()
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        for child, parent in parents.items():
            if parent == current:
                found.append(child)
                todo.append(child)
    return found


def kill_tree(pid, include_parent=True):
    """SGLang's kill_process_tree, with its log line: SIGKILL to every descendant (and pid)."""
    logger.info(f"kill_process_tree called: parent_pid={pid}, include_parent={include_parent}, pid={os.getpid()}")
    children = descendants(pid)
    for child in children:
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            pass
    deadline = time.monotonic() + 5
    for child in children:
        while time.monotonic() < deadline:
            try:
                if os.waitpid(child, os.WNOHANG)[0]:
                    break
            except OSError:  # not our child, or already reaped
                break
            time.sleep(0.02)
    if include_parent:
        sys.stderr.flush()
        os.kill(pid, signal.SIGKILL)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def leave_with(parent_pid):
    """A rank process ends as soon as the process that started it is gone, SIGKILL included."""

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(0.1)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()
    try:  # Linux: let the kernel send SIGKILL when the parent dies
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
