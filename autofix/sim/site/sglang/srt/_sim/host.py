"""Facts of the simulated host: 8 x RTX PRO 6000 Blackwell Server Edition (SM120).

Environment knobs (read at call time):
    AUTOFIX_SIM_GPUS          number of GPUs (default 8); CUDA_VISIBLE_DEVICES narrows it
    AUTOFIX_SIM_GPU_MEM_GB    memory per GPU in GB (default 96)
    AUTOFIX_SIM_LOAD_S        total model load time in seconds (default 3)
    AUTOFIX_SIM_STRICT_SM120  "1": pick the attention backend exactly as real 0.5.23 does on
                              SM120 (triton for DeepseekV3); default: trtllm_mla, page 64
"""

import os
import socket

GPU_NAME = "NVIDIA RTX PRO 6000 Blackwell Server Edition"
COMPUTE_CAPABILITY = (12, 0)
CUDA_VERSION = "12.9"
TORCH_VERSION = "2.9.1+cu129"
NCCL_VERSION = "2.27.7"
DRIVER_VERSION = "580.95.05"

# An RTX PRO 6000 Blackwell (96 GB) reports 97887 MiB to nvidia-smi.
_MIB_PER_NOMINAL_GB = 97887 / 96


def _truthy(value):
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def physical_gpus() -> int:
    try:
        return max(0, int(os.environ.get("AUTOFIX_SIM_GPUS", "8")))
    except ValueError:
        return 8


def visible_gpus() -> int:
    n = physical_gpus()
    cvd = os.environ.get("CUDA_VISIBLE_DEVICES")
    if cvd is None:
        return n
    ids = [x.strip() for x in cvd.split(",") if x.strip()]
    count = 0
    for x in ids:
        if not x.isdigit() or int(x) >= n:
            break  # CUDA stops at the first invalid entry
        count += 1
    return count


def gpu_mem_gb() -> float:
    try:
        return float(os.environ.get("AUTOFIX_SIM_GPU_MEM_GB", "96"))
    except ValueError:
        return 96.0


def total_mem_mib() -> int:
    return int(round(gpu_mem_gb() * _MIB_PER_NOMINAL_GB))


def total_mem_gib() -> float:
    return total_mem_mib() / 1024.0


def load_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get("AUTOFIX_SIM_LOAD_S", "3")))
    except ValueError:
        return 3.0


def strict_sm120() -> bool:
    return _truthy(os.environ.get("AUTOFIX_SIM_STRICT_SM120", "0"))


def hostname() -> str:
    return socket.gethostname().split(".")[0]
