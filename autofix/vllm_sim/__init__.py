"""The simulated vLLM host: a `vllm serve` look-alike on 8 x RTX PRO 6000 Blackwell (SM120).

This is a simulator, not vLLM, and contains none of vLLM's code. ``SITE_DIR`` holds a
stdlib-only package importable as ``vllm`` once SITE_DIR is on PYTHONPATH (and only then),
so the very same probe (autofix/probes/preflight_vllm.py) and launch command
(``python -m vllm.entrypoints.cli.main serve ...``) run against it. What it reproduces and
from which facts: README.md beside this file. ``vllm.SIMULATED`` is True.

Environment it reads: ``AUTOFIX_SIM_GPUS`` (8), ``AUTOFIX_SIM_GPU_MEM_GB`` (96),
``AUTOFIX_SIM_LOAD_S`` (3, seconds of weight loading per launch).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["SIMULATED_VLLM_VERSION", "SITE_DIR", "sim_env"]

SITE_DIR: Path = Path(__file__).resolve().parent / "site"
SIMULATED_VLLM_VERSION = "0.33.0"


def sim_env(load_s: float | None = None, *, base_pythonpath: str | None = None) -> dict[str, str]:
    """Environment that makes ``python -m vllm.entrypoints.cli.main serve`` run the sim."""
    existing = os.environ.get("PYTHONPATH", "") if base_pythonpath is None else base_pythonpath
    parts = [str(SITE_DIR)] + [p for p in existing.split(os.pathsep) if p and p != str(SITE_DIR)]
    env = {"PYTHONPATH": os.pathsep.join(parts)}
    if load_s is not None:
        if load_s < 0:
            raise ValueError(f"load_s must be >= 0, got {load_s}")
        env["AUTOFIX_SIM_LOAD_S"] = repr(float(load_s))
    return env
