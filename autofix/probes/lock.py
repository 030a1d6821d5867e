"""autofix host lock: one search per host and unit at a time.

Copied to the host and run with its Python; standard library only. Holds an exclusive
flock on the lock file for as long as its stdin stays open, which is as long as the
controller's session lives: a controller that dies or loses its connection releases the
lock with it, so a stale lock (dead owner) is taken over by the next search.

    lock.py FILE OWNER_JSON    prints {"locked": true, "stale": {...}|null}
                               or {"busy": {...owner...}} and exits 1
"""

from __future__ import annotations

import fcntl
import json
import os
import sys


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write(__doc__ or "")
        return 2
    path, owner = argv
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
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
    os.lseek(fd, 0, os.SEEK_SET)
    os.ftruncate(fd, 0)
    record = json.loads(owner)
    record["holder_pid"] = os.getpid()
    os.write(fd, json.dumps(record).encode())
    print(json.dumps({"locked": True, "stale": stale}), flush=True)
    # Hold the lock until the controller closes our stdin (or its session dies).
    for _ in sys.stdin:
        pass
    os.lseek(fd, 0, os.SEEK_SET)
    os.ftruncate(fd, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
