# SPDX-License-Identifier: Apache-2.0
"""Server-argument resolution for parallelism (simulated subset)."""

from __future__ import annotations

import logging
from typing import Any

from sglang.srt.arg_groups.overrides import (
    _data_parallelism_defaults,
    declare_resolution,
    model_config_of,
    resolved_view,
    resolving_view,
    run_post_process_pass,
)
from sglang.srt.arg_groups.resolution_hooks import run_hook
from sglang.srt.model_executor.cuda_graph_config import Backend, Phase, with_phase
from sglang.srt.runtime_context import attn_dp_enabled_of, derive_attn_tp_size
from sglang.srt.utils.common import ConnectorType, parse_connector_type

logger = logging.getLogger(__name__)


def handle_deprecated_dp_attention(server_args: Any):
    """Turn the deprecated `--dp-size N --enable-dp-attention` into
    `--attn-dp-size N`.
    """
    cfg = resolving_view(server_args)
    if not cfg.enable_dp_attention:
        return
    if cfg.attn_dp_size == 1:
        declare_resolution(
            server_args,
            "_handle_deprecated_dp_attention",
            attn_dp_size=cfg.dp_size,
            dp_size=1,
        )
    declare_resolution(
        server_args, "_handle_deprecated_dp_attention", enable_dp_attention=False
    )


def validate_prefill_cp_platform(server_args: Any):
    return None


def handle_context_parallelism(server_args: Any):
    # Through the registry, not a bare call: an out-of-tree replacement of
    # `validate_prefill_cp_platform` registered at its own (earlier) pipeline
    # position must also win here.
    run_hook(validate_prefill_cp_platform, server_args)

    cfg = resolving_view(server_args)
    if cfg.enable_prefill_cp and cfg.cp_strategy is None:
        raise ValueError(
            "--cp-strategy must be set when --enable-prefill-cp is enabled."
        )

    view = resolved_view(server_args)
    if view.attn_cp_size > 1:
        # The tp_size is the world size, not the real tensor parallel size
        assert cfg.tp_size % view.attn_cp_size == 0, (
            "tp_size must be divisible by attn_cp_size"
        )
        assert cfg.tp_size % (cfg.attn_dp_size * view.attn_cp_size) == 0, (
            "tp_size must be divisible by attn_dp_size * attn_cp_size"
        )

        assert not cfg.enable_aiter_allreduce_fusion, (
            "Aiter allreduce fusion is not supported with context parallelism"
        )

    if cfg.moe_dp_size > 1:
        # The tp_size is the world size, not the real tensor parallel size
        assert cfg.tp_size % cfg.moe_dp_size == 0, (
            "tp_size must be divisible by moe_dp_size"
        )
        assert view.ep_size * cfg.moe_dp_size <= cfg.tp_size, (
            "ep_size * moe_dp_size must be less than or equal to tp_size"
        )
        assert cfg.pp_size == 1, "PP is not supported with context parallelism"

        if view.ep_size > 1:
            assert view.ep_size * cfg.moe_dp_size == cfg.tp_size, (
                "ep_size * moe_dp_size must be equal to tp_size"
            )

        assert not cfg.enable_aiter_allreduce_fusion, (
            "Aiter allreduce fusion is not supported with context parallelism"
        )

    if view.attn_cp_size != cfg.moe_dp_size:
        assert cfg.moe_dp_size == 1, (
            "attn_cp_size != moe_dp_size is only supported when moe_dp_size == 1"
        )


def handle_shared_experts_tp(server_args: Any):
    cfg = resolving_view(server_args)
    size = cfg.shared_experts_tp_size
    if size is None:
        return

    view = resolved_view(server_args)
    attn_tp_size = derive_attn_tp_size(
        tp_size=cfg.tp_size,
        attn_cp_size=view.attn_cp_size,
        attn_dp_size=cfg.attn_dp_size,
    )
    if size < 1 or attn_tp_size % size != 0:
        raise ValueError(
            f"--shared-experts-tp-size ({size}) must be a positive divisor "
            f"of attention TP size ({attn_tp_size})."
        )
    if parse_connector_type(cfg.model_path) == ConnectorType.INSTANCE:
        raise ValueError(
            "--shared-experts-tp-size requires a Kimi-K3 model configuration."
        )
    model_arch = model_config_of(server_args).hf_config.architectures[0]
    if model_arch != "KimiK3ForConditionalGeneration":
        raise ValueError("--shared-experts-tp-size is only supported for Kimi-K3.")


