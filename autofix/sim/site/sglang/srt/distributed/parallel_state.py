"""Distributed state (simulated subset of sglang/srt/distributed/parallel_state.py)."""

import logging
from typing import List, Optional

logger = logging.getLogger(__name__)

_WORLD = None
_TP = None


class GroupCoordinator:
    """PyTorch ProcessGroup wrapper for a group of processes."""

    def __init__(
        self,
        group_ranks: List[List[int]],
        local_rank: int,
        torch_distributed_backend: str,
        use_pynccl: bool,
        group_name: Optional[str] = None,
        rank: int = 0,
    ):
        self.unique_name = group_name
        self.rank = rank
        self.ranks = group_ranks[0]
        self.world_size = len(self.ranks)
        self.rank_in_group = self.ranks.index(rank) if rank in self.ranks else 0
        self.local_rank = local_rank
        self.device = f"cuda:{local_rank}"
        self.use_pynccl = use_pynccl
        self.pynccl_comm = None

        from sglang.srt.distributed.device_communicators.pynccl import (
            PyNcclCommunicator,
        )

        if use_pynccl and self.world_size > 1:
            self.pynccl_comm = PyNcclCommunicator(
                group=self,
                device=self.device,
            )


def init_model_parallel_group(
    group_ranks: List[List[int]],
    local_rank: int,
    backend: str,
    use_custom_allreduce: Optional[bool] = None,
    use_message_queue_broadcaster: bool = False,
    group_name: Optional[str] = None,
    use_pynccl: Optional[bool] = None,
    rank: int = 0,
) -> GroupCoordinator:
    if use_pynccl is None:
        use_pynccl = True
    return GroupCoordinator(
        group_ranks=group_ranks,
        local_rank=local_rank,
        torch_distributed_backend=backend,
        use_pynccl=use_pynccl,
        group_name=group_name,
        rank=rank,
    )


def init_distributed_environment(
    world_size: int = -1,
    rank: int = -1,
    distributed_init_method: str = "env://",
    local_rank: int = -1,
    backend: str = "nccl",
    timeout: Optional[int] = None,
    **kwargs,
):
    global _WORLD
    _WORLD = GroupCoordinator(
        group_ranks=[list(range(world_size))],
        local_rank=local_rank,
        torch_distributed_backend=backend,
        use_pynccl=False,
        group_name="world",
        rank=rank,
    )


def initialize_model_parallel(
    tensor_model_parallel_size: int = 1,
    pipeline_model_parallel_size: int = 1,
    backend: Optional[str] = None,
    rank: int = 0,
    local_rank: int = 0,
    **kwargs,
) -> None:
    global _TP
    # Build the tensor model-parallel groups.
    num_tensor_model_parallel_groups = max(1, _WORLD.world_size // tensor_model_parallel_size)
    group_ranks = []
    for i in range(num_tensor_model_parallel_groups):
        ranks = list(
            range(i * tensor_model_parallel_size, (i + 1) * tensor_model_parallel_size)
        )
        group_ranks.append(ranks)

    # message queue broadcaster is only used in tensor model parallel group
    _TP = init_model_parallel_group(
        group_ranks,
        local_rank,
        backend or "nccl",
        use_message_queue_broadcaster=True,
        group_name="tp",
        rank=rank,
    )


def get_tp_group() -> GroupCoordinator:
    return _TP
