"""A lock per host and unit, held by a small process on the host (probes/lock.py).

A second search on the same GPUs is refused with who holds them; a lock whose owner died
(its session closed) is free again and is taken over, with a notice.
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
from .preflight import install_script


class HostBusy(HostError):
    """Another search holds the host's lock for this unit."""


@dataclass
class HostLock:
    channel: Channel
    path: str
    stale: dict[str, Any] | None

    def release(self) -> None:
        self.channel.close()


def acquire(host: Host, python: str, unit: str, *, run_id: int | None = None) -> HostLock:
    script = install_script(host, "lock.py")
    path = f"{host.workdir}/locks/{unit}.lock"
    owner = {
        "controller": f"{getpass.getuser()}@{socket.gethostname()}",
        "pid": os.getpid(),
        "run": run_id,
        "since": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    channel = host.spawn([python, script, path, json.dumps(owner)])
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
    return HostLock(channel, path, answer.get("stale"))
