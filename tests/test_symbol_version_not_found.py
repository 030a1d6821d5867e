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
