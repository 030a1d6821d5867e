# SPDX-License-Identifier: Apache-2.0
"""Server-argument resolution for the attention backends."""

from __future__ import annotations

import logging
import os
from typing import Any

from sglang.srt.arg_groups.overrides import (
    _attention_backend_default,
    _attention_backend_fa3_fp8_fallback,
    _cutedsl_prefill_backend_fill,
    _deterministic_allreduce_fusion_disable,
    _deterministic_attention_backend,
    _deterministic_sampling_backend,
    _fa4_page_constraint,
    _mla_backend_page_constraints,
    _mla_kv_cache_dtype_checks,
    attention_backends_of,
    declare_resolution,
    model_config_of,
    resolved_view,
    resolving_view,
    run_post_process_pass,
)
from sglang.srt.model_executor.cuda_graph_config import Backend, Phase, with_phase
from sglang.srt.runtime_context import get_platform
from sglang.srt.utils.common import ConnectorType, parse_connector_type

logger = logging.getLogger(__name__)


def handle_attention_backend_compatibility(server_args: Any):

    cfg = resolving_view(server_args)
    model_config = model_config_of(server_args)

    # The attention_backend write clusters of this handler moved to the
    # resolution pipeline (arg_groups/overrides.py), each invoked below at
    # its legacy slot; the interleaved non-attention adjustments stay.

    # Split-backend override + default fill.
    run_post_process_pass(server_args, _attention_backend_default)

    # Torch native and flex attention backends
    attention_backend = resolved_view(server_args).attention_backend
    if attention_backend == "torch_native":
        logger.warning(
            "Cuda graph is disabled because of using torch native attention backend"
        )
        declare_resolution(
            server_args,
            "_handle_attention_backend_compatibility",
            cuda_graph_config=with_phase(
                cfg.cuda_graph_config, Phase.DECODE, backend=Backend.DISABLED
            ),
        )
        declare_resolution(
            server_args,
            "_handle_attention_backend_compatibility",
            cuda_graph_config=with_phase(
                cfg.cuda_graph_config, Phase.PREFILL, backend=Backend.DISABLED
            ),
        )

    if attention_backend == "flex_attention":
        logger.warning(
            "Cuda graph is disabled because of using torch Flex Attention backend"
        )
        declare_resolution(
            server_args,
            "_handle_attention_backend_compatibility",
            cuda_graph_config=with_phase(
                cfg.cuda_graph_config, Phase.DECODE, backend=Backend.DISABLED
            ),
        )
        declare_resolution(
            server_args,
            "_handle_attention_backend_compatibility",
            cuda_graph_config=with_phase(
                cfg.cuda_graph_config, Phase.PREFILL, backend=Backend.DISABLED
            ),
        )
        assert cfg.speculative_algorithm is None, (
            "Speculative decoding is currently not supported with Flex Attention backend"
        )

    # Major NVIDIA platforms backends: the page-size snaps of this family
    # moved to the resolution pipeline (arg_groups/overrides.py:
    # _mla_backend_page_constraints); the raises and the cutedsl prefill
    # fallback stay below.
    run_post_process_pass(server_args, _mla_backend_page_constraints)

    # The TRT-LLM MLA kv-dtype validations moved to the
    # resolution pipeline (arg_groups/overrides.py:
    # _mla_kv_cache_dtype_checks), invoked here at their legacy slot.

    run_post_process_pass(server_args, _mla_kv_cache_dtype_checks)

    # The CuteDSL MLA validation + prefill fill moved to the resolution
    # pipeline (arg_groups/overrides.py: _cutedsl_prefill_backend_fill),
    # invoked here at its legacy slot.

    run_post_process_pass(server_args, _cutedsl_prefill_backend_fill)

    prefill_backend, decode_backend = attention_backends_of(resolved_view(server_args))
    if "trtllm_mha" in (prefill_backend, decode_backend):
        if prefill_backend == "trtllm_mha" and not (
            get_platform().is_sm90 or get_platform().is_sm100 or get_platform().is_sm120
        ):
            raise ValueError(
                "TRTLLM MHA backend for prefill requires Hopper (SM90), Blackwell (SM100), or SM120 GPUs. "
                "Please use a different prefill backend."
            )
        if (
            prefill_backend == "trtllm_mha"
            and get_platform().is_sm120
            and (
                cfg.kv_cache_dtype == "fp8_e4m3"
                or (
                    float(os.environ.get("SGLANG_SKIP_SOFTMAX_PREFILL_THRESHOLD_SCALE_FACTOR") or 0.0)
                    or 0.0
                )
                > 0
            )
        ):
            raise ValueError(
                "TRTLLM FMHAv2 prefill on SM120 does not support "
                "fp8_e4m3 KV cache or skip-softmax."
            )
        if decode_backend == "trtllm_mha" and not (
            get_platform().is_sm90 or get_platform().is_sm100 or get_platform().is_sm120
        ):
            raise ValueError(
                "TRTLLM MHA backend for decode is only supported on Hopper (SM90), Blackwell (SM100) and (SM120) GPUs. Please use a different decode backend."
            )
        if (
            prefill_backend == "trtllm_mha"
            and not get_platform().is_sm100
            and cfg.attn_cp_size > 1
        ):
            raise ValueError(
                "Prefill context parallelism with the TRTLLM MHA prefill backend "
                "requires SM100 (trtllm-gen context kernel): the SM90/SM120 "
                "fmha_v2 prefill path does not implement CP shard masking."
            )

    run_post_process_pass(server_args, _attention_backend_fa3_fp8_fallback)

    run_post_process_pass(server_args, _fa4_page_constraint)



