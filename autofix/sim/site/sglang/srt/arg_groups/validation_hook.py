# SPDX-License-Identifier: Apache-2.0
"""Validation of resolved server arguments (simulated subset)."""

import logging
import os
from typing import Any

from sglang.srt.arg_groups.overrides import resolving_view
from sglang.srt.runtime_context import attn_dp_enabled_of
from sglang.srt.utils.common import is_runai_obj_uri

logger = logging.getLogger(__name__)


def check_pipeline_parallel_compat(cfg: Any) -> None:
    """Validate features used with pipeline parallelism."""
    assert cfg.disable_overlap_schedule, (
        "Pipeline parallelism is not compatible with overlap schedule"
    )
    if cfg.speculative_algorithm == "DSPARK":
        assert cfg.disaggregation_mode == "prefill", (
            "Pipeline parallel DSPARK requires disaggregation-mode=prefill"
        )
    elif cfg.speculative_algorithm is not None:
        assert (
            cfg.speculative_algorithm.upper() == "EAGLE"
            and not cfg.enable_multi_layer_eagle
        ), (
            "Pipeline parallelism currently only supports EAGLE "
            "(non-multi-layer) speculative decoding"
        )
        if os.environ.get("SGLANG_ENABLE_PP_SPEC", "").lower() in ("1", "true"):
            assert cfg.disaggregation_mode == "null", (
                "SGLANG_ENABLE_PP_SPEC is not compatible with --disaggregation-mode"
            )
            assert not attn_dp_enabled_of(cfg), (
                "SGLANG_ENABLE_PP_SPEC is not compatible with attention DP "
                "(--attn-dp-size)"
            )
        else:
            assert cfg.disaggregation_mode == "prefill", (
                "PP + speculative decoding (MTP) is only supported on prefill nodes "
                "(disaggregation-mode=prefill)"
            )
    assert cfg.min_free_slots_delay is None, (
        "--min-free-slots-delay is not supported with pipeline "
        "parallelism: allocatable slots per microbatch are bounded by "
        "pp-max-micro-batch-size, so the threshold may never be reached"
    )


