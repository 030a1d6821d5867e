"""Parallel runtime bring-up of a scheduler process (simulated subset)."""

import logging
import os
import time

from sglang.srt._sim import foreign, gpu_state
from sglang.srt._sim import torch_sim as torch
from sglang.srt.distributed.parallel_state import (
    init_distributed_environment,
    initialize_model_parallel,
)
from sglang.srt.utils.common import get_available_gpu_memory

logger = logging.getLogger(__name__)

_PARALLEL_INITIALISED = False
_DEVICE = {"gpu_id": 0}


class _DeviceBag:
    def __init__(self, gpu_id):
        self.gpu_id = gpu_id


def get_device():
    return _DeviceBag(_DEVICE["gpu_id"])


def init_parallel_runtime(
    *,
    server_args,
    device: str,
    gpu_id: int,
    tp_rank: int,
    tp_size: int,
    dist_port: int,
) -> None:
    """Initialize the parallel runtime once, after publishing configuration.

    Set up CPU thread binding, the current device, and the shared Mooncake
    engine before creating process groups. Draft workers reuse their target's
    groups and must not call this function.
    """
    global _PARALLEL_INITIALISED
    _DEVICE["gpu_id"] = gpu_id
    if _PARALLEL_INITIALISED:
        raise RuntimeError(
            "init_parallel_runtime() ran twice in this process. The groups are built "
            "once, before anything that reads one exists."
        )
    _PARALLEL_INITIALISED = True

    tic = time.perf_counter()
    logger.info("Init parallel begin.")

    backend = "nccl"
    dist_init_method = f"tcp://{server_args.host or '127.0.0.1'}:{dist_port}"

    # Select the local device before communicator allocation and warmup.
    try:
        torch.get_device_module(device).set_device(get_device().gpu_id)
    except Exception as e:
        foreign.prune(e)
        logger.warning(
            "Context: device=%s gpu_id=%s CUDA_VISIBLE_DEVICES=%s tp_rank=%s",
            device,
            gpu_id,
            os.environ.get("CUDA_VISIBLE_DEVICES"),
            tp_rank,
        )
        raise
    gpu_state.add_non_torch(0.55)  # CUDA context

    _init_parallel_groups(
        backend=backend,
        dist_init_method=dist_init_method,
        server_args=server_args,
        gpu_id=gpu_id,
        tp_rank=tp_rank,
        tp_size=tp_size,
    )
    gpu_state.add_non_torch(0.35)  # NCCL buffers

    logger.info(f"Init parallel ends. elapsed={time.perf_counter() - tic:.2f} s")


def _init_parallel_groups(
    *,
    backend: str,
    dist_init_method: str,
    server_args,
    gpu_id: int,
    tp_rank: int,
    tp_size: int,
) -> None:
    world_size = tp_size * server_args.pp_size
    rank = tp_rank

    init_distributed_environment(
        backend=backend,
        world_size=world_size,
        rank=rank,
        local_rank=gpu_id,
        distributed_init_method=dist_init_method,
        timeout=server_args.dist_timeout,
    )
    initialize_model_parallel(
        tensor_model_parallel_size=tp_size,
        pipeline_model_parallel_size=server_args.pp_size,
        rank=rank,
        local_rank=gpu_id,
    )


def measure_pre_model_load_memory(*, device: str, gpu_id: int, is_draft_worker: bool) -> float:
    before_avail_memory = get_available_gpu_memory(device, gpu_id)
    local_gpu_memory = get_available_gpu_memory(device, gpu_id)
    if not is_draft_worker:
        logger.info(
            f"Memory baseline taken. mem usage="
            f"{(gpu_state.total_gib() - before_avail_memory):.2f} GB"
        )
    return local_gpu_memory
