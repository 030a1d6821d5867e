"""The simulated machine: 8 x NVIDIA RTX PRO 6000 Blackwell Server Edition (SM120), and the
``AUTOFIX_SIM_*`` knobs that change it. Read at call time, so a test can set them per launch.

    AUTOFIX_SIM_GPUS          GPUs on the host (default 8); CUDA_VISIBLE_DEVICES narrows them
    AUTOFIX_SIM_GPU_MEM_GB    memory per GPU in GB (default 96: 97887 MiB, as nvidia-smi says)
    AUTOFIX_SIM_LOAD_S        seconds a launch takes to come up (default 3)
    AUTOFIX_SIM_STRICT_SM120  "1": the attention backend real 0.5.23 picks on SM120 (see README)
    AUTOFIX_SIM_HOST_RAM_GB   host RAM for --cpu-offload-gb (default 1536)
"""

import os
import socket
from types import SimpleNamespace

GPU_NAME = "NVIDIA RTX PRO 6000 Blackwell Server Edition"
CAPABILITY = (12, 0)
NCCL_VERSION = "2.27.7"
CUDA_VERSION = "12.9"
_MIB_PER_GB = 97887 / 96  # a 96 GB card reports 97887 MiB


def _number(name, default, kind=float):
    try:
        return kind(os.environ.get(name, default))
    except ValueError:
        return kind(default)


def physical_gpus():
    return max(0, _number("AUTOFIX_SIM_GPUS", 8, int))


def visible_gpus():
    """GPUs a process can select: CUDA counts CUDA_VISIBLE_DEVICES up to its first bad entry."""
    listed = os.environ.get("CUDA_VISIBLE_DEVICES")
    if listed is None:
        return physical_gpus()
    count = 0
    for entry in (e.strip() for e in listed.split(",") if e.strip()):
        if not entry.isdigit() or int(entry) >= physical_gpus():
            break
        count += 1
    return count


def gpu_mem_mib():
    return int(round(_number("AUTOFIX_SIM_GPU_MEM_GB", 96) * _MIB_PER_GB))


def gpu_mem_gib():
    return gpu_mem_mib() / 1024.0


def load_seconds():
    return max(0.0, _number("AUTOFIX_SIM_LOAD_S", 3))


def host_ram_gb():
    return _number("AUTOFIX_SIM_HOST_RAM_GB", 1536)


def strict_sm120():
    return os.environ.get("AUTOFIX_SIM_STRICT_SM120", "0").strip().lower() in ("1", "true", "yes", "on")


def hostname():
    return socket.gethostname().split(".")[0]


def gpu_facts():
    """What SGLang's platform checks would learn about this host's GPUs."""
    major, minor = CAPABILITY
    return SimpleNamespace(
        name=GPU_NAME,
        sm=major * 10 + minor,
        capability=CAPABILITY,
        mem_mib=gpu_mem_mib(),
        count=visible_gpus(),
        blackwell=major in (10, 11, 12),
        sm100=major == 10,
        sm120=major == 12,
        hopper=major == 9,
    )
