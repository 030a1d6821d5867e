# SPDX-License-Identifier: Apache-2.0
"""Model-specific adjustments (simulated subset of model_hook.py)."""

import logging
from typing import Any

from sglang.srt.arg_groups.overrides import (
    _enforce_disable_allreduce_fusion,
    collect_model_override_declarations,
    declare_resolution,
    model_config_of,
    resolving_view,
    run_post_process_pass,
)
from sglang.srt.utils.common import ConnectorType, parse_connector_type

logger = logging.getLogger(__name__)


def handle_model_specific_adjustments(server_args: Any):
    cfg = resolving_view(server_args)

    if cfg.enable_deterministic_inference:
        declare_resolution(
            server_args,
            "_handle_model_specific_adjustments",
            enforce_disable_flashinfer_allreduce_fusion=True,
        )

    declare_resolution(
        server_args,
        "_handle_model_specific_adjustments",
        uses_mamba_radix_cache=False,
    )
    if parse_connector_type(cfg.model_path) == ConnectorType.INSTANCE:
        # No model overrides for an instance connector: no hf_config to
        # key them on.
        return

    model_config = model_config_of(server_args)
    hf_config = model_config.hf_config
    model_arch = hf_config.architectures[0]

    model_overrides = collect_model_override_declarations(
        model_arch, server_args, hf_config
    )
    for source, declared in model_overrides:
        declare_resolution(server_args, source, **declared)

    if model_arch in ["Lfm2ForCausalLM", "Lfm2MoeForCausalLM"]:
        from sglang.srt.arg_groups.overrides import resolved_view

        assert resolved_view(server_args).attention_backend != "triton", (
            f"{model_arch} does not support triton attention backend, "
            "as the first layer might not be an attention layer"
        )

    run_post_process_pass(server_args, _enforce_disable_allreduce_fusion)
