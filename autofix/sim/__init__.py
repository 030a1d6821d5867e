"""The simulated host: an SGLang 0.5.23 look-alike on 8 x RTX PRO 6000 Blackwell (SM120).

This is a simulator, not SGLang. ``SITE_DIR`` holds a stdlib-only package importable as
``sglang`` once SITE_DIR is on PYTHONPATH, so the very same probe and launch command
(``python -m sglang.launch_server ...``) run against it. Written by us from observations
of the real 0.5.23 (README.md here): its module paths, CLI flags, log format, and its
argument gates and defaults as data (``site/sglang/srt/_sim/data/rules.json``) raised
through frames with SGLang's files, lines, source lines and carets (checked against
captures of the real code by tests/sim/test_parity.py). It spawns one OS process per TP
rank, simulates GPU memory, NCCL and load time, and serves the OpenAI-compatible HTTP API
with a deterministic speed model. ``sglang.SIMULATED`` is True so a caller can tell.

Environment read by the simulated host (see ``sim_env``):

* ``AUTOFIX_SIM_GPUS`` (default 8) and ``AUTOFIX_SIM_GPU_MEM_GB`` (default 96)
* ``AUTOFIX_SIM_LOAD_S`` (float, default 3): total model load time of a launch
* ``AUTOFIX_SIM_STRICT_SM120`` ("1": DeepseekV3 gets triton/page 1 as real 0.5.23 on SM120;
  default: trtllm_mla with page size 64, the deployment of the seed story)
* ``AUTOFIX_SIM_RECORD`` (path): every ``prepare_server_args`` call appends
  ``{"argv": [...], "pid": N, "entry": ...}`` as one JSON line
* ``AUTOFIX_SIM_HOST_RAM_GB`` (default 1536): host RAM for ``--cpu-offload-gb``
* ``AUTOFIX_SIM_FAULT``: a host fault the launched server suffers (``site/sglang/srt/_sim/faults.py``):
  ``hang``, ``hang-load``, ``crash-load``, ``flap-health``, ``oom-under-load``, ``oom-killer``,
  ``segfault``, ``torn-traceback``, ``torn-traceback-hang``; unset: none, unknown: the launch fails.
  Set it in a base's ``launch.env`` (it then reaches the server on any host, as any env does)
  or in the environment the controller runs in (local sim hosts inherit it)
* ``AUTOFIX_SIM_FAULT_AFTER_S`` (default 0): seconds of client requests before ``oom-under-load``
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "BUILTIN_MODELS",
    "SIMULATED_SGLANG_VERSION",
    "SITE_DIR",
    "sim_env",
]

SITE_DIR: Path = Path(__file__).resolve().parent / "site"
"""Directory to put on PYTHONPATH so that ``import sglang`` finds the simulator."""

SIMULATED_SGLANG_VERSION = "0.5.23"

BUILTIN_MODELS: dict[str, str] = {
    "/models/Kimi-K2.6": "DeepseekV3ForCausalLM (MLA, 61 layers, hidden 7168), ~595 GB",
    "/models/Kimi-K2.6-EAGLE3": "LlamaForCausalLMEagle3 (1 layer, hidden 7168), ~6 GB",
}
"""Model paths the simulated host has without any directory on disk."""


def sim_env(
    load_s: float | None = None,
    *,
    base_pythonpath: str | None = None,
) -> dict[str, str]:
    """Environment variables to add so that ``python -m sglang.launch_server`` runs the sim.

    ``PYTHONPATH`` is SITE_DIR followed by ``base_pythonpath`` (default: the current
    process's PYTHONPATH, if any). ``load_s`` sets ``AUTOFIX_SIM_LOAD_S``.
    """
    existing = os.environ.get("PYTHONPATH", "") if base_pythonpath is None else base_pythonpath
    parts = [str(SITE_DIR)] + [p for p in existing.split(os.pathsep) if p and p != str(SITE_DIR)]
    env = {"PYTHONPATH": os.pathsep.join(parts)}
    if load_s is not None:
        if load_s < 0:
            raise ValueError(f"load_s must be >= 0, got {load_s}")
        env["AUTOFIX_SIM_LOAD_S"] = repr(float(load_s))
    return env
