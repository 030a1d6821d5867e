"""Process helpers for the simulator (stdlib only: /proc instead of psutil)."""

import os
import signal
import socket
import threading
import time


def children_of(pid, recursive=True):
    """PIDs of the children (and their descendants) of ``pid``."""
    parents = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                data = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        # pid (comm) state ppid ...
        rparen = data.rfind(")")
        fields = data[rparen + 2 :].split()
        if len(fields) < 2:
            continue
        parents.setdefault(int(fields[1]), []).append(int(name))
    out = []
    stack = [pid]
    while stack:
        p = stack.pop()
        for c in parents.get(p, []):
            out.append(c)
            if recursive:
                stack.append(c)
    return out


def reap(pid, deadline):
    while time.monotonic() < deadline:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        except OSError:
            return
        if done:
            return
        time.sleep(0.02)


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
    finally:
        s.close()


def exit_when_parent_dies(parent_pid, interval=0.1):
    """Rank processes: leave promptly once the launcher is gone (SIGKILL included)."""

    def watch():
        while True:
            if os.getppid() != parent_pid:
                os._exit(0)
            time.sleep(interval)

    t = threading.Thread(target=watch, name="parent-watchdog", daemon=True)
    t.start()
    try:  # Linux: also ask the kernel to signal us
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent_pid:
            os._exit(0)
    except Exception:
        pass
