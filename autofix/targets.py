"""What runs on a host: the real target (``launch.python -m launch.module``) or the sim.

``--target sim`` swaps in autofix's SGLang look-alike (autofix/sim) with the controller's
own Python and the sim on PYTHONPATH, so the very same probe and launch command run
against it. Everything else (args, env, gates) is the same.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

from .config import BaseConfig
from .errors import InputError
from .hosts.base import Host
from .model import Candidate
from .secrets import Secrets

TARGETS = ("sglang", "sim")


@dataclass(frozen=True)
class Target:
    kind: str
    python: str
    module: str
    env: tuple[tuple[str, str], ...] = ()
    # Several simulated hosts share this machine's network: sim host i binds port + offset.
    port_offset: int = 0
    # Which flags hold secrets: they never go on a command line (see launch_argv).
    secrets: Secrets = field(default_factory=Secrets)

    @property
    def simulated(self) -> bool:
        return self.kind == "sim"

    def launch_argv(self, candidate: Candidate, secret_args_file: str | None = None) -> list[str]:
        """The command line, without the candidate's secret flags: those reach the server
        in ``secret_args_file`` (SGLang's own --config YAML, written 0600 by the service
        manager from :meth:`secret_args`), so no process table shows them."""
        if self.port_offset:
            candidate = candidate.with_arg("port", str(self.port(candidate)))
        public, secret = self.secrets.split(candidate)
        argv = [self.python, "-m", self.module, *public.argv()]
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
        """The port the candidate's server listens on, on this target."""
        return int(str(candidate.arg("port") or 30000)) + self.port_offset

    def launch_env(self, candidate: Candidate) -> dict[str, str]:
        return {**dict(self.env), **candidate.env_dict()}

    def env_dict(self) -> Mapping[str, str]:
        return dict(self.env)


def make_target(
    kind: str, config: BaseConfig, *, sim_load_s: float | None = None, remote: Host | None = None
) -> Target:
    """The target on a host; for the sim on a remote host, the sim is copied there first
    and runs with the host's python3."""
    if kind == "sim":
        from .sim import SITE_DIR, sim_env

        if remote is None:
            return Target(
                "sim", sys.executable, config.launch.module, tuple(sim_env(sim_load_s).items()), secrets=config.secrets
            )
        from .preflight import install_tree

        site = install_tree(remote, SITE_DIR, "sim-site")
        env = sim_env(sim_load_s, base_pythonpath="")
        env["PYTHONPATH"] = site
        return Target("sim", "python3", config.launch.module, tuple(env.items()), secrets=config.secrets)
    return Target("sglang", config.launch.python, config.launch.module, secrets=config.secrets)
