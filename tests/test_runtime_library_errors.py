"""Issue 14 round 41, written before the change (round 53's root-cause misses, read after it
was scored blind): two runtime libraries' own failure lines, with no Python traceback.

- ROCm's runtime reports a GPU queue's hardware exception as "Callback: Queue 0x... aborting
  with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware
  exception. code: 0x1016" (HIP's counterpart of CUDA's illegal memory access).
- UCX (the transport NIXL and Mooncake use for KV transfer) logs at error level as
  "ib_device.c:1380 UCX  ERROR   <what failed>", often one line per worker.

These tests use their own lines, addresses and devices."""

from __future__ import annotations

from .proposing import pasted, subject_of

HSA = """\
Decode batch. #running-req: 40, #token: 81234
:0:rocdevice.cpp:3000: Callback: Queue 0x7f0011220000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016
"""

HSA_OOR = (
    ":0:rocdevice.cpp:2880: 1234567 us: Callback: Queue 0x7f00aa000000 aborting with error : "
    "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29\n"
)

UCX = """\
workers of the toy deployment:
- prefill: rdma.c:77 UCX  ERROR   ibv_toy_connect(port=1 gid=fe80::1) for UD mlx5 connect on mlx5_4 failed: No such device
- decode: rdma.c:77 UCX  ERROR   ibv_toy_connect(port=1 gid=fe80::2) for UD mlx5 connect on mlx5_5 failed: No such device
"""


def test_a_rocm_queue_abort_is_the_failure() -> None:
    assert "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception" in subject_of(HSA)


def test_another_hsa_status_names_its_own_error() -> None:
    assert "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION" in subject_of(HSA_OOR)


def test_a_rocm_queue_abort_is_an_illegal_memory_access() -> None:
    cls, move = pasted(HSA, {"tp": "8"})
    assert cls == "illegal-memory-access"
    assert move is not None


def test_a_ucx_error_line_is_the_failure() -> None:
    assert "for UD mlx5 connect on mlx5_4 failed: No such device" in subject_of(UCX)


def test_prose_about_hsa_and_ucx_errors_is_no_library_failure() -> None:
    prose = "We grepped for HSA_STATUS_ERROR in the logs and found none; UCX errors were not seen either.\n"
    cls, _ = pasted(prose, {"tp": "8"})
    assert cls is None
    assert subject_of(prose).split(":")[0] not in ("gpu_fault", "ucx_error")


def test_a_ucx_error_line_beats_the_title_that_names_it() -> None:
    """An issue's title quoting the failure in words is weaker than the line UCX printed."""
    titled = '# Workers crash with "UD mlx5" no such device\n\n' + UCX
    assert "for UD mlx5 connect on mlx5_4 failed: No such device" in subject_of(titled)


def test_a_rocm_queue_abort_beats_its_code_quoted_in_prose() -> None:
    quoted = "Queues crash with `HSA_STATUS_ERROR_EXCEPTION` code `0x1016`.\n\n```\n" + HSA + "```\n"
    assert "An HSAIL operation resulted in a hardware exception" in subject_of(quoted)
