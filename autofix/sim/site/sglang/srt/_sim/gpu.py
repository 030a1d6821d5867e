"""The memory of the one simulated GPU a rank process drives, and torch's OOM message."""

from sglang.srt._sim import host

GIB = 1024**3


class Gpu:
    def __init__(self, gpu_id):
        self.gpu_id = gpu_id
        self.total = host.gpu_mem_gib() * GIB
        self.torch = 0.0  # bytes allocated through torch
        self.other = 0.0  # CUDA context, NCCL buffers

    def free(self):
        return max(0.0, self.total - self.torch - self.other)

    def free_gb(self):
        return self.free() / GIB

    def allocate(self, nbytes):
        """None when ``nbytes`` fit (and are now in use), else torch's OOM message."""
        if nbytes > self.free() - 2 * 1024**2:  # the caching allocator rounds to 2 MiB blocks
            return self.oom_message(nbytes)
        self.torch += nbytes
        return None

    def release(self, nbytes):
        self.torch = max(0.0, self.torch - nbytes)

    def oom_message(self, nbytes):
        used = self.torch + self.other
        return (
            f"CUDA out of memory. Tried to allocate {size(nbytes)}. GPU {self.gpu_id} has a total capacity of "
            f"{size(self.total)} of which {size(self.free())} is free. Including non-PyTorch memory, this process "
            f"has {size(used)} memory in use. Of the allocated memory {size(self.torch)} is allocated by PyTorch, "
            "and 0 bytes is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try "
            "setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation "
            "for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
        )


def size(nbytes):
    """A byte count as torch's caching allocator prints it."""
    for unit, scale in (("GiB", GIB), ("MiB", 1024**2), ("KiB", 1024)):
        if nbytes > scale:
            return f"{nbytes / scale:.2f} {unit}"
    return f"{int(nbytes)} bytes"
