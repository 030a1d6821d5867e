"""Memory bookkeeping of the one simulated GPU a rank process drives."""

from sglang.srt._sim import host

GIB = 1024**3

_state = {"gpu_id": 0, "torch_allocated": 0.0, "torch_reserved_extra": 0.0, "non_torch": 0.0}


def bind(gpu_id):
    _state["gpu_id"] = gpu_id


def total_gib():
    return host.total_mem_gib()


def used_gib():
    return _state["torch_allocated"] + _state["torch_reserved_extra"] + _state["non_torch"]


def free_gib(gpu_id=None):
    return max(0.0, total_gib() - used_gib())


def add_non_torch(gib):
    _state["non_torch"] += gib


def format_size(nbytes):
    """c10::CachingAllocator's format_size."""
    if nbytes <= 1024:
        return f"{int(nbytes)} bytes"
    if nbytes <= 1048576:
        return f"{nbytes / 1024.0:.2f} KiB"
    if nbytes <= 1073741824:
        return f"{nbytes / 1048576.0:.2f} MiB"
    return f"{nbytes / 1073741824.0:.2f} GiB"


def oom_message(request_bytes):
    gpu = _state["gpu_id"]
    total = total_gib() * GIB
    free = free_gib() * GIB
    in_use = used_gib() * GIB
    allocated = _state["torch_allocated"] * GIB
    reserved_unalloc = _state["torch_reserved_extra"] * GIB
    return (
        f"CUDA out of memory. Tried to allocate {format_size(request_bytes)}. "
        f"GPU {gpu} has a total capacity of {format_size(total)} of which "
        f"{format_size(free)} is free. Including non-PyTorch memory, this process "
        f"has {format_size(in_use)} memory in use. Of the allocated memory "
        f"{format_size(allocated)} is allocated by PyTorch, and "
        f"{format_size(reserved_unalloc)} is reserved by PyTorch but unallocated. "
        "If reserved but unallocated memory is large try setting "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  "
        "See documentation for Memory Management  "
        "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
    )


def try_allocate(request_bytes, keep=True):
    """Allocate on the simulated GPU; returns an error message instead of raising."""
    need = request_bytes / GIB
    # the caching allocator rounds up to 2 MiB blocks
    if need > free_gib() - 0.002:
        return oom_message(request_bytes)
    if keep:
        _state["torch_allocated"] += need
    return None


def release(request_bytes):
    _state["torch_allocated"] = max(0.0, _state["torch_allocated"] - request_bytes / GIB)


def reserve_extra(gib):
    _state["torch_reserved_extra"] += gib