def check_server_args(server_args: Any):
    from sglang.srt.arg_groups.lora_hook import check_lora_server_args

    cfg = resolving_view(server_args)

    # Check parallel size constraints
    if cfg.ep_join_mode != "scale":
        assert (cfg.tp_size * cfg.pp_size) % cfg.nnodes == 0, (
            "tp_size must be divisible by number of nodes"
        )

    assert cfg.pp_max_micro_batch_size is None or cfg.pp_max_micro_batch_size >= 1, (
        "pp_max_micro_batch_size must be a positive integer or None (for auto-compute). "
        f"Got: {cfg.pp_max_micro_batch_size}"
    )

    assert not (cfg.disable_cuda_graph_padding and cfg.enable_torch_compile), (
        "--disable-cuda-graph-padding is incompatible with --enable-torch-compile. "
        "With padding disabled, every distinct batch size gets its own torch.compile + "
        "Triton autotune cycle (O(max_batch_size) compilations) instead of the small fixed "
        "set of padded bucket sizes, causing engine initialisation to stall for many minutes. "
        "Remove --disable-cuda-graph-padding or --enable-torch-compile."
    )

    if cfg.pp_size > 1:
        check_pipeline_parallel_compat(cfg)

    assert not (cfg.dp_size > 1 and cfg.nnodes != 1), (
        "multi-node data-parallel replicas are not supported; use attention DP "
        "(--attn-dp-size) across nodes"
    )

    assert cfg.base_gpu_id >= 0, "base_gpu_id must be non-negative"
    assert cfg.gpu_id_step >= 1, "gpu_id_step must be positive"

    assert cfg.moe_dense_tp_size in (
        None,
        1,
        cfg.tp_size,
    ), "moe_dense_tp_size only supports None, 1, or tp_size currently"

    # Check served model name to not have colon as it is reserved for LoRA adapter syntax
    if not is_runai_obj_uri(cfg.served_model_name):
        assert ":" not in cfg.served_model_name, (
            "served_model_name cannot contain a colon (':') character. "
            "The colon is reserved for the 'model:adapter' syntax used in LoRA adapter specification. "
            f"Invalid value: '{cfg.served_model_name}'"
        )

    # Check LoRA
    check_lora_server_args(server_args)

    # Check speculative decoding
    if cfg.speculative_algorithm is not None:
        from sglang.srt.speculative.spec_info import SpeculativeAlgorithm

        # Running requests degrade to a plain 1-token decode inside a
        # mixed step; only workers with a verified resume path allow it.
        assert (
            not cfg.enable_mixed_chunk
            or SpeculativeAlgorithm.from_string(
                cfg.speculative_algorithm
            ).supports_mixed_chunk()
        ), (
            "enable_mixed_chunk is not supported with "
            f"speculative_algorithm={cfg.speculative_algorithm}"
        )

    # Check chunked prefill
    # Skip validation if chunked prefill is disabled (i.e., size <= 0).
    # Skip validation if disaggregation mode is decode.
    if cfg.chunked_prefill_size > 0 and cfg.disaggregation_mode != "decode":
        assert cfg.chunked_prefill_size % cfg.page_size == 0, (
            "chunked_prefill_size must be divisible by page_size"
        )

    assert cfg.tokenizer_worker_num > 0, "Tokenizer worker num must >= 1"
    assert cfg.detokenizer_worker_num > 0, "Detokenizer worker num must >= 1"
    assert cfg.mm_processor_worker_num >= 0, "Multimodal processor worker num must >= 0"
    assert cfg.mm_io_worker_num >= 0, "Multimodal I/O worker num must >= 0"

    # Check scheduling policy
    if cfg.enable_priority_scheduling:
        assert cfg.schedule_policy in [
            "fcfs",
            "lof",
        ], (
            f"To use priority scheduling, schedule_policy must be 'fcfs' or 'lof'. '{cfg.schedule_policy}' is not supported."
        )
    if cfg.retraction_policy == "priority" and not cfg.enable_priority_scheduling:
        raise ValueError(
            "--retraction-policy priority requires --enable-priority-scheduling"
        )

    assert cfg.schedule_conservativeness >= 0, (
        "schedule_conservativeness must be non-negative"
    )

    # ROCm also uses PyTorch's "cuda" device type.
    if cfg.load_format == "instanttensor" and cfg.device != "cuda":
        raise ValueError(
            "InstantTensor requires a CUDA-compatible device (including CUDA and ROCm); "
            f"got {cfg.device!r}."
        )

    # Check metrics exporters
    if cfg.export_metrics_to_file and cfg.export_metrics_to_file_dir is None:
        raise ValueError(
            "--export-metrics-to-file-dir is required when --export-metrics-to-file is enabled"
        )

    # Check communications compression
    if cfg.enable_quant_communications and cfg.tp_size == 1:
        raise ValueError("Communications quantization is only used with tp_size != 1")

    # grpc_port is None for HTTP-only launches, so the == comparison is
    # already False there; no explicit None check needed.
    if not (cfg.smg_grpc_mode or cfg.grpc_mode) and cfg.grpc_port == cfg.port:
        raise ValueError(
            f"--grpc-port ({cfg.grpc_port}) must differ from --port ({cfg.port})"
        )

    if cfg.gc_threshold:
        if not (1 <= len(cfg.gc_threshold) <= 3):
            raise ValueError(
                "When setting gc_threshold, it must contain 1 to 3 integers."
            )

    if cfg.kv_canary_sweep_interval > 0 and cfg.kv_canary == "none":
        raise ValueError(
            "--kv-canary-sweep-interval requires --kv-canary in {log, raise}"
        )


def validate_sampling_mask_max_tokens(server_args: Any):
    if os.environ.get("SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS") is not None:
        raise ValueError(
            "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS is no longer supported. "
            "Unset it. To enable sampling masks for disaggregated serving, set "
            "SGLANG_ENABLE_DISAGG_SAMPLING_MASK=1 and use the same positive "
            "--sampling-mask-max-tokens value on both prefill and decode servers."
        )
    cfg = resolving_view(server_args)
    if cfg.sampling_mask_max_tokens <= 0:
        raise ValueError(
            "--sampling-mask-max-tokens must be positive "
            f"(got {cfg.sampling_mask_max_tokens})."
        )
