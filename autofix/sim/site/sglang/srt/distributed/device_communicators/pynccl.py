import logging
from typing import Optional, Union

from sglang.srt.distributed.device_communicators.pynccl_wrapper import (
    NCCLLibrary,
    ncclComm_t,
    ncclDataTypeEnum,
    ncclUniqueId,
)

logger = logging.getLogger(__name__)


class PyNcclCommunicator:
    def __init__(
        self,
        group,
        device: Union[int, str],
        library_path: Optional[str] = None,
        use_current_stream: bool = False,
    ):
        self.rank = group.rank
        self.world_size = group.world_size
        self.group = group
        self.available = True
        self.disabled = False
        if isinstance(device, str):
            device = int(device.split(":")[-1])
        self.device = device
        self.nccl = NCCLLibrary(library_path, device=device)

        if self.rank == 0:
            # get the unique id from NCCL
            self.unique_id = self.nccl.ncclGetUniqueId()
        else:
            # construct an empty unique id
            self.unique_id = ncclUniqueId()

        # nccl communicator and stream will use this device
        self.comm: ncclComm_t = self.nccl.ncclCommInitRank(
            self.world_size, self.unique_id, self.rank
        )

        # A small all_reduce for warmup.
        data = [0.0]
        self.all_reduce(data)
        del data

    def all_reduce(self, tensor, op=None, stream=None):
        if self.disabled:
            return
        self.nccl.ncclAllReduce(
            tensor,
            tensor,
            1,
            ncclDataTypeEnum.ncclFloat32,
            0,
            self.comm,
            stream,
        )