def handle_data_parallelism(server_args: Any):
    # The resets without attention DP live in the resolution pipeline
    # (arg_groups/overrides.py: _data_parallelism_defaults).
    cfg = resolving_view(server_args)

    if cfg.attn_dp_size < 1:
        raise ValueError(f"--attn-dp-size must be positive (got {cfg.attn_dp_size}).")
    if cfg.attn_dp_size > 1 and cfg.dp_size > 1:
        raise ValueError(
            f"--dp-size {cfg.dp_size} with --attn-dp-size {cfg.attn_dp_size}: "
            "data-parallel replicas combined with attention data parallelism "
            "are not supported."
        )

    run_post_process_pass(server_args, _data_parallelism_defaults)

    if attn_dp_enabled_of(resolved_view(server_args)):
        declare_resolution(
            server_args,
            "_handle_data_parallelism",
            schedule_conservativeness=cfg.schedule_conservativeness * 0.3,
        )
        assert cfg.tp_size % cfg.attn_dp_size == 0
        original_chunked_prefill_size = cfg.chunked_prefill_size
        declare_resolution(
            server_args,
            "_handle_data_parallelism",
            chunked_prefill_size=cfg.chunked_prefill_size // cfg.attn_dp_size,
        )
        logger.warning(
            f"DP attention is enabled. chunked prefill size is adjusted "
            f"from {original_chunked_prefill_size} to {cfg.chunked_prefill_size}."
        )

        prefill_cfg = cfg.cuda_graph_config.prefill
        if (
            prefill_cfg.backend != Backend.DISABLED
            and prefill_cfg.max_bs is not None
            and prefill_cfg.max_bs > cfg.chunked_prefill_size
        ):
            declare_resolution(
                server_args,
                "_handle_data_parallelism",
                cuda_graph_config=with_phase(
                    cfg.cuda_graph_config, Phase.PREFILL, max_bs=cfg.chunked_prefill_size
                ),
            )


def handle_eplb_and_dispatch(server_args: Any):
    cfg = resolving_view(server_args)
    if cfg.enable_eplb and (cfg.expert_distribution_recorder_mode is None):
        declare_resolution(
            server_args,
            "_handle_eplb_and_dispatch",
            expert_distribution_recorder_mode="stat",
        )
        logger.warning(
            "EPLB is enabled. The expert_distribution_recorder_mode is automatically set."
        )

    # Without an a2a backend all EP ranks run the MoE over the same tokens and
    # sum their partial outputs, so the pick has to agree across ranks.
    needs_rank_invariant_dispatch = resolved_view(server_args).moe_a2a_backend == "none"

    if (cfg.enable_eplb or (cfg.init_expert_location != "trivial")) and (
        cfg.ep_dispatch_algorithm is None
    ):
        declare_resolution(
            server_args,
            "_handle_eplb_and_dispatch",
            ep_dispatch_algorithm=(
                "dynamic" if needs_rank_invariant_dispatch else "static"
            ),
        )

    # `dynamic` / `fake` switch to the row-index pick; `static` reads a
    # per-rank table and `lp` samples inside its kernel.
    if needs_rank_invariant_dispatch and cfg.ep_dispatch_algorithm in (
        "static",
        "lp",
    ):
        raise ValueError(
            f"--ep-dispatch-algorithm {cfg.ep_dispatch_algorithm} picks a "
            "different physical replica per rank, which only holds up when an "
            "a2a backend routes each token to a single rank. Use "
            "--ep-dispatch-algorithm dynamic with --moe-a2a-backend none."
        )

    if cfg.enable_eplb and cfg.ep_join_mode != "scale":
        assert resolved_view(server_args).ep_size > 1
