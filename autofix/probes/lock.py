"""autofix host lock: one search per host and unit at a time.

Copied to the host and run with its Python; standard library only. Holds an exclusive
flock on the lock file for as long as its stdin stays open, which is as long as the
controller's session lives: a controller that dies or loses its connection releases the
lock with it, so a stale lock (dead owner) is taken over by the next search.

    lock.py FILE OWNER_JSON          the lock in FILE (a simulated host's own work dir)
    lock.py --unit UNIT OWNER_JSON   the machine's lock of UNIT: one place for every user
                                     and every TMPDIR (/run/lock/autofix, else /tmp), as
                                     the GPUs and the port it guards are the machine's

Prints {"locked": true, "stale": {...}|null, "path": FILE}, or {"busy": {...owner...}}
and exits 1.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys

MACHINE_DIRS = ("/run/lock", "/var/lock", "/tmp")


def machine_lock_file(unit: str) -> str:
    """The lock file of ``unit`` that every user of this machine finds: a sticky,
    world-writable directory (like /tmp itself), so any user may take a free lock."""
    for base in MACHINE_DIRS:
        if os.path.isdir(base) and os.access(base, os.W_OK | os.X_OK):
            folder = os.path.join(base, "autofix")
            try:
                os.mkdir(folder)
                os.chmod(folder, 0o1777)
            except FileExistsError:
                pass
            return os.path.join(folder, unit + ".lock")
    raise OSError("no writable lock directory among " + ", ".join(MACHINE_DIRS))


def _open(path: str) -> tuple[int, bool]:
    """The lock file's descriptor, and whether this user may write the owner record in it
    (a flock needs only a descriptor: a file another user made still locks)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except PermissionError:
        return os.open(path, os.O_RDONLY), False
    try:
        os.fchmod(fd, 0o666)  # other users' searches write their record here too
    except OSError:
        pass
    return fd, True


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "--unit":
        path, owner = machine_lock_file(argv[1]), argv[2]
    elif len(argv) == 2:
        path, owner = argv
    else:
        sys.stderr.write(__doc__ or "")
        return 2
    fd, writable = _open(path)
    previous = os.read(fd, 65536).decode("utf-8", errors="replace").strip()
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            holder = json.loads(previous)
        except ValueError:
            holder = {"raw": previous}
        print(json.dumps({"busy": holder}), flush=True)
        return 1
    stale = None
    if previous:
        try:
            stale = json.loads(previous)
        except ValueError:
            stale = {"raw": previous}
    record = json.loads(owner)
    record["holder_pid"] = os.getpid()
    if writable:
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps(record).encode())
    print(json.dumps({"locked": True, "stale": stale, "path": path}), flush=True)
    # Hold the lock until the controller closes our stdin (or its session dies).
    for _ in sys.stdin:
        pass
    if writable:
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
