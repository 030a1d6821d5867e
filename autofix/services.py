"""Service managers: start a candidate on a host, read its state and its log, stop it.

``process`` is for hosts without systemd (and the sim host): each candidate runs under
autofix/probes/supervise.py, which gives it a session of its own, one log file and a
recorded exit status, so stopping kills every rank and a crash's exit code is known.
The systemd manager (transient units, journal by invocation id) joins it in its own
module with the same interface.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .errors import HostError
from .hosts.base import Channel, Host
from .hosts.install import install_script
from .model import Candidate
from .targets import Target


@dataclass(frozen=True)
class ServiceHandle:
    name: str
    directory: str
    pid: int | None
    log_path: str


@dataclass(frozen=True)
class ServiceState:
    running: bool
    exit_code: int | None = None
    signal: int | None = None
    gone: bool = False  # no process and no exit record: the host lost it (reboot)

    def describe(self) -> str:
        if self.running:
            return "running"
        if self.signal is not None:
            return f"killed by signal {self.signal}{_signal_note(self.signal)}"
        if self.exit_code is not None:
            return f"exited with status {self.exit_code}"
        return "gone without an exit status"


@dataclass(frozen=True)
class Listener:
    """A process listening on a candidate's port, as the host's /proc tells it."""

    pid: int | None  # None: another user's process, which this user may not see
    uid: int
    command: str
    ours: bool  # it is the candidate (its token, or its systemd unit)

    def describe(self) -> str:
        if self.pid is None:
            return f"a process of uid {self.uid} that autofix cannot see (another user's)"
        return f"pid {self.pid} ({self.command or '?'}, uid {self.uid})"


def parse_listeners(stdout: str) -> list[Listener]:
    """The answer of ``supervise.py listeners`` (its last line)."""
    try:
        report = json.loads(stdout.strip().splitlines()[-1])
        return [
            Listener(e.get("pid"), int(e.get("uid", -1)), str(e.get("command", "")), bool(e.get("ours")))
            for e in report["listeners"]
        ]
    except (ValueError, IndexError, KeyError, TypeError, AttributeError) as exc:
        raise HostError(f"cannot tell who listens on the port: {stdout.strip()[-200:]!r}") from exc


def _signal_note(number: int) -> str:
    """The signal's name and the status a shell reports for it (128 + n: "137", "139"), the
    figures an operator knows. A SIGKILL with no traceback before it is most often the
    kernel's OOM killer; with one, SGLang's own launcher (it ends its tree with SIGKILL)."""
    try:
        name = signal.Signals(number).name
    except ValueError:
        return ""
    note = f" ({name}, exit status {128 + number}"
    if number == signal.SIGKILL:
        note += "; with no traceback before it, usually the kernel's OOM killer"
    return note + ")"


class ServiceManager(Protocol):
    def planned(self, name: str) -> ServiceHandle:
        """The handle ``start(name, …)`` will give, as far as it is known before the start:
        recorded first, so a controller killed mid-start leaves something to stop."""
        ...

    def start(
        self, name: str, candidate: Candidate, target: Target, cwd: str | None, env_files: Sequence[str] = ()
    ) -> ServiceHandle:
        """Launch ``candidate``; ``env_files`` are the host's EnvironmentFile= paths, read
        on the host after the candidate's env (their assignments win, as in systemd)."""
        ...

    def state(self, handle: ServiceHandle, *, deep: bool = True) -> ServiceState: ...

    def read_log(self, handle: ServiceHandle, offset: int, limit: int | None = None) -> bytes: ...

    def stop(self, handle: ServiceHandle, grace: float = 30.0) -> ServiceState: ...

    def watch(self, handle: ServiceHandle, offset: int = 0) -> Channel:
        """A watcher on the host that pushes log lines and the exit (probes/watch.py)."""
        ...

    def listeners(self, port: int, handle: ServiceHandle | None) -> list[Listener]:
        """Who listens on ``port`` on the host, each marked whether it is ``handle``'s candidate."""
        ...


