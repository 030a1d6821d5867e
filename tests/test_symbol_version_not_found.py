"""Issue 14 round 44f, written before the change (round 62's GKE thread, in our words): the
dynamic loader refusing a library built against a newer C library ("libc.so.6: version
`GLIBC_2.32' not found (required by .../libnccl-net.so)") is a loader error, whatever level
the program logs it at: NCCL's plugin then is missing, and its "network ... not found"
warning, printed first by another rank, only follows from it."""

from __future__ import annotations

from .proposing import subject_of

PODS = (
    "toy-pod:562:562 [5] net.cc:579 NCCL WARN Error: network toyIB not found.\n"
    "toy-pod:565:565 [7] NCCL INFO NET/Plugin: Plugin load returned 2 : /lib/x86_64-linux-gnu/libc.so.6: "
    "version `GLIBC_2.32' not found (required by /usr/local/toy/lib64/libnccl-net.so) : when loading "
    "libnccl-net.so\n"
)


def test_the_loaders_refusal_is_the_failure_not_the_warning_it_causes() -> None:
    assert "GLIBC_2.32' not found (required by" in subject_of(PODS)


def test_a_version_sentence_without_the_loaders_form_is_no_loader_error() -> None:
    text = "toy-pod:562:562 [5] net.cc:579 NCCL WARN Error: network toyIB not found.\nthe version was not found\n"
    assert "network toyIB not found" in subject_of(text)


def test_a_shell_that_cannot_find_a_program_is_a_loader_error() -> None:
    """Round 44g, written before the change (round 62's container thread): a JIT build's
    shell reporting its compiler missing ("/bin/sh: 1: /usr/local/cuda/bin/nvcc: not found",
    bash's "nvcc: command not found") is the failure, not the issue's title."""
    text = (
        "# fix: copy the toy libraries into the runtime stage\n\n"
        "We see this in CI with the toy runtime container:\n"
        "````\n2025-08-04T22:37:58.555820Z 01O [BASH] /bin/sh: 1: /usr/local/toy/bin/nvcc: not found\n````\n"
    )
    assert "nvcc: not found" in subject_of(text)
    bash = "[toy] building kernels\nbash: line 3: nvcc: command not found\n"
    assert "nvcc: command not found" in subject_of(bash)


def test_a_diagnostic_tool_missing_after_a_watchdog_is_not_the_failure() -> None:
    """SGLang's watchdog dumps the hung process with py-spy; where py-spy is missing, the
    shell's "not found" follows the watchdog line and says nothing about the hang."""
    text = (
        "[2026-01-02 10:00:00] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)\n"
        "[2026-01-02 10:00:00] Pyspy failed to dump PID 171. Error: /bin/dash: 1: py-spy: not found\n"
    )
    assert "watchdog_timeout=300" in subject_of(text)
