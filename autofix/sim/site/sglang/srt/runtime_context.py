"""Process-wide context (simulated subset): the machine's platform facts and helpers."""

from typing import Any, Dict

from sglang.srt._sim import host

_PLATFORM_FACTS: Dict[str, Any] = {
    "is_cuda": True,
    "is_hip": False,
    "is_npu": False,
    "is_xpu": False,
    "is_musa": False,
    "is_mps": False,
    "is_sm90": False,
    "is_sm100": False,
    "is_sm100_or_sm110": False,
    "is_sm110": False,
    "is_sm120": True,
    "is_blackwell": True,
    "is_hopper_with_cuda_12_3": False,
    "has_amx": False,
    "has_flashinfer": True,
    "device_sm": 120,
    "device_capability": host.COMPUTE_CAPABILITY,
}


class PlatformContext:
    """The machine's own facts: the simulated host is RTX PRO 6000 Blackwell (SM120)."""

    __slots__ = ("_overrides",)

    def __init__(self) -> None:
        object.__setattr__(self, "_overrides", {})

    def __getattr__(self, name: str) -> Any:
        overrides = object.__getattribute__(self, "_overrides")
        if name in overrides:
            return overrides[name]
        if name not in _PLATFORM_FACTS:
            known = sorted(_PLATFORM_FACTS)
            raise AttributeError(
                f"unknown platform fact {name!r}; known: {', '.join(known)}"
            )
        return _PLATFORM_FACTS[name]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            "platform facts are not assigned; use "
            "`sglang.srt.runtime_context.override_platform(...)` so every "
            "reader agrees"
        )


_PLATFORM = PlatformContext()


def get_platform() -> PlatformContext:
    """The machine's facts. Answers before publish, unlike a config bag."""
    return _PLATFORM


def attn_dp_enabled_of(cfg: Any) -> bool:
    """`attn_dp_enabled`, computed at publish."""
    from sglang.srt.arg_groups.model_override_base import ep_scale_joiner_of

    return cfg.attn_dp_size > 1 or ep_scale_joiner_of(cfg)


def num_dp_ranks_of(cfg: Any) -> int:
    """`num_dp_ranks`, computed at publish: replicas times attention-DP groups."""
    return cfg.dp_size * cfg.attn_dp_size


def derive_attn_tp_size(*, tp_size: int, attn_cp_size: int, attn_dp_size: int) -> int:
    return max(1, tp_size // max(1, attn_dp_size) // max(1, attn_cp_size))


class _Context:
    server_args = None


_CONTEXT = _Context()


def get_context():
    return _CONTEXT


def publish(server_args, role="tokenizer", ranks=None):
    _CONTEXT.server_args = server_args