class ProcessManager:
    """Candidates as supervised process groups (setsid, pid file, log file, exit record)."""

    def __init__(self, host: Host, python: str) -> None:
        self.host = host
        self.python = python
        self._script: str | None = None

    def _supervisor(self) -> str:
        if self._script is None:
            self._script = install_script(self.host, "supervise.py")
        return self._script

    def planned(self, name: str) -> ServiceHandle:
        directory = f"{self.host.workdir}/services/{name}"
        return ServiceHandle(name, directory, None, f"{directory}/log")  # stop() reads the pid file

    def start(
        self, name: str, candidate: Candidate, target: Target, cwd: str | None, env_files: Sequence[str] = ()
    ) -> ServiceHandle:
        directory = self.planned(name).directory
        # Secrets go in files of a 0700 directory (never on the supervisor's command line:
        # ps shows it): env.json, which the supervisor removes once read, and the secret
        # flags' --config file, which it removes when the candidate ends.
        made = self.host.run(["install", "-d", "-m", "700", directory], timeout=30)
        if not made.ok:
            raise HostError(f"{self.host.name}: cannot make {directory}: {(made.stderr or made.stdout).strip()}")
        spec = {"env": target.launch_env(candidate), "cwd": cwd, "env_files": list(env_files)}
        self.host.put(f"{directory}/env.json", json.dumps(spec).encode(), mode=0o600)
        secret_args = target.secret_args(candidate)
        secret_file = f"{directory}/secret-args.yaml" if secret_args else None
        if secret_args and secret_file:
            self.host.put(secret_file, secret_args.encode(), mode=0o600)
        launch = target.launch_argv(candidate, secret_file)
        argv = [self.python, self._supervisor(), "start", directory, "--", *launch]
        result = self.host.run(argv, timeout=60)
        try:
            report = json.loads(result.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            report = {"error": (result.stderr or result.stdout).strip()[-300:]}
        if "pid" not in report:
            raise HostError(f"{self.host.name}: could not start {name}: {report.get('error')}")
        return ServiceHandle(name, directory, int(report["pid"]), f"{directory}/log")

    def state(self, handle: ServiceHandle, *, deep: bool = True) -> ServiceState:
        """The exit record, written by the supervisor the moment the process ends.

        Without it the process is running, unless ``deep`` asks the host whether the
        supervisor itself is still there (a reboot leaves no exit record).
        """
        raw = self.host.read(f"{handle.directory}/exit.json")
        if raw:
            try:
                info = json.loads(raw)
                return ServiceState(False, info.get("code"), info.get("signal"))
            except ValueError:
                pass
        if not deep:
            return ServiceState(True)
        result = self.host.run([self.python, self._supervisor(), "status", handle.directory], timeout=30)
        try:
            info = json.loads(result.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return ServiceState(True)
        if info.get("state") == "running":
            return ServiceState(True)
        if info.get("state") == "exited":
            return ServiceState(False, info.get("code"), info.get("signal"))
        return ServiceState(False, gone=True)

    def read_log(self, handle: ServiceHandle, offset: int, limit: int | None = None) -> bytes:
        return self.host.read(handle.log_path, offset=offset, limit=limit)

    def stop(self, handle: ServiceHandle, grace: float = 30.0) -> ServiceState:
        self.host.run([self.python, self._supervisor(), "stop", handle.directory, str(grace)], timeout=grace + 30)
        return self.state(handle)

    def watch(self, handle: ServiceHandle, offset: int = 0) -> Channel:
        script = install_script(self.host, "watch.py")
        return self.host.spawn([self.python, script, "process", handle.directory, str(offset)])

    def listeners(self, port: int, handle: ServiceHandle | None) -> list[Listener]:
        # The candidate's token is its directory's name (supervise.py puts it in its env).
        token = [handle.name] if handle is not None else []
        result = self.host.run([self.python, self._supervisor(), "listeners", str(port), *token], timeout=60)
        return parse_listeners(result.stdout)
