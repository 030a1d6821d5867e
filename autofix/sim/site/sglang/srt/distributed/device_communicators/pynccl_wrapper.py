# This file is a pure Python wrapper for the NCCL library.
# SIMULATOR: the "library" answers from sglang.srt._sim.nccl instead of libnccl.so.

import ctypes
import logging

from sglang.srt._sim import nccl as _sim_nccl
from sglang.srt._sim.foreign import hidden

logger = logging.getLogger(__name__)

ncclResult_t = ctypes.c_int
ncclComm_t = ctypes.c_void_p


class ncclUniqueId(ctypes.Structure):
    _fields_ = [("internal", ctypes.c_byte * 128)]


class ncclDataTypeEnum:
    ncclFloat32 = 7
    ncclBfloat16 = 9

    @staticmethod
    def name(value):
        return {7: "ncclFloat32", 9: "ncclBfloat16"}.get(value, "ncclFloat32")


@hidden
def _native_ncclGetUniqueId(device):
    return _sim_nccl.check_comm_init(device), ncclUniqueId()


@hidden
def _native_ncclCommInitRank(device):
    return _sim_nccl.check_comm_init(device)


@hidden
def _native_ncclAllReduce(datatype, device):
    return _sim_nccl.check_collective("AllReduce", ncclDataTypeEnum.name(datatype), device)


class NCCLLibrary:
    def __init__(self, so_file=None, device=0):
        self.device = device

    def ncclGetErrorString(self, result: ncclResult_t) -> str:
        return _sim_nccl.get_error_string(result)

    def NCCL_CHECK(self, result: ncclResult_t) -> None:
        if result != 0:
            error_str = self.ncclGetErrorString(result)
            raise RuntimeError(f"NCCL error: {error_str}")

    def ncclGetUniqueId(self) -> ncclUniqueId:
        result, unique_id = _native_ncclGetUniqueId(self.device)
        self.NCCL_CHECK(result)
        return unique_id

    def ncclCommInitRank(
        self, world_size: int, unique_id: ncclUniqueId, rank: int
    ) -> ncclComm_t:
        comm = ncclComm_t()
        self.NCCL_CHECK(_native_ncclCommInitRank(self.device))
        return comm

    def ncclAllReduce(
        self,
        sendbuff,
        recvbuff,
        count: int,
        datatype: int,
        op: int,
        comm: ncclComm_t,
        stream,
    ) -> None:
        # `datatype` actually should be `ncclDataType_t`
        # and `op` should be `ncclRedOp_t`
        # both are aliases of `ctypes.c_int`
        # when we pass int to a function, it will be converted to `ctypes.c_int`
        # by ctypes automatically
        self.NCCL_CHECK(
            _native_ncclAllReduce(datatype, self.device)
        )