def handle_deterministic_inference(server_args: Any):
    from sglang.srt.server_args import (
        RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND,
    )

    cfg = resolving_view(server_args)
    if cfg.rl_on_policy_target is not None:
        logger.warning("Enable deterministic inference because of rl_on_policy_target.")
        declare_resolution(
            server_args,
            "_handle_deterministic_inference",
            enable_deterministic_inference=True,
        )

    if cfg.enable_deterministic_inference:
        if cfg.enable_aiter_allreduce_fusion:
            logger.warning(
                "Disable --enable-aiter-allreduce-fusion because deterministic inference is enabled."
            )
            declare_resolution(
                server_args,
                "_handle_deterministic_inference",
                enable_aiter_allreduce_fusion=False,
            )

        # Moved to the resolution pipeline (arg_groups/overrides.py:
        # _deterministic_allreduce_fusion_disable), invoked here at its
        # legacy slot.

        run_post_process_pass(server_args, _deterministic_allreduce_fusion_disable)

        # The forced-pytorch sampling write and the attention backend
        # fill/validation moved to the resolution pipeline
        # (arg_groups/overrides.py), invoked at their legacy slots.

        run_post_process_pass(server_args, _deterministic_sampling_backend)
        is_deepseek_model = False
        if parse_connector_type(cfg.model_path) != ConnectorType.INSTANCE:
            try:
                hf_config = model_config_of(server_args).hf_config
                model_arch = hf_config.architectures[0]
                is_deepseek_model = model_arch in [
                    "DeepseekV2ForCausalLM",
                    "DeepseekV3ForCausalLM",
                    "DeepseekV32ForCausalLM",
                    "MistralLarge3ForCausalLM",
                    "PixtralForConditionalGeneration",
                    "GlmMoeDsaForCausalLM",
                    "Glm4MoeLiteForCausalLM",
                    "Glm5NextForConditionalGeneration",
                ]
            except Exception:
                pass

        # Check attention backend
        run_post_process_pass(server_args, _deterministic_attention_backend)

        attention_backend = resolved_view(server_args).attention_backend
        if is_deepseek_model:
            if attention_backend not in RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND:
                raise ValueError(
                    f"Currently only {RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND} attention backends are supported for deterministic inference with absorbed-MLA models. But you're using {attention_backend}."
                )
            if attention_backend == "fa4" and not get_platform().is_sm100_or_sm110:
                raise ValueError(
                    "Deterministic inference with absorbed-MLA models on the fa4 "
                    "attention backend requires SM100/SM110: it runs "
                    "absorbed MLA, whose qv argument flash_attn.cute only "
                    "implements on those archs."
                )

        if attention_backend not in RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND:
            # Currently, only certain backends support radix cache. Support for other backends is in progress
            declare_resolution(
                server_args,
                "_handle_deterministic_inference",
                disable_radix_cache=True,
            )
            logger.warning(
                f"Currently radix cache is not compatible with {attention_backend} attention backend for deterministic inference. It will be supported in the future."
            )

        # Check TP size
        if cfg.tp_size > 1:
            # CUDA: use NCCL tree algorithm
            os.environ["NCCL_ALGO"] = "allreduce:tree"
            declare_resolution(
                server_args,
                "_handle_deterministic_inference",
                disable_custom_all_reduce=True,
            )
            declare_resolution(
                server_args,
                "_handle_deterministic_inference",
                enable_torch_symm_mem=False,
            )
            nchannels = str(os.environ.get("SGLANG_DETERMINISTIC_NCCL_NCHANNELS", "4"))
            os.environ["NCCL_MIN_NCHANNELS"] = nchannels
            os.environ["NCCL_MAX_NCHANNELS"] = nchannels
            logger.warning(
                "NCCL_ALGO is set to 'allreduce:tree', the NCCL channel count is pinned, and custom and symmetric-memory all reduce are disabled for deterministic inference when TP size > 1."
            )
