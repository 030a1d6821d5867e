"""The systemd service manager: each candidate a transient unit, its journal by invocation.

    systemd-run --unit=NAME --property=Restart=no --property=EnvironmentFile=DIR/env
                -- PYTHON -m MODULE ARGS [--config DIR/secret-args.yaml]
    systemctl show -p ActiveState,SubState,ExecMainStatus,ExecMainCode,InvocationID NAME
    journalctl _SYSTEMD_INVOCATION_ID=ID -o json      (all of this attempt's lines, only them)
    systemctl stop NAME; systemctl reset-failed NAME

Commands go through the Host as argv lists (systemd-run takes the candidate's argv as
its own arguments: no shell, no unit-file quoting involved), with ``sudo -n`` when the
SSH user is not root. ``service.conflicts`` (the production unit on the same GPUs) are
stopped before the first launch and started again at the end.

No value of the candidate's env is on a command line: ``--setenv=HF_TOKEN=…`` would show
in ``ps``, in sudo's log and in ``systemctl show -p Environment``. The env goes in a file
systemd reads (EnvironmentFile=, written by systemd's quoting rules) and the secret flags
in SGLang's --config file, both in a 0700 directory of the attempt, removed when the unit
is stopped (or when the start fails).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .errors import HostError
from .export import environment_file
from .hosts.base import Channel, CommandResult, Host
from .hosts.install import install_script
from .model import Candidate
from .services import Listener, ServiceHandle, ServiceState, parse_listeners
from .targets import Target

SHOW_PROPERTIES = "ActiveState,SubState,ExecMainStatus,ExecMainCode,InvocationID"
CLD_KILLED = "2"
CLD_DUMPED = "3"


def parse_show(text: str) -> dict[str, str]:
    """``systemctl show`` output (KEY=value lines) as a dict."""
    out: dict[str, str] = {}
    for line in text.split("\n"):  # a value may hold U+2028 and the like: lines end at newlines
        key, sep, value = line.partition("=")
        if sep:
            out[key.strip()] = value.strip()
    return out


def state_from_show(props: dict[str, str]) -> ServiceState:
    active = props.get("ActiveState", "")
    if active in ("active", "activating", "reloading", "deactivating"):
        return ServiceState(True)
    status = props.get("ExecMainStatus") or "0"
    code = props.get("ExecMainCode", "")
    number = int(status) if status.lstrip("-").isdigit() else 0
    if code in (CLD_KILLED, CLD_DUMPED):
        return ServiceState(False, None, number)
    if not props.get("InvocationID"):
        return ServiceState(False, gone=True)
    return ServiceState(False, number, None)


class SystemdManager:
    def __init__(self, host: Host, python: str, *, sudo: bool | None = None) -> None:
        self.host = host
        self.python = python
        user = getattr(host, "user", None)
        self.sudo = sudo if sudo is not None else bool(user and user != "root")

    def _run(self, argv: Sequence[str], timeout: float = 60) -> CommandResult:
        return self.host.run(["sudo", "-n", *argv] if self.sudo else list(argv), timeout=timeout)

    def _check(self, argv: Sequence[str], timeout: float = 60) -> CommandResult:
        result = self._run(argv, timeout)
        if not result.ok:
            detail = (result.stderr or result.stdout).strip().splitlines()
            raise HostError(
                f"{self.host.name}: {' '.join(argv[:2])} failed: {detail[-1] if detail else result.returncode}"
            )
        return result

    def planned(self, name: str) -> ServiceHandle:
        # The invocation id comes with the start; stop() needs only the unit's name.
        return ServiceHandle(f"{name}.service", "", None, "")

    def files(self, name: str) -> tuple[str, str, str]:
        """The attempt's private directory, its env file and its secret-args file."""
        directory = f"{self.host.workdir}/services/{name}"
        return directory, f"{directory}/env", f"{directory}/secret-args.yaml"

    def start(
        self, name: str, candidate: Candidate, target: Target, cwd: str | None, env_files: Sequence[str] = ()
    ) -> ServiceHandle:
        unit = self.planned(name).name
        directory, env_file, secret_file = self.files(name)
        argv = [
            "systemd-run",
            f"--unit={name}",
            "--property=Restart=no",
            "--property=KillMode=control-group",
            "--quiet",
        ]
        env = target.launch_env(candidate)
        secret_args = target.secret_args(candidate)
        try:
            if env or secret_args:
                # A 0700 directory first: a file in it is never readable by anyone else,
                # not even in the moment between its creation and its chmod.
                self._private_directory(directory)
            if env:
                self.host.put(env_file, environment_file(list(env.items())).encode(), mode=0o600)
                argv.append(f"--property=EnvironmentFile={env_file}")
            # The operator's own files after ours: systemd lets a later file win, as in
            # the exported unit, where they override its Environment= lines.
            argv += [f"--property=EnvironmentFile={path}" for path in env_files]
            if secret_args:
                self.host.put(secret_file, secret_args.encode(), mode=0o600)
            if cwd:
                argv.append(f"--working-directory={cwd}")
            argv += ["--", *target.launch_argv(candidate, secret_file if secret_args else None)]
            self._check(argv)
            props = parse_show(self._check(["systemctl", "show", "-p", SHOW_PROPERTIES, unit]).stdout)
        except BaseException:
            self._forget(name)
            raise
        invocation = props.get("InvocationID", "")
        if not invocation:
            raise HostError(f"{self.host.name}: {unit} started but has no invocation id")
        return ServiceHandle(unit, invocation, None, "")

    def _private_directory(self, directory: str) -> None:
        result = self.host.run(["install", "-d", "-m", "700", directory], timeout=30)
        if not result.ok:
            raise HostError(f"{self.host.name}: cannot make {directory}: {(result.stderr or result.stdout).strip()}")

    def _forget(self, name: str) -> None:
        """Remove what the attempt's start wrote (its env and secret flags)."""
        _, env_file, secret_file = self.files(name)
        self.host.run(["rm", "-f", env_file, secret_file], timeout=30)

    def state(self, handle: ServiceHandle, *, deep: bool = True) -> ServiceState:
        props = parse_show(self._check(["systemctl", "show", "-p", SHOW_PROPERTIES, handle.name]).stdout)
        if props.get("InvocationID") and props["InvocationID"] != handle.directory:
            return ServiceState(False, gone=True)  # another run of the unit: ours is gone
        return state_from_show(props)

    def read_log(self, handle: ServiceHandle, offset: int, limit: int | None = None) -> bytes:
        """This invocation's journal (-o json), exported to a file on the host and read by offset."""
        path = f"{self.host.workdir}/journals/{handle.directory}.json"
        if offset == 0:
            script = (
                "import subprocess, sys; "
                "open(sys.argv[1], 'wb').write(subprocess.run(sys.argv[2:], capture_output=True).stdout)"
            )
            self.host.run(["mkdir", "-p", f"{self.host.workdir}/journals"], timeout=30)
            journal = ["journalctl", f"_SYSTEMD_INVOCATION_ID={handle.directory}", "-o", "json", "--no-pager"]
            argv = [self.python, "-c", script, path, *(["sudo", "-n"] if self.sudo else []), *journal]
            self.host.run(argv, timeout=300)
        return self.host.read(path, offset=offset, limit=limit)

    def stop(self, handle: ServiceHandle, grace: float = 30.0) -> ServiceState:
        try:
            self._run(["systemctl", "stop", handle.name], timeout=grace + 60)
            state = self.state(handle)
            self._run(["systemctl", "reset-failed", handle.name])
        finally:
            self._forget(handle.name.removesuffix(".service"))
        return state

    def watch(self, handle: ServiceHandle, offset: int = 0) -> Channel:
        script = install_script(self.host, "watch.py")
        argv = [self.python, script, "systemd", handle.name, handle.directory]
        return self.host.spawn(["sudo", "-n", *argv] if self.sudo else argv)

    def listeners(self, port: int, handle: ServiceHandle | None) -> list[Listener]:
        """Who listens on ``port``; the candidate is known by its unit in /proc/PID/cgroup.
        As root (sudo): another user's process is seen too, not only that one is there."""
        script = install_script(self.host, "supervise.py")
        token = [handle.name.removesuffix(".service")] if handle is not None else []
        result = self._run([self.python, script, "listeners", str(port), *token])
        return parse_listeners(result.stdout)

    # --- the production unit on the same GPUs -------------------------------------------
    def stop_units(self, units: Sequence[str]) -> list[str]:
        """Stop the units that are active; return those, to start them again later."""
        stopped = []
        for unit in units:
            if self._run(["systemctl", "is-active", "--quiet", unit]).ok:
                self._check(["systemctl", "stop", unit], timeout=300)
                stopped.append(unit)
        return stopped

    def start_units(self, units: Sequence[str]) -> None:
        for unit in units:
            self._run(["systemctl", "start", unit], timeout=300)


def journal_messages(data: bytes) -> list[str]:
    """MESSAGE fields of journalctl -o json output (for tests and excerpts)."""
    out = []
    for line in data.decode("utf-8", errors="replace").split("\n"):
        try:
            out.append(str(json.loads(line).get("MESSAGE", "")))
        except ValueError:
            continue
    return out
