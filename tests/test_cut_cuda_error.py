"""Issue 14 round 44c, written before the change: a paste cut below torch's "CUDA error:
<what>" line still holds the line torch prints after it, "Search for `cudaError<Name>' in
https://docs.nvidia.com/...": the runtime's own name of the error. That line is the
failure, not the issue title or a later wrapper (round 60's HiCache thread). Where the
"CUDA error:" line itself stands, it stays the one read. The texts are ours; the shapes
are torch's."""

from __future__ import annotations

from .proposing import subject_of

_AFTER = (
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be"
    " incorrect.\n"
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n\n"
    "Exception raised from c10_cuda_check_implementation at /toy/c10/cuda/CUDAException.cpp:44 (most recent call"
    " first):\n"
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x80 (0x7f54 in /toy/lib/libc10.so)\n"
)
_SEARCH = (
    "Search for `cudaErrorIllegalAddress' in https://docs.nvidia.com/cuda/cuda-runtime-api/"
    "group__CUDART__TYPES.html for more information.\n"
)


def test_the_runtime_error_name_is_the_failure_when_the_cuda_error_line_was_cut() -> None:
    text = (
        "# Fix: toy cache and graphs giving an illegal memory access error\n\nIt happened again\n`" + _SEARCH + _AFTER
    )
    assert "cudaErrorIllegalAddress" in subject_of(text)


def test_the_cuda_error_line_stays_the_one_read_where_it_stands() -> None:
    text = "RuntimeError: CUDA error: an illegal memory access was encountered\n" + _SEARCH + _AFTER
    assert "an illegal memory access was encountered" in subject_of(text)
