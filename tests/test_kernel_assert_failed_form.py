"""Issue 14 round 45k, written before the change (round 63's DeepGEMM pack kernel after an
upgrade, in our words): a kernel's own assertion in the "Assertion failed: file.cuh:131,
condition: ..." form (DeepGEMM's, as in C++ libraries) is the failure; the launch failure the
CUDA driver reports right after it (719, CUDA_ERROR_LAUNCH_FAILED: a kernel that trapped) only
reports it, as "device-side assert triggered" reports a CUDA assert."""

from __future__ import annotations

from .proposing import subject_of

ASSERT = "Assertion failed: toy_gemm/include/impls/pack_layout.cuh:88, condition: (bits[i] & 0x7fu) == 0"


def test_the_kernel_assert_comes_before_the_launch_failure_reporting_it() -> None:
    text = (
        "about 2000 device asserts across the ranks during load, then the scheduler dies:\n\n```\n"
        f"{ASSERT}\n"
        "tvm.error.InternalError: CUDA driver error (jit/impls/pack_layout.hpp:40): 719 (CUDA_ERROR_LAUNCH_FAILED)\n"
        "```\n"
    )
    assert "condition: (bits[i] & 0x7fu) == 0" in subject_of(text)


def test_a_launch_failure_without_an_assert_is_itself_the_failure() -> None:
    text = "tvm.error.InternalError: CUDA driver error (jit/impls/pack_layout.hpp:40): 719 (CUDA_ERROR_LAUNCH_FAILED)\n"
    assert "CUDA_ERROR_LAUNCH_FAILED" in subject_of(text)
