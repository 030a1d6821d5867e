"""CUDA graph configuration (simulated subset)."""

import argparse
import copy
import json
from typing import Any, Dict


class Phase:
    DECODE = "decode"
    PREFILL = "prefill"
    ALL = ("decode", "prefill")


class Backend:
    FULL = "full"
    BREAKABLE = "breakable"
    DISABLED = "disabled"


ALLOWED_KEYS_PER_PHASE = {
    "decode": {"backend", "max_bs", "bs"},
    "prefill": {"backend", "max_bs", "bs", "max_context"},
}


class PhaseConfig:
    def __init__(self, backend=Backend.FULL, max_bs=None, bs=None):
        self.backend = backend
        self.max_bs = max_bs
        self.bs = bs

    def __eq__(self, other):
        return isinstance(other, PhaseConfig) and vars(self) == vars(other)

    def __repr__(self):
        return f"PhaseConfig(backend={self.backend!r}, max_bs={self.max_bs!r})"


class CudaGraphConfig:
    def __init__(self, decode=None, prefill=None):
        self.decode = decode or PhaseConfig()
        self.prefill = prefill or PhaseConfig(backend=Backend.DISABLED)

    def __eq__(self, other):
        return (
            isinstance(other, CudaGraphConfig)
            and self.decode == other.decode
            and self.prefill == other.prefill
        )

    def __repr__(self):
        return (
            f"CudaGraphConfig(decode={self.decode!r}, prefill={self.prefill!r})"
        )

    def to_dict(self):
        return {
            "decode": {"backend": self.decode.backend, "max_bs": self.decode.max_bs},
            "prefill": {"backend": self.prefill.backend, "max_bs": self.prefill.max_bs},
        }


def with_phase(config: CudaGraphConfig, phase: str, **changes) -> CudaGraphConfig:
    new = copy.deepcopy(config)
    target = new.decode if phase == Phase.DECODE else new.prefill
    for key, value in changes.items():
        setattr(target, key, value)
    return new


def parse_cuda_graph_backend_arg(raw: str) -> str:
    """Reject the retired backend before argparse checks supported choices."""
    if raw == "tc_piecewise":
        raise argparse.ArgumentTypeError(
            "tc_piecewise was removed; select breakable, full, or disabled"
        )
    return raw


def parse_cuda_graph_config_arg(raw: str) -> Dict[str, Dict[str, Any]]:
    """argparse type for --cuda-graph-config: parse JSON dict of
    phase -> settings dict."""
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as e:
        raise argparse.ArgumentTypeError(f"--cuda-graph-config must be JSON: {e}")
    if not isinstance(parsed, dict):
        raise argparse.ArgumentTypeError(
            f"--cuda-graph-config must be a JSON object, got {type(parsed).__name__}"
        )

    result: Dict[str, Dict[str, Any]] = {}
    for phase, phase_settings in parsed.items():
        phase = str(phase)
        if phase not in Phase.ALL:
            raise argparse.ArgumentTypeError(
                f"--cuda-graph-config: unknown phase '{phase}', expected one of {Phase.ALL}"
            )
        if not isinstance(phase_settings, dict):
            raise argparse.ArgumentTypeError(
                f"--cuda-graph-config['{phase}'] must be a JSON object, got "
                f"{type(phase_settings).__name__}"
            )
        if "backend" in phase_settings:
            parse_cuda_graph_backend_arg(phase_settings["backend"])
        allowed = ALLOWED_KEYS_PER_PHASE[phase]
        result[phase] = {}
        for key, value in phase_settings.items():
            if key not in allowed:
                raise argparse.ArgumentTypeError(
                    f"--cuda-graph-config['{phase}']: unknown key '{key}', "
                    f"expected one of {sorted(allowed)}"
                )
            result[phase][key] = value
    return result


def build_cuda_graph_config(cfg) -> CudaGraphConfig:
    """Assemble the per-phase config from the CLI spellings (sim: simplified precedence)."""
    decode = PhaseConfig()
    prefill = PhaseConfig(backend=Backend.DISABLED)
    raw = cfg.cuda_graph_config if isinstance(cfg.cuda_graph_config, dict) else {}
    for phase, target in (("decode", decode), ("prefill", prefill)):
        for key, value in (raw.get(phase) or {}).items():
            if key in ("backend", "max_bs", "bs"):
                setattr(target, key, value)
    if cfg.cuda_graph_backend_decode is not None:
        decode.backend = cfg.cuda_graph_backend_decode
    if cfg.cuda_graph_backend_prefill is not None:
        prefill.backend = cfg.cuda_graph_backend_prefill
    if cfg.cuda_graph_max_bs_decode is not None:
        decode.max_bs = cfg.cuda_graph_max_bs_decode
    if cfg.cuda_graph_max_bs_prefill is not None:
        prefill.max_bs = cfg.cuda_graph_max_bs_prefill
    if cfg.cuda_graph_bs_decode:
        decode.bs = list(cfg.cuda_graph_bs_decode)
    if cfg.cuda_graph_bs_prefill:
        prefill.bs = list(cfg.cuda_graph_bs_prefill)
    if cfg.disable_cuda_graph or cfg.disable_decode_cuda_graph:
        decode.backend = Backend.DISABLED
    if cfg.disable_cuda_graph or cfg.disable_prefill_cuda_graph:
        prefill.backend = Backend.DISABLED
    return CudaGraphConfig(decode=decode, prefill=prefill)
