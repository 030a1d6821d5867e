# SPDX-License-Identifier: Apache-2.0
"""GPU-memory dependent defaults (simulated subset of memory_hook.py)."""

from typing import Any

from sglang.srt.arg_groups.overrides import (
    declare_resolution,
    resolved_view,
    resolving_view,
    use_mla_backend,
)
from sglang.srt.model_executor.cuda_graph_config import (
    Backend,
    build_cuda_graph_config,
)
from sglang.srt.runtime_context import attn_dp_enabled_of
from sglang.srt.utils.common import get_device_memory_capacity


def generate_decode_cuda_graph_batch_sizes(server_args: Any, max_bs: int):
    bs = [1, 2, 4, 8, 12] + list(range(16, 257, 8)) + list(range(272, 512 + 1, 16))
    return [b for b in bs if b <= max_bs] or [max_bs]


def handle_gpu_memory_settings(server_args: Any):
    """
    Configure GPU memory-dependent settings including
    chunked_prefill_size, cuda_graph_config[decode].max_bs, and mem_fraction_static.
    """
    cfg = resolving_view(server_args)
    gpu_mem = get_device_memory_capacity(cfg.device)
    cuda_graph_config = build_cuda_graph_config(cfg)
    decode_cuda_graph_config = cuda_graph_config.decode
    decode_max_bs_is_default = decode_cuda_graph_config.max_bs is None

    if gpu_mem is not None:
        if gpu_mem < 20 * 1024:
            chunk, max_bs = 2048, 8
        elif gpu_mem < 35 * 1024:
            chunk, max_bs = 4096, (48 if cfg.tp_size < 4 else 160)
        elif gpu_mem < 60 * 1024:
            chunk, max_bs = 4096, (32 if cfg.tp_size < 4 else 160)
        elif gpu_mem < 90 * 1024:
            chunk, max_bs = 8192, (256 if cfg.tp_size < 4 else 512)
        elif gpu_mem < 160 * 1024:
            chunk, max_bs = 8192, (256 if cfg.tp_size < 4 else 512)
        else:
            chunk, max_bs = 16384, 512
    else:
        chunk, max_bs = 4096, 160
    if cfg.chunked_prefill_size is None:
        declare_resolution(
            server_args,
            "_handle_gpu_memory_settings",
            chunked_prefill_size=chunk,
        )
    if decode_cuda_graph_config.max_bs is None:
        decode_cuda_graph_config.max_bs = max_bs

    if (
        decode_max_bs_is_default
        and cfg.max_running_requests is not None
        and decode_cuda_graph_config.max_bs > cfg.max_running_requests
    ):
        decode_cuda_graph_config.max_bs = cfg.max_running_requests

    if decode_cuda_graph_config.bs is None:
        decode_cuda_graph_config.bs = generate_decode_cuda_graph_batch_sizes(
            server_args, decode_cuda_graph_config.max_bs
        )
    else:
        decode_cuda_graph_config.max_bs = max(decode_cuda_graph_config.bs)

    declare_resolution(
        server_args,
        "_handle_gpu_memory_settings",
        cuda_graph_config=cuda_graph_config,
    )

    if cfg.mem_fraction_static is None:
        activation_tokens = max(cfg.chunked_prefill_size, 2048)
        # Constant meta data (e.g., from attention backend) + activation slack.
        reserved_mem = 512
        reserved_mem += activation_tokens * 1.5
        # Some adjustments for large parallel size
        reserved_mem += cfg.tp_size * cfg.pp_size / 8 * 1024
        reserved_mem += reserve_for_graph_mb(server_args)
        if gpu_mem is not None and gpu_mem > 60 * 1024:
            reserved_mem = max(reserved_mem, 10 * 1024)

        mem_fraction_static = (
            round((gpu_mem - reserved_mem) / gpu_mem, 3)
            if gpu_mem is not None
            else 0.95
        )
        declare_resolution(
            server_args,
            "_handle_gpu_memory_settings",
            mem_fraction_static=mem_fraction_static,
        )


def reserve_for_graph_mb(server_args: Any) -> float:

    cfg = resolving_view(server_args)
    decode_cuda_graph_config = cfg.cuda_graph_config.decode
    prefill_cuda_graph_config = cfg.cuda_graph_config.prefill

    reserved_mem = 0.0
    if (
        cfg.disaggregation_mode != "prefill"
        and decode_cuda_graph_config.backend != Backend.DISABLED
    ):
        reserved_mem += decode_cuda_graph_config.max_bs * 2

    if (
        attn_dp_enabled_of(resolved_view(server_args))
        and cfg.disaggregation_mode != "prefill"
    ):
        reserved_mem += decode_cuda_graph_config.max_bs * cfg.attn_dp_size * 3
        if decode_cuda_graph_config.max_bs > 300:
            reserved_mem += decode_cuda_graph_config.max_bs * cfg.attn_dp_size * 1.5

    if (
        cfg.disaggregation_mode != "decode"
        and prefill_cuda_graph_config.backend != Backend.DISABLED
    ):
        if not use_mla_backend(server_args):
            reserved_mem += len(prefill_cuda_graph_config.bs or [1]) * 8
        else:
            reserved_mem += 1.5 * 1024
    return reserved_mem


def handle_offload_compatibility(server_args: Any) -> None:
    """Flag-only check; re-run after the model overrides fill in the PLE default."""
    cfg = resolving_view(server_args)
    if cfg.ple_offload_embedding and (
        cfg.cpu_offload_gb > 0 or cfg.offload_group_size > 0
    ):
        raise ValueError(
            "--ple-offload-embedding cannot be combined with "
            "--cpu-offload-gb or --offload-group-size: generic layer offload "
            "would stage the pinned PLE embedding back to the device."
        )

    if cfg.ple_offload_backend == "file" and cfg.ple_offload_embedding is False:
        raise ValueError(
            "--ple-offload-backend file requires --ple-offload-embedding: "
            "the file-backed table is the offloaded table."
        )

