# SPDX-License-Identifier: Apache-2.0
"""Ordered configuration resolution, called by ``ServerArgs.resolve_once``.

SIMULATOR: the steps below are the subset of the real 0.5.23 pipeline that the simulated
host models, called in the real order and under the real names.
"""

from __future__ import annotations

from typing import Any

from sglang.srt.arg_groups.arg_utils import record_fields
from sglang.srt.arg_groups.overrides import (
    _page_size_default,
    _pipeline_parallel_overlap_disable,
    _sampling_backend_default,
    resolving_view,
    run_post_process_pass,
)
from sglang.srt.arg_groups.resolution_hooks import run_hook


def run_resolution_pipeline(server_args: Any) -> None:
    """Resolve and validate server arguments in dependency order.

    Keep model-independent validation before the dummy-model return. Call steps
    through ``run_hook`` so plugins can replace them without changing their order.
    """

    # What the caller asked for, before any handler runs; this plus the
    # stash is the resolution result the projection reads.
    server_args._raw_input = {
        field.name: getattr(server_args, field.name)
        for field in record_fields(type(server_args))
    }

    # Preserve launcher-stage declarations made before Engine starts. They are
    # part of the same resolution result as the declarations accumulated below.
    server_args._resolved_overrides = list(
        getattr(server_args, "_resolved_overrides", ())
    )

    cfg = resolving_view(server_args)

    from sglang.srt.arg_groups.parallel_hook import handle_deprecated_dp_attention

    # Before any handler reads the DP layout.
    run_hook(handle_deprecated_dp_attention, server_args)

    from sglang.srt.arg_groups.memory_hook import handle_offload_compatibility

    run_hook(handle_offload_compatibility, server_args)
    from sglang.srt.arg_groups.validation_hook import (
        validate_sampling_mask_max_tokens,
    )

    run_hook(validate_sampling_mask_max_tokens, server_args)

    if cfg.model_path.lower() in ["none", "dummy"]:
        return

    from sglang.srt.arg_groups.model_path_hook import handle_model_source_paths

    run_hook(handle_model_source_paths, server_args)

    # Model-arch environment defaults; must precede handle_gpu_memory_settings,
    # whose heuristic reads the post-capture KV sizing switch.
    from sglang.srt.arg_groups.muse_spark_hook import apply_muse_spark_env_defaults

    apply_muse_spark_env_defaults(server_args)

    from sglang.srt.arg_groups.serving_hook import (
        handle_deprecated_args,
        handle_missing_default_values,
        handle_ssl_validation,
    )

    run_hook(handle_ssl_validation, server_args)

    run_hook(handle_deprecated_args, server_args)

    run_hook(handle_missing_default_values, server_args)

    from sglang.srt.arg_groups.memory_hook import handle_gpu_memory_settings

    run_hook(handle_gpu_memory_settings, server_args)

    from sglang.srt.arg_groups.model_hook import handle_model_specific_adjustments

    run_hook(handle_model_specific_adjustments, server_args)
    # After the model overrides: Qwen4-Exp declares the PLE offload default there.
    run_hook(handle_offload_compatibility, server_args)

    run_post_process_pass(server_args, _sampling_backend_default)
    # Must run before _handle_attention_backend_compatibility so the
    # deterministic backend is set before auto-detection fills it in.
    from sglang.srt.arg_groups.attention_hook import (
        handle_attention_backend_compatibility,
        handle_deterministic_inference,
    )

    run_hook(handle_deterministic_inference, server_args)
    run_hook(handle_attention_backend_compatibility, server_args)
    run_post_process_pass(server_args, _page_size_default)

    from sglang.srt.arg_groups.parallel_hook import (
        handle_context_parallelism,
        handle_data_parallelism,
        handle_eplb_and_dispatch,
        handle_shared_experts_tp,
    )

    run_hook(handle_data_parallelism, server_args)

    run_hook(handle_context_parallelism, server_args)

    from sglang.srt.arg_groups.moe_hook import handle_moe_kernel_config

    run_hook(handle_moe_kernel_config, server_args)
    run_hook(handle_shared_experts_tp, server_args)
    run_hook(handle_eplb_and_dispatch, server_args)

    run_post_process_pass(server_args, _pipeline_parallel_overlap_disable)

    from sglang.srt.arg_groups.speculative_hook import handle_speculative_decoding

    run_hook(handle_speculative_decoding, server_args)

    from sglang.srt.arg_groups.kv_cache_hook import handle_cache_compatibility

    run_hook(handle_cache_compatibility, server_args)

    server_args._resolution_finished = True
