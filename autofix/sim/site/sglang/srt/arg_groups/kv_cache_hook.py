# SPDX-License-Identifier: Apache-2.0
"""KV cache argument resolution (simulated subset of kv_cache_hook.py)."""

from typing import Any

from sglang.srt.arg_groups.overrides import (
    declare_resolution,
    resolution_result,
    resolved_view,
    resolving_view,
)
from sglang.srt.runtime_context import attn_dp_enabled_of


def handle_cache_compatibility(server_args: Any) -> None:
    cfg = resolving_view(server_args)
    if (
        cfg.disaggregation_decode_retraction_backup == "host_pool"
        and cfg.disaggregation_mode != "decode"
    ):
        raise ValueError(
            "--disaggregation-decode-retraction-backup=host_pool is only "
            "supported on a PD decode server."
        )
    if cfg.disaggregation_decode_retraction_backup == "host_pool" and cfg.dcp_size > 1:
        raise ValueError(
            "--disaggregation-decode-retraction-backup=host_pool does not "
            "support --dcp-size > 1."
        )
    if (
        cfg.disaggregation_decode_retraction_backup == "host_pool"
        and cfg.enable_priority_scheduling
        and not cfg.disable_priority_preemption
    ):
        raise ValueError(
            "--disaggregation-decode-retraction-backup=host_pool requires "
            "--disable-priority-preemption when priority scheduling is enabled."
        )

    if cfg.enable_hierarchical_cache and cfg.disable_radix_cache:
        raise ValueError(
            "The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive "
            "and cannot be used at the same time. Please use only one of them."
        )

    if cfg.disaggregation_decode_enable_offload_kvcache:
        if cfg.disaggregation_mode != "decode":
            raise ValueError(
                "The argument disaggregation-decode-enable-offload-kvcache is only supported for decode side."
            )
        if cfg.hicache_storage_backend is None:
            raise ValueError(
                "The argument disaggregation-decode-enable-offload-kvcache is only supported when hicache-storage-backend is provided."
            )

    if cfg._swa_full_tokens_ratio_explicitly_set is None:
        declare_resolution(
            server_args,
            "_handle_cache_compatibility",
            _swa_full_tokens_ratio_explicitly_set=cfg.swa_full_tokens_ratio is not None,
        )

    # Validate the effective ratio: model branches may declare a reset
    # (e.g. Step3p forces 1.0 under hierarchical cache) that supersedes
    # the user input before it ever takes effect.
    # `resolution_result`, not a view: a view answers `None` while nobody has
    # claimed the field, and the value to range-check is the effective one.
    if not (0 < resolution_result(server_args, "swa_full_tokens_ratio") <= 1.0):
        raise ValueError("--swa-full-tokens-ratio should be in range (0, 1.0].")
    prefix_tails = resolved_view(server_args).swa_prefix_tails
    if prefix_tails is not None and prefix_tails < 0:
        raise ValueError("--swa-prefix-tails should be a non-negative integer.")

    if cfg.enable_lmcache:
        if cfg.enable_hierarchical_cache:
            raise ValueError(
                "--enable-lmcache and --enable-hierarchical-cache are "
                "mutually exclusive"
            )
        if cfg.disable_radix_cache:
            raise ValueError("--enable-lmcache requires radix cache to be enabled")

        from sglang.srt.speculative.spec_info import SpeculativeAlgorithm

        if SpeculativeAlgorithm.from_string(cfg.speculative_algorithm).is_speculative():
            raise NotImplementedError(
                "LMCacheUnifiedRadixCache does not yet support speculative decoding"
            )
        if attn_dp_enabled_of(cfg):
            raise NotImplementedError(
                "LMCacheUnifiedRadixCache does not yet support DP attention"
            )
