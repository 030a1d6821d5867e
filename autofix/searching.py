"""What ``autofix search`` is asked, and what each search then runs on.

A :class:`SearchRequest` is the command line's search options as one frozen value, for
one base or several; it checks them against each base (gates, budgets, host and target)
before anything runs, and opens the hosts (:class:`HostSlot`: a host, the target on it,
the manager that starts candidates there, the label the store knows it by).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .config import BaseConfig, parse_base, parse_duration
from .errors import ConfigError, InputError
from .model import Gate

if TYPE_CHECKING:
    from .hosts.base import Host
    from .run import SearchOptions
    from .services import ServiceManager
    from .targets import Target

ENGINES = {"sglang": "SGLang", "vllm": "vLLM"}


@dataclass(frozen=True)
class SearchRequest:
    """The options of one ``autofix search`` (one base or several)."""

    bases: tuple[str, ...]
    host: str | None = None
    hosts: str | None = None
    target: str | None = None
    db: str | None = None
    gates: str | None = None
    max_attempts: int | None = None
    max_time: str | None = None
    as_json: bool = False
    accept_new_host_key: bool = False
    resume: int | None = None
    explore: int = 0
    use_cache: bool = True

    def host_list(self) -> list[str]:
        """--hosts as a list ([] without it); it excludes --host."""
        if not self.hosts:
            return []
        if self.host:
            raise InputError("--host and --hosts: give one or the other")
        return [s.strip() for s in self.hosts.split(",") if s.strip()]

    def specs_for(self, configs: list[BaseConfig]) -> list[str]:
        """The hosts the searches run on: --hosts, --host, or the one host the bases name."""
        if listed := self.host_list():
            specs = listed
        elif self.host:
            specs = [self.host]
        else:
            named = {c.host for c in configs}
            if len(named) > 1:
                raise InputError(
                    f"the bases name different hosts ({', '.join(sorted(named))}): "
                    "give --host or --hosts for all of them"
                )
            specs = [configs[0].host]
        for config in configs:
            for spec in specs:
                host_and_target(spec, self.target, config)  # refuses a bad host or target now
        return specs

    def options(self, config: BaseConfig, label: str, *, where: str = "") -> SearchOptions:
        """The search options for ``config`` on host ``label``, checked."""
        from .run import SearchOptions

        gates = parse_gates(self.gates, config)
        if self.explore and Gate.BENCH not in gates:
            raise InputError(
                f"{where}--explore ranks passing configs by the bench gate: set gates.bench in the base or "
                "--gates …,bench"
            )
        max_time = parse_duration(self.max_time, source="--max-time") if self.max_time else config.search.max_time
        return SearchOptions(
            gates=gates,
            max_attempts=self.max_attempts or config.search.max_attempts,
            max_time=max_time,
            host_label=label,
            explore=self.explore,
        )


@dataclass(frozen=True)
class HostSlot:
    """A host opened for a search: what runs there and how it is started."""

    host: Host
    target: Target
    services: ServiceManager
    label: str


def parse_gates(value: str | None, config: BaseConfig) -> tuple[Gate, ...]:
    from .run import default_gates

    if not value:
        return default_gates(config)
    gates: list[Gate] = []
    for item in value.split(","):
        name = item.strip()
        try:
            gates.append(Gate(name))
        except ValueError:
            known = ",".join(g.value for g in Gate)
            raise InputError(f"--gates: unknown gate {name!r} (choose from {known})") from None
    return tuple(g for g in Gate if g in gates)


def host_and_target(host_opt: str | None, target_opt: str | None, config: BaseConfig) -> tuple[str, str]:
    """The host spec and the target kind a search of ``config`` uses."""
    spec = host_opt or config.host
    if host_opt is not None:
        try:
            parse_base(f"host: {json.dumps(host_opt)}\nlaunch: {{args: {{}}}}", source="--host")
        except ConfigError:
            raise InputError(f"--host: {host_opt!r} must be sim, local, or [user@]address[:port]") from None
    family = config.target
    sim_kind = "vllm-sim" if family == "vllm" else "sim"
    if spec == "sim":
        if target_opt not in (None, "sim"):
            raise InputError(f"--host sim runs the simulated {ENGINES[family]}; --target must be sim or left out")
        return "sim", sim_kind
    if target_opt in ("sglang", "vllm") and target_opt != family:
        raise InputError(
            f"--target {target_opt}: {config.source} is a {ENGINES[family]} base (target: {family}, "
            f"launch.module {config.launch.module})"
        )
    return spec, sim_kind if target_opt in ("sim", "vllm-sim") else family


def open_host(spec: str, index: int, accept_new: bool, on_retry: Callable[[str], None] | None = None) -> Host:
    from .hosts.local import LocalHost
    from .hosts.ssh import SshHost

    if spec in ("sim", "local"):
        # Several sim hosts on one machine: each its own work dir (and lock) and ports.
        workdir = os.path.join(tempfile.gettempdir(), f"autofix-{os.getuid()}", f"{spec}{index}") if index else None
        return LocalHost(workdir=workdir, name=spec)
    return SshHost(spec, accept_new_host_key=accept_new, on_retry=on_retry)


def slot_on(host: Host, spec: str, index: int, kind: str, config: BaseConfig) -> HostSlot:
    """What runs on ``host`` for ``config``, and the manager that starts it there."""
    from .services import ProcessManager
    from .targets import make_target

    sim_load_s = env_seconds("AUTOFIX_SIM_LOAD_S")
    remote = None if spec in ("sim", "local") else host
    target = make_target(kind, config, sim_load_s=sim_load_s, remote=remote, index=index)
    services: ServiceManager
    if target.simulated or config.service.manager == "process" or spec == "local":
        # The sim host and this machine have no systemd as PID 1: the process manager.
        services = ProcessManager(host, target.python)
    else:
        from .systemd import SystemdManager

        services = SystemdManager(host, target.python)
    return HostSlot(host, target, services, spec)


def open_slots(
    request: SearchRequest, config: BaseConfig, on_retry: Callable[[str], None] | None = None
) -> list[HostSlot]:
    """One search's hosts (--hosts: several), opened, each with its target and manager."""
    first, kind = host_and_target(request.host, request.target, config)
    specs = request.host_list() or [first]
    for spec in specs:
        host_and_target(spec, request.target, config)
    slots = []
    for index, spec in enumerate(specs):
        spec, kind = host_and_target(spec, request.target if spec != "sim" else None, config)
        slots.append(slot_on(open_host(spec, index, request.accept_new_host_key, on_retry), spec, index, kind, config))
    return slots


def env_seconds(name: str) -> float | None:
    value = os.environ.get(name)
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        raise InputError(f"{name}={value!r}: must be a number of seconds") from None
