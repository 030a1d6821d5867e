"""Issue 14 round 39, written before the change (rounds 45-46 of the real logs showed both).

* A C library that checks a status and prints where ("ibrc.cpp:418: non-zero status: 22
  ibv_modify_qp failed", NVSHMEM's form) reports the first failure; the lines after it are
  the same failure passed up ("connect EPS failed", "setup connections failed").
* An exception whose message starts on the next line ("ImportError: " then the report) is
  that report; the details the report quotes further down ("- ImportError: ...") are what it
  tried, not the failure.

The texts are ours; the shapes are those real pastes take."""

from __future__ import annotations

from .proposing import subject_of


def test_the_first_status_line_is_the_failure() -> None:
    text = (
        "# [Bug] 2 x 8 GPUs toy image run error\n\n"
        "### Describe the bug\n\n"
        "/opt/toyshm/src/transport/verbs.cpp:211: non-zero status: 22 qp_transition failed\n\n"
        "/opt/toyshm/src/transport/verbs.cpp:980: non-zero status: 7 peer_connect failed\n\n"
        "/opt/toyshm/src/host/init.cu:77: non-zero status: 7 toyshm setup connections failed\n"
    )
    assert "qp_transition failed" in subject_of(text)


def test_a_message_on_the_line_after_the_exception_is_its_message() -> None:
    text = (
        "Got a CI failure on main\n\n"
        "```\n"
        "ImportError: \n"
        "[toy_kernel] CRITICAL: Could not load any toy_ops library!\n"
        "Attempted locations:\n"
        "1. /usr/lib/toy_kernel/sm90/toy_ops.so - found files: []\n"
        "Error details from previous import attempts:\n"
        "- ImportError: /usr/lib/toy_kernel/sm90/toy_ops.so: undefined symbol: _Z3toyv\n"
        "- ModuleNotFoundError: No module named 'toy_ops'\n"
        "```\n"
    )
    assert "Could not load any toy_ops library" in subject_of(text)
