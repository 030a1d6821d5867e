"""Issue 14 round 42e, written before the change (round 55/56's root-cause misses, read after
they were scored blind at 234b431).

- ninja's line for a build step that failed ("FAILED: [code=139] cuda_0.o", "FAILED:
  cuda_0.o" before ninja 1.12) is the failure when the compiler itself died and printed no
  error line of its own (a segfault of nvcc): a JIT kernel build that failed, which no flag
  fixes. A compiler's own error line, when printed, still says more.
- ROCm's queue abort may put its description on the next line ("HSA_STATUS_ERROR_EXCEPTION:"
  at the end of its line): still the failure, before the abort that reports it.

These tests use their own lines, paths and kernels."""

from __future__ import annotations

from .proposing import pasted, subject_of

NVCC_DIED = """\
compiling the top-k kernel at first request:
[1/2] /usr/local/cuda/bin/nvcc --generate-dependencies-with-compile -c /root/.cache/jit/topk_kernel/cuda.cu -o cuda_0.o
FAILED: [code=139] cuda_0.o
/usr/local/cuda/bin/nvcc --generate-dependencies-with-compile -c /root/.cache/jit/topk_kernel/cuda.cu -o cuda_0.o
nvcc warning : incompatible redefinition for option 'std', the last value of this option was used
ninja: build stopped: subcommand failed.
"""

OLD_NINJA = """\
[1/3] c++ -MMD -MF attn.o.d -c /tmp/ext/attn.cpp -o attn.o
FAILED: attn.o
ninja: build stopped: subcommand failed.
"""

COMPILER_SAID = """\
[1/2] /usr/local/cuda/bin/nvcc -c /root/.cache/jit/k/cuda.cu -o cuda_0.o
FAILED: cuda_0.o
/root/.cache/jit/k/cuda.cu(41): error: identifier "__nv_fp8_e4m3" is undefined
1 error detected in the compilation of "/root/.cache/jit/k/cuda.cu".
ninja: build stopped: subcommand failed.
"""

HSA_WRAPPED = """\
server side:
:0:rocdevice.cpp            :3020: 2094721583 us: Callback: Queue 0x7f00aa000000 aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION:
  The agent attempted to access memory beyond the largest legal address. code: 0x29
Fatal Python error: Aborted
"""


def test_a_build_step_that_failed_is_the_failure() -> None:
    assert "FAILED: [code=139] cuda_0.o" in subject_of(NVCC_DIED)
    assert "FAILED: attn.o" in subject_of(OLD_NINJA)


def test_a_compilers_own_error_line_says_more() -> None:
    assert "is undefined" in subject_of(COMPILER_SAID)


def test_a_failed_build_step_is_a_kernel_build_that_no_flag_fixes() -> None:
    cls, move = pasted(NVCC_DIED, {"tp": "8"})
    assert cls == "kernel-jit-build-failed"
    assert move is None


def test_rocms_queue_abort_with_its_words_on_the_next_line_is_the_failure() -> None:
    assert "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION" in subject_of(HSA_WRAPPED)
