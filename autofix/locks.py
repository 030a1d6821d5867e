"""A lock per host and unit, held by a small process on the host (probes/lock.py).

A second search on the same GPUs is refused with who holds them; a lock whose owner died
(its session closed) is free again and is taken over, with a notice. On a real host the
lock is the machine's (one place whatever the user's uid or TMPDIR: the GPUs and the port
are the machine's); a simulated host keeps it in its own work dir, as each simulated host
is a machine of its own.
"""

from __future__ import annotations

import getpass
import json
import os
import socket
import time
from dataclasses import dataclass
from typing import Any

from .errors import HostError
from .hosts.base import Channel, Host
from .hosts.install import install_script


class HostBusy(HostError):
    """Another search holds the host's lock for this unit."""


@dataclass
class HostLock:
    channel: Channel
    path: str
    stale: dict[str, Any] | None

    def release(self) -> None:
        self.channel.close()


def acquire(host: Host, python: str, unit: str, *, run_id: int | None = None, directory: str | None = None) -> HostLock:
    """Take the lock of ``unit`` on ``host``: the machine's, or the one in ``directory``."""
    script = install_script(host, "lock.py")
    where = [f"{directory}/{unit}.lock"] if directory else ["--unit", unit]
    owner = {
        "controller": f"{getpass.getuser()}@{socket.gethostname()}",
        "pid": os.getpid(),
        "run": run_id,
        "since": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    channel = host.spawn([python, script, *where, json.dumps(owner)])
    line = channel.read_line(60)
    if line is None:
        channel.close()
        raise HostError(f"{host.name}: the lock helper did not answer ({channel.stderr_tail().strip()[-200:]})")
    try:
        answer = json.loads(line)
    except ValueError:
        channel.close()
        raise HostError(f"{host.name}: the lock helper said {line.strip()!r}") from None
    if "busy" in answer:
        channel.close()
        holder = answer["busy"]
        who = holder.get("controller", "?")
        raise HostBusy(
            f"{host.name}: {unit} is in use by another autofix search (run {holder.get('run')} from {who}, "
            f"pid {holder.get('pid')}, since {holder.get('since')}); wait for it or stop it"
        )
    return HostLock(channel, str(answer.get("path", "")), answer.get("stale"))
