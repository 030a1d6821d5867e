"""What runs on a host: the real target (``launch.python -m launch.module``) or the sim.

``--target sim`` swaps in autofix's SGLang look-alike (autofix/sim) with the controller's
own Python and the sim on PYTHONPATH, so the very same probe and launch command run
against it. Everything else (args, env, gates) is the same.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass

from .config import BaseConfig
from .model import Candidate

TARGETS = ("sglang", "sim")


@dataclass(frozen=True)
class Target:
    kind: str
    python: str
    module: str
    env: tuple[tuple[str, str], ...] = ()

    @property
    def simulated(self) -> bool:
        return self.kind == "sim"

    def launch_argv(self, candidate: Candidate) -> list[str]:
        return [self.python, "-m", self.module, *candidate.argv()]

    def launch_env(self, candidate: Candidate) -> dict[str, str]:
        return {**dict(self.env), **candidate.env_dict()}

    def env_dict(self) -> Mapping[str, str]:
        return dict(self.env)


def make_target(kind: str, config: BaseConfig, *, sim_load_s: float | None = None) -> Target:
    if kind == "sim":
        from .sim import sim_env

        return Target("sim", sys.executable, config.launch.module, tuple(sim_env(sim_load_s).items()))
    return Target("sglang", config.launch.python, config.launch.module)
