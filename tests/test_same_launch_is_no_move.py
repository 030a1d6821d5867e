"""Issue 14 round 30, written before the change.

A flag written with its parser's default value launches the server the flag left out
would: ``--disaggregation-transfer-backend mooncake`` is the launch without it. Dropping
such a flag relaunches the server that just failed, a wasted launch (minutes of weight
loading) that can only fail the same way, so it is no move. When the failure names the
implementation the user picked and that pick is the default, the other implementations
of the flag are what is left to try (not a variant of the same one, nor a generic
``auto`` / ``none``).

These tests use their own messages and flags."""

from __future__ import annotations

from autofix.model import Candidate, EditOp, Gate
from autofix.repair import apply

from .proposing import FULL, pasted, proposed


def _launch_without_defaults(candidate: Candidate) -> Candidate:
    """The candidate with every flag that holds its parser default left out."""
    out = candidate
    for name, value in candidate.args:
        info = FULL.flag(name)
        if info is not None and info.default is not None and str(info.default) == str(value):
            out = out.without_arg(name)
    return out


def _crash(message: str) -> str:
    return (
        "[2026-03-04 09:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/managers/scheduler.py", line 88, in loop\n'
        "    self.process_batch(batch)\n"
        f"{message}\n"
    )


def test_dropping_a_flag_that_holds_its_default_is_not_proposed() -> None:
    # The message names both flags; only the one off its default changes the launch.
    base, proposals = proposed(
        {"schedule-policy": "fcfs", "chunked-prefill-size": "4096"},
        "RuntimeError",
        "stalled with --schedule-policy and --chunked-prefill-size as given",
        gate=Gate.START,
    )
    assert FULL.flag("schedule-policy").default == "fcfs"
    plain = _launch_without_defaults(base)
    assert proposals, "the flag off its default is still a move"
    for p in proposals:
        assert _launch_without_defaults(p.child) != plain, p.move.label()
    assert not any(e.op is EditOp.DROP and e.target == "schedule-policy" for p in proposals for e in p.move.edits)


def test_a_named_default_implementation_is_swapped_for_another_one() -> None:
    log = _crash("RuntimeError: Mooncake transfer engine lost the KV of request 77 (batch 12) under load")
    _, move = pasted(log, {"disaggregation-mode": "decode", "disaggregation-transfer-backend": "mooncake"})
    assert move is not None
    (edit,) = move.edits
    assert edit.op is EditOp.SET and edit.target == "disaggregation-transfer-backend"
    assert edit.value not in ("mooncake", "mooncake_tcp")  # not the same one, nor its variant
    assert str(edit.value) in map(str, FULL.flag("disaggregation-transfer-backend").choices)


def test_a_named_choice_off_its_default_still_goes_back_to_the_default_after_its_siblings() -> None:
    log = _crash("RuntimeError: flashinfer_trtllm grouped gemm returned status 7 for expert block 3")
    base = Candidate.build({"model-path": "/m", "moe-runner-backend": "flashinfer_trtllm"})
    _, move = pasted(log, {"moe-runner-backend": "flashinfer_trtllm"})
    assert move is not None and move.label().startswith("set moe-runner-backend=flashinfer_")
    assert apply(base, move).arg("moe-runner-backend") != "flashinfer_trtllm"
