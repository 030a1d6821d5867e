"""The controller's side of the preflight probe (autofix/probes/preflight.py).

The probe is copied to the host and started once per search with the target's Python;
SGLang is imported once and every candidate is resolved in a forked child, so after the
first import each preflight costs well under a second. If the probe dies it is started
again for the next candidate; a candidate whose child hangs costs only its own timeout.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from .errors import HostError, ProbeError
from .hosts.base import Channel, Host
from .hosts.install import install_script
from .model import Candidate
from .targets import Target

IMPORT_TIMEOUT = 300.0
_ENGINE_NAMES = {"sglang": "SGLang", "vllm": "vLLM"}


@dataclass(frozen=True)
class ProbeAnswer:
    ok: bool
    status: str  # ok | failed | timeout | crashed
    output: str
    seconds: float
    resolved: dict[str, Any] = field(default_factory=dict)
    changed: dict[str, list[Any]] = field(default_factory=dict)
    steps_run: tuple[str, ...] = ()
    exception: str = ""


@dataclass(frozen=True)
class ProbeInfo:
    version: str
    simulated: bool
    import_s: float
    python: str
    steps: tuple[str, ...]
    # The installed parser's facts ({"flags": {...}, "aliases": {...}}), empty when the
    # probe could not read them: flag facts and rename moves follow what the host runs.
    parser: dict[str, Any] = field(default_factory=dict)


class Preflight:
    """A warm probe on one host for one target."""

    def __init__(self, host: Host, target: Target) -> None:
        self.host = host
        self.target = target
        self._channel: Channel | None = None
        self.info: ProbeInfo | None = None
        self._counter = 0

    def start(self) -> ProbeInfo:
        path = install_script(self.host, self.target.probe_script)
        channel = self.host.spawn([self.target.python, path], env=self.target.probe_env_dict())
        hello = _read_json(channel, IMPORT_TIMEOUT)
        if hello is None:
            tail = channel.stderr_tail()[-2000:]
            channel.close()
            raise ProbeError(
                f"{self.host.name}: the preflight probe ({self.target.python}) did not start within "
                f"{IMPORT_TIMEOUT:.0f} s or exited: {tail.strip().splitlines()[-1] if tail.strip() else 'no output'}"
            )
        if hello.get("event") != "ready":
            channel.close()
            last = str(hello.get("output", "")).strip().splitlines()
            raise ProbeError(
                f"{self.host.name}: {self.target.python} cannot import {_ENGINE_NAMES[self.target.family]} "
                f"({last[-1] if last else hello.get('kind')})"
            )
        self._channel = channel
        self.info = ProbeInfo(
            version=str(hello.get("version", "unknown")),
            simulated=bool(hello.get("simulated")),
            import_s=float(hello.get("import_s", 0.0)),
            python=str(hello.get("python", "")),
            steps=tuple(hello.get("steps", ())),
            parser=dict(hello.get("parser") or {}) if isinstance(hello.get("parser"), dict) else {},
        )
        return self.info

    def check(self, candidate: Candidate, timeout: float) -> ProbeAnswer:
        if self._channel is None:
            self.start()
        try:
            return self._ask(candidate, timeout)
        except EOFError:
            # The probe itself died (not just one child): start it again once.
            self.close()
            self.start()
            return self._ask(candidate, timeout)

    def _ask(self, candidate: Candidate, timeout: float) -> ProbeAnswer:
        assert self._channel is not None
        self._counter += 1
        request_id = f"c{self._counter}"
        started = time.monotonic()
        # The engines read their settings from the environment while they validate (SGLANG_*,
        # VLLM_*): the candidate's, as its launch sets them (over the pipe, never an argv).
        request: dict[str, Any] = {
            "id": request_id,
            "argv": candidate.argv(),
            "timeout": timeout,
            "env": candidate.env_dict(),
        }
        self._channel.send_line(json.dumps(request))
        # The probe enforces the timeout on its child; allow it a margin to report.
        answer = _read_json(self._channel, timeout + 30.0, want_id=request_id)
        if answer is None:
            self.close()
            return ProbeAnswer(False, "timeout", "", time.monotonic() - started)
        return ProbeAnswer(
            ok=bool(answer.get("ok")),
            status=str(answer.get("status", "failed")),
            output=str(answer.get("output", "")),
            seconds=float(answer.get("seconds", time.monotonic() - started)),
            resolved=dict(answer.get("resolved") or {}),
            changed=dict(answer.get("changed") or {}),
            steps_run=tuple(answer.get("steps_run") or ()),
            exception=str(answer.get("exception", "")),
        )

    def close(self) -> None:
        if self._channel is not None:
            with contextlib.suppress(EOFError, HostError):
                self._channel.send_line(json.dumps({"quit": True}))
            self._channel.close()
            self._channel = None


class ProbePool:
    """Warm probes for searches that one host runs in turn (several bases, a bench): one
    per host slot and target, started on first use, all closed at the end. A slot is used
    by one thread at a time."""

    def __init__(self) -> None:
        self._probes: dict[tuple[object, Target], Preflight] = {}

    def get(self, slot: object, host: Host, target: Target) -> Preflight:
        probe = self._probes.get((slot, target))
        if probe is None:
            probe = self._probes[(slot, target)] = Preflight(host, target)
        return probe

    def close(self) -> None:
        for probe in self._probes.values():
            probe.close()


def _read_json(channel: Channel, timeout: float, want_id: str | None = None) -> dict[str, Any] | None:
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        try:
            line = channel.read_line(remaining)
        except EOFError:
            if want_id is not None:
                raise
            return None
        if line is None:
            return None
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and (want_id is None or data.get("id") == want_id):
            return data
