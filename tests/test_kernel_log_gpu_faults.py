"""Issue 14 round 29b, written before the change (round 28's root-cause misses, read after
it was scored blind): a GPU fault as the operating system's kernel log (dmesg) reports it,
pasted beside or instead of the server's own output.

- The amdgpu driver reports a kernel's bad memory access as a page fault ("[gfxhub0] retry
  page fault", "... fault from die AID0.XCD1", the lines of one fault report): the ROCm
  counterpart of CUDA's illegal memory access, with no Python traceback.
- NVIDIA's driver reports it as an Xid line ("NVRM: Xid (PCI:...): 13, Graphics SM ...
  Exception ..."): the fault is the Xid line, not a word of it read as an exception name.

These tests use their own lines, addresses and devices."""

from __future__ import annotations

from .proposing import pasted, subject_of

AMD_RETRY = """\
server crashes at 40 concurrent requests, dmesg:
```
[Mon Mar  2 10:11:12 2026] amdgpu 0000:c1:00.0: amdgpu: [gfxhub0] retry page fault (src_id:0 ring:0 vmid:5 pasid:40001)
[Mon Mar  2 10:11:12 2026] amdgpu 0000:c1:00.0: amdgpu:  Process python3 pid 77 thread python3 pid 77
[Mon Mar  2 10:11:12 2026] amdgpu 0000:c1:00.0: amdgpu:   in page starting at address 0x0000000000000000 from IH client 0x1b (UTCL2)
[Mon Mar  2 10:11:12 2026] amdgpu 0000:c1:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00000000
```
"""

AMD_CUT = """\
[Mon Mar  2 10:11:12 2026] amdgpu 0000:c1:00.0: amdgpu:   cookie node_id 3 fault from die AID1.XCD2
[Mon Mar  2 10:11:12 2026] amdgpu 0000:c1:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00341051
[Mon Mar  2 10:11:12 2026] amdgpu 0000:c1:00.0: amdgpu:          WALKER_ERROR: 0x0
"""

NVIDIA_XID = """\
kernel log of the node:
NVRM: Xid (PCI:0000:3b:00): 13, Graphics SM Warp Exception on (GPC 2, TPC 0, SM 0): Out Of Range Address
NVRM: Xid (PCI:0000:3b:00): 13, Graphics Exception: ESR 0x50e648=0x1000e 0x50e650=0x20 0x50e644=0xd3eff2
"""


def test_an_amdgpu_page_fault_is_the_failure() -> None:
    assert "retry page fault" in subject_of(AMD_RETRY)


def test_an_amdgpu_fault_report_cut_at_the_top_is_the_failure() -> None:
    assert "fault from die" in subject_of(AMD_CUT)


def test_an_amdgpu_page_fault_is_an_illegal_memory_access() -> None:
    cls, move = pasted(AMD_RETRY, {"tp": "8"})
    assert cls == "illegal-memory-access"
    assert move is not None


def test_an_nvidia_xid_line_is_the_failure() -> None:
    assert "Graphics SM Warp Exception on (GPC 2, TPC 0, SM 0): Out Of Range Address" in subject_of(NVIDIA_XID)


def test_a_log_that_only_mentions_page_faults_in_prose_has_no_gpu_fault() -> None:
    prose = "We saw no page fault in dmesg this time; the server exited cleanly after the test.\n"
    assert "page fault" not in subject_of(prose)


def test_an_xid_of_a_kernel_fault_is_an_illegal_memory_access() -> None:
    # Xid 13 (graphics engine exception), 31 (MMU fault), 43 (a kernel stopped): NVIDIA's
    # codes for a fault of the application's own kernel.
    cls, _ = pasted(NVIDIA_XID, {"tp": "8"})
    assert cls == "illegal-memory-access"


def test_an_xid_of_the_hardware_is_no_kernel_fault() -> None:
    fell_off = "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n"
    cls, _ = pasted(fell_off, {"tp": "8"})
    assert cls != "illegal-memory-access"
