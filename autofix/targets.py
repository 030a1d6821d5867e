"""What runs on a host: the real target (``launch.python -m launch.module``) or the sim.

``--target sim`` swaps in autofix's SGLang look-alike (autofix/sim) with the controller's
own Python and the sim on PYTHONPATH, so the very same probe and launch command run
against it. Everything else (args, env, gates) is the same.
"""

from __future__ import annotations

import fcntl
import os
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .config import BaseConfig
from .errors import HostError, InputError
from .hosts.base import Host
from .meant import port_in
from .model import Candidate
from .secrets import Secrets

TARGETS = ("sglang", "sim", "vllm", "vllm-sim")
# The engine each kind runs (the sim kinds are look-alikes of it).
FAMILY = {"sglang": "sglang", "sim": "sglang", "vllm": "vllm", "vllm-sim": "vllm"}
SIMULATED = frozenset({"sim", "vllm-sim"})
# vLLM finds no platform on a machine without a GPU and fails every config with "Device
# string must not be empty"; an explicit VLLM_TARGET_DEVICE=cpu in launch.env is
# authoritative (vllm/platforms): the probe gets the base's VLLM_* variables at start.

# Simulated hosts on this machine share its ports: each takes a block of its own, the
# lowest free one (the first sim on the machine keeps the base's own ports).
SIM_PORT_BLOCK = 100
SIM_PORT_BLOCKS = 64
_claimed_blocks: dict[int, int] = {}  # sim host index in this process -> its port offset


@dataclass(frozen=True)
class Target:
    kind: str
    python: str
    module: str
    env: tuple[tuple[str, str], ...] = ()
    # Several simulated hosts share this machine's network: sim host i binds port + offset.
    port_offset: int = 0
    # Words between the module and the flags (``vllm serve``: ``-m vllm.entrypoints.cli.main serve``).
    subcommand: tuple[str, ...] = ()
    # Environment for the preflight probe only: what the engine reads at import, from the
    # base's launch.env (vLLM's VLLM_TARGET_DEVICE picks its platform when imported).
    probe_env: tuple[tuple[str, str], ...] = ()
    # Which flags hold secrets: they never go on a command line (see launch_argv).
    secrets: Secrets = field(default_factory=Secrets)

    @property
    def simulated(self) -> bool:
        return self.kind in SIMULATED

    @property
    def family(self) -> str:
        """The engine: ``sglang`` or ``vllm`` (also for their simulators)."""
        return FAMILY.get(self.kind, "sglang")

    @property
    def probe_script(self) -> str:
        """The preflight probe this engine's validation runs in (autofix/probes/)."""
        return "preflight_vllm.py" if self.family == "vllm" else "preflight.py"

    def launch_argv(self, candidate: Candidate, secret_args_file: str | None = None) -> list[str]:
        """The command line, without the candidate's secret flags: those reach the server
        in ``secret_args_file`` (SGLang's own --config YAML, written 0600 by the service
        manager from :meth:`secret_args`), so no process table shows them."""
        if self.port_offset:
            candidate = candidate.with_arg("port", str(self.port(candidate)))
        public, secret = self.secrets.split(candidate)
        argv = [self.python, "-m", self.module, *self.subcommand, *public.argv()]
        if secret:
            if secret_args_file is None:
                raise ValueError("a candidate with secret flags needs the file they go in")
            if public.has("config"):
                raise InputError(
                    f"launch.args.config: the host's parser documents {', '.join(secret)} as secret; autofix passes "
                    "them in a --config file of its own and SGLang reads one only: move them into your config file"
                )
            argv += ["--config", secret_args_file]
        return argv

    def secret_args(self, candidate: Candidate) -> str | None:
        """The --config YAML that carries the candidate's secret flags (None: it has none)."""
        from .export import secret_args_text

        _, secret = self.secrets.split(candidate)
        return secret_args_text(secret) if secret else None

    def port(self, candidate: Candidate) -> int:
        """The port the candidate's server listens on, on this target (the engine's default
        when the candidate sets none: SGLang 30000, vLLM 8000)."""
        default = 8000 if self.family == "vllm" else 30000
        value = candidate.arg("port") or default
        # (words pasted after the port are the parser's to refuse: the port is the first)
        first = value[0] if isinstance(value, tuple) and value else value
        # (an address that ends in the port, "30000:30000": the number; the load checked it)
        port = port_in(str(first))
        if port is None:
            raise InputError(f"launch.args.port: must be a TCP port number (1-65535), got {first!r}")
        return port + self.port_offset

    def launch_env(self, candidate: Candidate) -> dict[str, str]:
        return {**dict(self.env), **candidate.env_dict()}

    def env_dict(self) -> Mapping[str, str]:
        return dict(self.env)

    def probe_env_dict(self) -> dict[str, str]:
        return {**dict(self.env), **dict(self.probe_env)}


