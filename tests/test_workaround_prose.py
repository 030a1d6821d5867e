"""Issue 14 round 46e, written before the change: the workaround a report states in words
an operator reads as advice, beyond "try/add/pass --x": "recommend trying --x v", "suppressed
by --x", "avoided by --x", "unless --x v is passed". Each is the thread's own way around the
failure, tried first like the log's advice. The failure lines and flags are ours; the
wordings are the ones rounds 59-68's reports use."""

from __future__ import annotations

import pytest

from .test_runtime_wild import first_move

FAILURE = (
    "[2026-11-03 10:00:01 TP0] Decode worker failed with error: invalid configuration argument\n"
    "[2026-11-03 10:00:01] Received sigquit from a child process. It usually means the child failed.\n"
)


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("Recommend trying --attention-backend triton", "set attention-backend=triton"),
        ("I'd suggest --attention-backend triton here.", "set attention-backend=triton"),
        (
            "The crash is suppressed by CUDA_LAUNCH_BLOCKING=1 and --disable-radix-cache.",
            "set disable-radix-cache=True",
        ),
        ("It is avoided by `--disable-radix-cache` on our side.", "set disable-radix-cache=True"),
        ("It happens unless `--mem-fraction-static 0.7` is passed explicitly.", "set mem-fraction-static=0.7"),
    ],
)
def test_a_workaround_stated_in_words_is_the_first_move(said: str, wanted: str) -> None:
    assert first_move(FAILURE + said + "\n") == wanted


def test_a_flag_said_to_cause_the_failure_is_no_advice() -> None:
    said = "The crash is caused by --enable-mixed-chunk, which we set."
    assert first_move(FAILURE + said + "\n") != "set enable-mixed-chunk=True"
