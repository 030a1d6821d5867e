# Copyright 2023-2026 SGLang Team
# Licensed under the Apache License, Version 2.0 (the "License");
# ==============================================================================
"""Configuration declarations and model override dispatch.

Declarations preserve raw ServerArgs inputs and are applied in order, last
writer wins. Read them through ``resolution_result`` or published config bags.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Dict, List, Tuple

from sglang.srt.arg_groups import model_override_base
from sglang.srt.arg_groups.arg_utils import (
    field_names,
    is_record,
    with_fallback,
)

# Compatibility re-exports; model providers import model_override_base directly.
from sglang.srt.arg_groups.model_override_base import (  # noqa: F401
    MODEL_OVERRIDES,
    ResolvedView,
    ResolvingConfig,
    _declaration_overlay,
    _invoke_provider,
    _register_for,
    attention_backends_of,
    get_default_attn_backend,
    is_attention_backend_not_set,
    model_config_of,
    record_of,
    register_model_override,
    resolved_view,
    resolving_view,
    use_mla_backend,
)

logger = logging.getLogger(__name__)
from sglang.srt.runtime_context import (
    get_context,
    get_platform,
    num_dp_ranks_of,
)

# Registered post-process passes. This is a registry, not an execution order:
# each pass is invoked from its own slot via run_post_process_pass.
POST_PROCESS_PASSES: List[Callable[..., dict]] = []


def register_post_process(fn: Callable[..., dict]) -> Callable[..., dict]:
    """Register a post-process pass: ``fn(view) -> {field: resolved_value}``."""
    POST_PROCESS_PASSES.append(fn)
    return fn


def run_post_process_pass(server_args: Any, fn: Callable[..., dict]) -> None:
    """Run a pass against the current resolution snapshot and record its decisions.

    After publication, only validation passes returning an empty dict are allowed;
    Engine restart may re-run those validations on the same record.
    """

    declared = fn(ResolvedView(server_args, overlay=_declaration_overlay(server_args)))
    if not isinstance(declared, dict):
        raise TypeError(
            f"post-process pass {fn.__qualname__} must return a dict, "
            f"got {type(declared).__name__}"
        )
    if declared:
        declare_resolution(server_args, fn.__qualname__, **declared)
        validate_declarations(server_args, [(fn.__qualname__, dict(declared))])


def declare_resolution(server_args: Any, source: str, **fields: Any) -> None:
    """Append field decisions without changing raw inputs."""
    if is_record(server_args):
        unknown = sorted(set(fields) - field_names(type(server_args)))
        if unknown:
            raise AttributeError(f"{source}: {unknown} are not ServerArgs fields")
    published = get_context().server_args
    if published is server_args and getattr(server_args, "_resolution_finished", False):
        raise ValueError(
            f"{source}: declared on the published config; the stash is "
            "projected at publish and never again, so this would be a silent "
            "no-op -- post-publish changes go to the bags via "
            "get_context().override(...)"
        )
    stash = getattr(server_args, "_resolved_overrides", None)
    if stash is None:
        stash = []
        server_args._resolved_overrides = stash
    stash.append((source, dict(fields)))


def validate_declarations(server_args: Any, declarations) -> None:
    return None


def resolution_result(server_args: Any, field: str, default: Any = None) -> Any:
    """Read the last declaration, then raw input, then the declared fallback."""
    for _source, declared in reversed(
        getattr(server_args, "_resolved_overrides", None) or ()
    ):
        if field in declared:
            return declared[field]
    raw = getattr(server_args, "_raw_input", None)
    if raw is not None and field in raw:
        return with_fallback(type(server_args), field, raw[field])
    return with_fallback(type(server_args), field, getattr(server_args, field, default))


def collect_model_override_declarations(
    architecture: str, server_args: Any, hf_config: Any
) -> List[Tuple[str, Dict[str, Any]]]:
    """Collect ``(source, declaration)`` pairs for one architecture."""
    declarations: List[Tuple[str, Dict[str, Any]]] = []
    const = model_override_base.MODEL_OVERRIDES.get(architecture)
    if const:
        declarations.append((f"MODEL_OVERRIDES[{architecture!r}]", dict(const)))
    for fn in model_override_base._MODEL_OVERRIDE_FNS.get(architecture, ()):
        declared = _invoke_provider(fn, server_args, hf_config)
        if declared:
            declarations.append((fn.__qualname__, dict(declared)))
    return declarations


# Importing the package is what registers the per-model declarations.
import sglang.srt.arg_groups.model_overrides.deepseek_v2  # noqa: F401,E402


@register_post_process
def _enforce_disable_allreduce_fusion(view: Any) -> dict:
    """Slot pass right after the auto-enable: the user's enforce-disable
    switch wins over every model-specific adjustment."""
    if view.enforce_disable_flashinfer_allreduce_fusion:
        logger.info(
            "FlashInfer allreduce fusion is forcibly disabled "
            "via --enforce-disable-flashinfer-allreduce-fusion."
        )
        return {"flashinfer_allreduce_fusion_backend": None}
    return {}


@register_post_process
def _sampling_backend_default(view: Any) -> dict:
    if view.sampling_backend is None:
        return {
            "sampling_backend": (
                "flashinfer" if get_platform().has_flashinfer else "pytorch"
            )
        }
    return {}


@register_post_process
def _deterministic_sampling_backend(view: Any) -> dict:
    if view.enable_deterministic_inference and view.sampling_backend != "ascend":
        logger.warning(
            "Sampling backend is set to pytorch for deterministic inference."
        )
        return {"sampling_backend": "pytorch"}
    return {}


def _deterministic_is_deepseek_model(view: Any) -> bool:
    """Check the model architecture for deterministic DeepSeek backend selection."""
    try:
        hf_config = model_config_of(view).hf_config
        return hf_config.architectures[0] in [
            "DeepseekV2ForCausalLM",
            "DeepseekV3ForCausalLM",
            "DeepseekV32ForCausalLM",
            "MistralLarge3ForCausalLM",
            "PixtralForConditionalGeneration",
            "GlmMoeDsaForCausalLM",
            "Glm4MoeLiteForCausalLM",
        ]
    except Exception:
        return False


@register_post_process
def _deterministic_allreduce_fusion_disable(view: Any) -> dict:
    if (
        view.enable_deterministic_inference
        and view.flashinfer_allreduce_fusion_backend is not None
    ):
        logger.warning(
            "Disable --flashinfer-allreduce-fusion-backend because deterministic inference is enabled."
        )
        return {"flashinfer_allreduce_fusion_backend": None}
    return {}


@register_post_process
def _deterministic_attention_backend(view: Any) -> dict:
    if not view.enable_deterministic_inference:
        return {}
    from sglang.srt.server_args import DETERMINISTIC_ATTENTION_BACKEND_CHOICES

    if view.attention_backend is None:
        # User didn't specify attention backend, fallback based on GPU architecture
        if get_platform().is_sm100 or get_platform().is_sm120:
            # Blackwell and newer architectures
            if _deterministic_is_deepseek_model(view):
                # fallback to triton for DeepSeek models because flashinfer
                # doesn't support deterministic inference for DeepSeek models yet
                backend = "triton"
            else:
                # fallback to flashinfer on Blackwell for non-DeepSeek models
                backend = "flashinfer"
        else:
            # Hopper (SM90) and older architectures
            backend = "fa3"
        logger.warning(
            f"Attention backend not specified. Falling back to '{backend}' for deterministic inference. "
            f"You can explicitly set --attention-backend to one of {DETERMINISTIC_ATTENTION_BACKEND_CHOICES}."
        )
        return {"attention_backend": backend}
    elif view.attention_backend not in DETERMINISTIC_ATTENTION_BACKEND_CHOICES:
        # User explicitly specified an incompatible attention backend
        raise ValueError(
            f"Currently only {DETERMINISTIC_ATTENTION_BACKEND_CHOICES} attention backends are supported for deterministic inference, "
            f"but you explicitly specified '{view.attention_backend}'."
        )
    return {}


@register_post_process
def _attention_backend_default(view: Any) -> dict:
    if view.prefill_attention_backend is not None and (
        view.prefill_attention_backend == view.decode_attention_backend
    ):  # override the default attention backend
        return {"attention_backend": view.prefill_attention_backend}
    if view.attention_backend is None:
        backend = get_default_attn_backend(
            view, use_mla_backend(view), model_config_of(view)
        )
        logger.info(
            f"Attention backend not specified. Use {backend} backend by default."
        )
        return {"attention_backend": backend}
    return {}


@register_post_process
def _mla_backend_page_constraints(view: Any) -> dict:
    """Resolve MLA/TRTLLM page-size constraints, chaining adjustments on the local value."""
    page_size = view.page_size
    if (
        view.attention_backend == "flashmla"
        or view.decode_attention_backend == "flashmla"
    ):
        logger.warning(
            "FlashMLA only supports a page_size of 64, change page_size to 64."
        )
        page_size = 64
    if (
        view.attention_backend == "trtllm_mla"
        or view.decode_attention_backend == "trtllm_mla"
    ):
        if page_size not in [32, 64]:
            logger.warning(
                f"TensorRT-LLM MLA only supports page_size of 32 or 64, changing page_size from {page_size} to 64."
            )
            page_size = 64
    if (
        view.attention_backend == "cutedsl_mla"
        or view.decode_attention_backend == "cutedsl_mla"
        or view.prefill_attention_backend == "cutedsl_mla"
    ):
        if page_size not in [32, 64]:
            logger.warning(
                f"CuteDSL MLA only supports page_size of 32 or 64, changing page_size from {page_size} to 64."
            )
            page_size = 64
    if (
        view.attention_backend == "trtllm_mha"
        or view.decode_attention_backend == "trtllm_mha"
        or view.prefill_attention_backend == "trtllm_mha"
        or view.speculative_draft_attention_backend == "trtllm_mha"
    ):
        # 128 runs on trtllm-gen's dynamic tokens-per-page kernels (flashinfer
        # >= 0.6.12), which require GQA and equal QK/V head dims — validated at
        # TRTLLMHAAttnBackend init where the model config is known.
        if page_size not in [16, 32, 64, 128]:
            logger.warning(
                f"TensorRT-LLM MHA only supports page_size of 16, 32, 64 or 128, changing page_size from {page_size} to 64."
            )
            page_size = 64
    if (
        view.attention_backend == "hpc_ops"
        or view.decode_attention_backend == "hpc_ops"
        or view.prefill_attention_backend == "hpc_ops"
    ):
        if page_size != 64:
            logger.warning(
                f"HPC-Ops attention only supports a page_size of 64, changing page_size from {page_size} to 64."
            )
            page_size = 64
    if page_size != view.page_size:
        return {"page_size": page_size}
    return {}


@register_post_process
def _mla_kv_cache_dtype_checks(view: Any) -> dict:
    """Validate resolved KV-cache dtype for the TRTLLM MLA backend."""
    if (
        view.attention_backend == "trtllm_mla"
        or view.decode_attention_backend == "trtllm_mla"
    ):
        if not get_platform().is_blackwell:
            raise ValueError(
                "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100/SM12x). Please use a different backend."
            )
        if view.kv_cache_dtype not in ["fp8_e4m3", "bf16", "auto"]:
            raise ValueError(
                "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, bf16, or auto."
            )
    return {}


@register_post_process
def _cutedsl_prefill_backend_fill(view: Any) -> dict:
    """Validate decode-only CuteDSL MLA and default its prefill backend to trtllm_mla."""
    if not (
        view.attention_backend == "cutedsl_mla"
        or view.decode_attention_backend == "cutedsl_mla"
        or view.prefill_attention_backend == "cutedsl_mla"
    ):
        return {}
    assert view.prefill_attention_backend != "cutedsl_mla", (
        "CuteDSL MLA only supports decoding for now"
    )
    if not get_platform().is_sm100:
        raise ValueError(
            "CuteDSL MLA backend is only supported on Blackwell GPUs (SM100). Please use a different backend."
        )
    if view.kv_cache_dtype not in [
        "fp8_e4m3",
        "bf16",
        "bfloat16",
        "auto",
    ]:
        raise ValueError(
            "CuteDSL MLA backend only supports kv-cache-dtype of fp8_e4m3, bf16, or auto."
        )
    if view.prefill_attention_backend is None:
        return {"prefill_attention_backend": "trtllm_mla"}
    return {}


@register_post_process
def _attention_backend_fa3_fp8_fallback(view: Any) -> dict:
    if view.attention_backend == "fa3" and view.kv_cache_dtype == "fp8_e5m2":
        logger.warning(
            "FlashAttention3 only supports fp8_e4m3 if using FP8; "
            "Setting attention backend to triton."
        )
        return {"attention_backend": "triton"}
    return {}


@register_post_process
def _fa4_page_constraint(view: Any) -> dict:
    if (
        (
            view.attention_backend == "fa4"
            or view.decode_attention_backend == "fa4"
            or view.prefill_attention_backend == "fa4"
        )
        and not use_mla_backend(view)
        and get_platform().is_sm100
        and (view.speculative_eagle_topk or 0) <= 1
    ):
        logger.warning(
            f"FA4 backend only supports page size 128 for non-MLA model architectures, changing page_size from {view.page_size} to 128."
        )
        return {"page_size": 128}
    return {}


@register_post_process
def _page_size_default(view: Any) -> dict:
    if view.page_size is not None:
        return {}
    if not get_platform().is_musa:
        return {"page_size": 1}
    return {"page_size": 64}


@register_post_process
def _data_parallelism_defaults(view: Any) -> dict:
    if num_dp_ranks_of(view) == 1 and view.ep_join_mode != "scale":
        return {"enable_dp_lm_head": False}
    return {}


@register_post_process
def _moe_runner_backend_quant_constraints(view: Any) -> dict:
    """Resolve MoE runner backends from quantization."""
    moe_runner_backend = view.moe_runner_backend
    if view.quantization == "nvfp4_online":
        if not get_platform().is_sm100:
            raise ValueError(
                "--quantization nvfp4_online is supported only on "
                "NVIDIA Blackwell SM100/SM103 GPUs."
            )
    if moe_runner_backend != view.moe_runner_backend:
        return {"moe_runner_backend": moe_runner_backend}
    return {}


@register_post_process
def _pipeline_parallel_overlap_disable(view: Any) -> dict:
    if view.pp_size > 1:
        logger.warning("Pipeline parallelism is incompatible with overlap schedule.")
        return {"disable_overlap_schedule": True}
    return {}


@register_post_process
def _speculative_moe_runner_default(view: Any) -> dict:
    """Default the speculative (draft) MoE runner backend to the resolved
    target-model backend."""
    if view.speculative_moe_runner_backend is None:
        default = view.moe_runner_backend
        if default == "flashinfer_megamoe":
            default = "flashinfer_trtllm"
        elif default.startswith("lora_"):
            default = "auto"
        return {"speculative_moe_runner_backend": default}
    return {}