def sim_port_offset(index: int = 0) -> int:
    """The port offset of this process's simulated host ``index``: a block no other sim
    host on this machine holds (any user, any TMPDIR), held until this process ends.
    ``AUTOFIX_SIM_PORT_OFFSET`` fixes it instead (plus ``index`` blocks)."""
    fixed = os.environ.get("AUTOFIX_SIM_PORT_OFFSET")
    if fixed is not None:
        if not fixed.isdigit() or int(fixed) > 60000:
            raise InputError(f"AUTOFIX_SIM_PORT_OFFSET={fixed!r}: must be a number of ports (0-60000)")
        return int(fixed) + SIM_PORT_BLOCK * index
    if index not in _claimed_blocks:
        _claimed_blocks[index] = _claim_block()
    return _claimed_blocks[index]


def _claim_block() -> int:
    base = Path("/tmp") if os.access("/tmp", os.W_OK) else Path(tempfile.gettempdir())
    folder = base / "autofix-sim-ports"
    try:
        folder.mkdir(mode=0o1777, exist_ok=True)
        for n in range(SIM_PORT_BLOCKS):
            fd = os.open(folder / f"{n}.lock", os.O_RDWR | os.O_CREAT, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            return SIM_PORT_BLOCK * n  # the descriptor stays open: the block is ours
    except OSError as exc:
        raise HostError(f"cannot claim ports for the simulated host in {folder}: {exc}") from exc
    raise HostError(f"all {SIM_PORT_BLOCKS} port blocks of simulated hosts on this machine are in use")


def make_target(
    kind: str,
    config: BaseConfig,
    *,
    sim_load_s: float | None = None,
    remote: Host | None = None,
    index: int = 0,
) -> Target:
    """The target on a host; for the sim on a remote host, the sim is copied there first
    and runs with the host's python3. A local sim host takes ports of its own
    (:func:`sim_port_offset`); several on a remote host, a block per ``index``."""
    if kind in ("vllm", "vllm-sim") or config.target == "vllm":
        return _vllm_target(kind, config, sim_load_s=sim_load_s, remote=remote, index=index)
    if kind == "sim":
        from .sim import SITE_DIR, sim_env

        if remote is None:
            env = tuple(sim_env(sim_load_s).items())
            return Target(
                "sim",
                sys.executable,
                config.launch.module,
                env,
                port_offset=sim_port_offset(index),
                secrets=config.secrets,
            )
        from .hosts.install import install_tree

        site = install_tree(remote, SITE_DIR, "sim-site")
        remote_env = sim_env(sim_load_s, base_pythonpath="")
        remote_env["PYTHONPATH"] = site
        return Target(
            "sim",
            "python3",
            config.launch.module,
            tuple(remote_env.items()),
            SIM_PORT_BLOCK * index,
            secrets=config.secrets,
        )
    return Target("sglang", config.launch.python, config.launch.module, secrets=config.secrets)


def _vllm_target(kind: str, config: BaseConfig, *, sim_load_s: float | None, remote: Host | None, index: int) -> Target:
    """vLLM on a host, or its look-alike (autofix/vllm_sim) for ``sim`` / ``vllm-sim``."""
    subcommand = config.launch.subcommand
    probe_env = tuple((n, v) for n, v in config.base.env if n.startswith("VLLM_"))
    if kind not in ("sim", "vllm-sim"):
        return Target(
            "vllm", config.launch.python, config.launch.module, (), 0, subcommand, probe_env, secrets=config.secrets
        )
    from .vllm_sim import SITE_DIR, sim_env

    if remote is None:
        env = tuple(sim_env(sim_load_s).items())
        offset = sim_port_offset(index)
        return Target(
            "vllm-sim", sys.executable, config.launch.module, env, offset, subcommand, probe_env, secrets=config.secrets
        )
    from .hosts.install import install_tree

    site = install_tree(remote, SITE_DIR, "vllm-sim-site")
    remote_env = sim_env(sim_load_s, base_pythonpath="")
    remote_env["PYTHONPATH"] = site
    env_pairs = tuple(remote_env.items())
    return Target(
        "vllm-sim",
        "python3",
        config.launch.module,
        env_pairs,
        SIM_PORT_BLOCK * index,
        subcommand,
        probe_env,
        secrets=config.secrets,
    )
