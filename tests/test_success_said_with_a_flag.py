"""Issue 14 round 48b, written before the change: a report that says the launch succeeds
with a flag ("the same setup runs successfully with `--disable-x`", "if I use --disable-x,
it works okay", "I successfully launched the server with --disable-x") gives that flag as
the log's advice. A launch described as failing with a flag is no advice. The failure lines
and sentences are ours; the shapes are those of user reports in public SGLang threads (a
workaround stated as a success, not as an instruction)."""

from __future__ import annotations

import pytest

from .test_runtime_wild import first_move

FAILURE = (
    "[2026-11-03 10:00:01 TP0] Scheduler hit an exception: RuntimeError: CUDA error: an illegal instruction was "
    "encountered\n"
    "[2026-11-03 10:00:01] Received sigquit from a child process. It usually means the child failed.\n"
)


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        (
            "The same setup runs successfully with `--disable-chunked-prefix-cache`.",
            "set disable-chunked-prefix-cache=True",
        ),
        ("If I use --disable-radix-cache, it works okay.", "set disable-radix-cache=True"),
        ("I successfully launched the server with --disable-overlap-schedule.", "set disable-overlap-schedule=True"),
        ("Everything works fine with --disable-custom-all-reduce on this node.", "set disable-custom-all-reduce=True"),
    ],
)
def test_a_launch_said_to_succeed_with_a_flag_is_the_first_move(said: str, wanted: str) -> None:
    assert first_move(FAILURE + said + "\n") == wanted


@pytest.mark.parametrize(
    "said",
    [
        "It crashes when I launch the server with --enable-mixed-chunk on two GPUs.",
        "The server started with --enable-mixed-chunk and then crashed on the first request.",
    ],
)
def test_a_launch_said_to_fail_with_a_flag_is_no_advice(said: str) -> None:
    assert first_move(FAILURE + said + "\n") != "set enable-mixed-chunk=True"
