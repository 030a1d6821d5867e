"""Issue 14 round 15, written before the change: in a paste no reading explains, an issue's
title (a markdown heading, a "[Bug]" line) says what the user saw in a few words; the log
they pasted under it says what failed. A log line that states a failure is the subject
before the title, whatever words the title has; a title is still the subject when nothing
else states a failure. These tests use their own pastes."""

from __future__ import annotations

from .proposing import subject_of


def test_the_log_line_beats_the_heading_above_it() -> None:
    paste = (
        "# [Bug] KV transfer failed with the RDMA backend, decode crashed\n"
        "\n"
        "```\n"
        "[2026-03-02 10:00:01 TP0] Prefill batch. #new-seq: 1, #new-token: 512\n"
        "[2026-03-02 10:00:04 TP1] Decode transfer failed for request rid=ab12: peer closed the queue pair\n"
        "```\n"
    )
    assert "peer closed the queue pair" in subject_of(paste)


def test_a_bracketed_title_without_a_heading_mark_is_a_title_too() -> None:
    paste = (
        "[BUG]: server crash with two nodes after the first request\n"
        "E0302 10:00:04.123456 4242 transfer.cpp:88] Rank 3 worker died: exit code -6 (SIGABRT)\n"
    )
    assert "Rank 3 worker died" in subject_of(paste)


def test_a_title_alone_is_still_the_subject() -> None:
    paste = "# [Bug] Server hangs at 4% while capturing CUDA graphs\n\nNo log, only a screenshot.\n"
    assert "Server hangs at 4%" in subject_of(paste)


def test_a_title_stating_more_than_the_log_line_stays_the_subject() -> None:
    """Issue 14 round 16, written before the change: the log line must state at least as
    much failure as the title ("out of memory" outweighs a child that "failed")."""
    paste = (
        "# [Fix] Accelerator out of memory when serving a 120B model on 8 cards\n"
        "[2026-03-03 03:53:36] Received sigquit from a child process. It usually means the child failed.\n"
    )
    assert "out of memory" in subject_of(paste)


def test_a_failure_named_in_the_title_gives_way_to_the_line_printed_below() -> None:
    """Round 39 (round 47's Ascend report): the title quotes the exception's class; the line
    the program printed below it states the same failure (out of memory, in torch_npu's
    words) and says more (what tried to allocate how much): it is the subject."""
    paste = (
        '# [Bug] Service startup failed for the toy model, error: "torch.OutOfMemoryError:"\n'
        "\n"
        "[Actual Result]\n"
        "[rank0]:[E529 15:05:55.365237348 ToyAllocator.cpp:454] NPU out of memory. "
        "ToyWorkspace tried to allocate 216.00 MiB (toy 0; 61.27 GiB total capacity)\n"
    )
    assert "ToyWorkspace tried to allocate" in subject_of(paste)
