"""Registry and read views shared by model override providers."""

import logging
from typing import Any, Callable, Dict, List, Optional, Tuple

from sglang.srt.runtime_context import get_platform

logger = logging.getLogger(__name__)


# Constant per-architecture overrides.
MODEL_OVERRIDES: Dict[str, Dict[str, Any]] = {
    # These models require bfloat16 regardless of the requested dtype.
    "MistralLarge3ForCausalLM": {"dtype": "bfloat16"},
    "PixtralForConditionalGeneration": {"dtype": "bfloat16"},
}


# Derived per-architecture override providers, in registration order.
_MODEL_OVERRIDE_FNS: Dict[str, List[Callable[..., dict]]] = {}


# Predicate-keyed providers, in registration order.
_PREDICATE_OVERRIDE_FNS: List[Tuple[Callable[[str], bool], Callable[..., dict]]] = []


def register_model_override(architecture: str):
    """Register a derived-override provider for ``architecture``."""

    def decorator(fn: Callable[..., dict]) -> Callable[..., dict]:
        _MODEL_OVERRIDE_FNS.setdefault(architecture, []).append(fn)
        return fn

    return decorator


def _invoke_provider(
    fn: Callable[..., dict], server_args: Any, hf_config: Any
) -> Dict[str, Any]:
    declared = fn(server_args, hf_config)
    if not isinstance(declared, dict):
        raise TypeError(
            f"model override provider {fn.__qualname__} must return a dict, "
            f"got {type(declared).__name__}"
        )
    return declared


class ResolvedView:
    """Read-only snapshot of declarations over raw inputs, used by post-process passes."""

    __slots__ = ("_server_args", "_overlay")

    def __init__(self, server_args: Any, overlay: Optional[Dict[str, Any]] = None):
        object.__setattr__(self, "_server_args", server_args)
        object.__setattr__(self, "_overlay", overlay or {})

    def __getattr__(self, name: str) -> Any:
        overlay = object.__getattribute__(self, "_overlay")
        if name in overlay:
            return overlay[name]
        return getattr(object.__getattribute__(self, "_server_args"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            "ResolvedView is read-only; post-process passes return declarations"
        )


class ResolvingConfig:
    """Live view of declarations over raw inputs.

    Unlike ``ResolvedView``, each read observes declarations made since construction.
    """

    __slots__ = ("_server_args",)

    def __init__(self, server_args: Any):
        object.__setattr__(self, "_server_args", server_args)

    def __getattr__(self, name: str) -> Any:
        server_args = object.__getattribute__(self, "_server_args")
        for _source, declared in reversed(
            getattr(server_args, "_resolved_overrides", None) or ()
        ):
            if name in declared:
                return declared[name]
        return getattr(server_args, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            "ResolvingConfig is read-only; resolution writes through declarations"
        )


def resolving_view(server_args: Any) -> ResolvingConfig:
    """A live read view of what resolution has decided so far."""
    return ResolvingConfig(server_args)


def _declaration_overlay(server_args: Any) -> Dict[str, Any]:
    """Merge declarations in order, with the last writer winning."""
    overlay: Dict[str, Any] = {}
    for _source, declared in getattr(server_args, "_resolved_overrides", None) or ():
        overlay.update(declared)
    return overlay


def resolved_view(server_args: Any) -> ResolvedView:
    """Snapshot current declarations over the record fields in a read-only view."""
    return ResolvedView(server_args, overlay=_declaration_overlay(server_args))


def attention_backends_of(cfg: Any) -> tuple:
    """(prefill, decode) attention backends of a config-shaped object."""
    prefill = (
        cfg.prefill_attention_backend
        if cfg.prefill_attention_backend
        else cfg.attention_backend
    )
    decode = (
        cfg.decode_attention_backend
        if cfg.decode_attention_backend
        else cfg.attention_backend
    )
    return prefill, decode


def _register_for(*architectures: str):
    """Register one provider for several architectures (family lists)."""

    def decorator(fn: Callable[..., dict]) -> Callable[..., dict]:
        for architecture in architectures:
            register_model_override(architecture)(fn)
        return fn

    return decorator


def record_of(view: Any) -> Any:
    """The record a view reads through."""
    if isinstance(view, (ResolvedView, ResolvingConfig)):
        return object.__getattribute__(view, "_server_args")
    return view


def is_attention_backend_not_set(cfg: Any):
    """Return whether all three attention backends are unset in the resolving view."""
    return (
        cfg.attention_backend is None
        and cfg.prefill_attention_backend is None
        and cfg.decode_attention_backend is None
    )


def use_mla_backend(server_args: Any):
    from sglang.srt.configs.model_config import AttentionArch

    model_config = model_config_of(server_args)
    return model_config.attention_arch == AttentionArch.MLA


def model_config_of(server_args: Any):
    """Build and memoize ModelConfig on the underlying record, accepting records or views."""
    if isinstance(server_args, (ResolvedView, ResolvingConfig)):
        server_args = record_of(server_args)
    # Lazy init to avoid circular import
    cfg = resolving_view(server_args)
    from sglang.srt.configs.model_config import ModelConfig

    memo = getattr(server_args, "_model_config", None)
    if memo is not None:
        built_from = getattr(server_args, "_model_config_built_from", None)
        if built_from is None or built_from == cfg.model_path:
            return memo

    model_config = ModelConfig.from_server_args(server_args)
    server_args._model_config = model_config
    server_args._model_config_built_from = cfg.model_path
    return model_config


def ep_joiner_of(cfg: Any) -> bool:
    """Return whether this process was launched as an elastic-EP joiner."""
    return cfg.ep_join_mode in ("scale", "recover")


def ep_scale_joiner_of(cfg: Any) -> bool:
    """The scale-up arm of :func:`ep_joiner_of`."""
    return cfg.ep_join_mode == "scale"


def is_no_spec_infer_or_topk_one(cfg: Any) -> bool:
    return cfg.speculative_algorithm is None or cfg.speculative_eagle_topk in (None, 1)


def get_default_attn_backend(server_args: Any, use_mla_backend: bool, model_config):
    """
    Auto select the fastest attention backend.

    1. Models with MHA Architecture (e.g: Llama, QWen)
        1.1 We will turn on FA3 on hopper unless user use spec decode with topk > 1 or page_size > 1.
        1.2 Use trtllm_mha for SM100/SM103 (Blackwell B200/GB200/B300) excluding spec with topk > 1.
           Note: trtllm_mha does not support SM120, which will fall back to flashinfer.
        1.3 In other cases, we will use flashinfer if available, otherwise use triton.
    2. Models with MLA Architecture and using FA3
        2.1 We will use FA3 backend on hopper.
        2.2 We will use Flashinfer backend on blackwell.
        2.3 Otherwise, we will use triton backend.
    """
    cfg = resolving_view(server_args)

    if not use_mla_backend:
        # MHA architecture

        if get_platform().is_hopper_with_cuda_12_3 and is_no_spec_infer_or_topk_one(
            resolved_view(server_args)
        ):
            return "fa3"
        elif (
            get_platform().is_sm100
            and is_no_spec_infer_or_topk_one(resolved_view(server_args))
            and (
                cfg.speculative_algorithm is None
                or cfg.speculative_eagle_topk is not None
            )
        ):
            if model_config.has_asymmetric_kv:
                return "fa4"
            return "trtllm_mha"
        elif get_platform().is_hip:
            return "aiter"
        else:
            # FlashInfer does not support attention sinks.
            if get_platform().has_flashinfer and not model_config.has_attention_sinks:
                return "flashinfer"
            return "triton"
    else:
        # MLA architecture
        if get_platform().is_hopper_with_cuda_12_3:
            return "fa3"
        elif get_platform().is_sm100:
            return "flashinfer"
        elif get_platform().is_hip:
            return "aiter"
        else:
            return "triton"
