"""Issue 14 round 29, written before the change.

A server that dies at start with a failure no class names, whose frames run in no part
the catalogue knows, and whose words name no flag, leaves an operator one thing to do:
relaunch without the optional features the launch turned on, one at a time (a bisection
over what the user added to a plain launch): an ``--enable-…`` switch, an implementation
picked with a ``…-backend`` flag. The feature the failure's own text mentions (its
message, its frames' files and lines) goes first; what the user asked for (an
expert-parallel backend) goes last, as every move that orphans it does. A class that names
the failure speaks for it (a missing checkpoint is no flag's to fix), argument validation
names its flag itself, and a flag set to its default is no feature turned on.

These tests use their own messages, paths and flags."""

from __future__ import annotations

from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .proposing import FULL, pasted, proposed


def _crash(message: str, *frames: str) -> str:
    lines = ["[2026-03-03 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):"]
    for path, source in frames:
        lines += [f'  File "/opt/venv/lib/python3.12/site-packages/{path}", line 77, in run', f"    {source}"]
    lines.append(message)
    lines.append("[2026-03-03 10:00:01] Received sigquit from a child process. It usually means the child failed.")
    return "\n".join(lines) + "\n"


UNREAD = _crash(
    "RuntimeError: shape mismatch in step 3: got 17 expected 19",
    ("sglang/srt/managers/scheduler.py", "self.run_batch(batch)"),
    ("sglang/srt/models/mixtral.py", "hidden = self.block(hidden)"),
)


def test_an_unread_crash_relaunches_without_the_feature_the_user_turned_on() -> None:
    cls, move = pasted(UNREAD, {"tp": "2", "dp": "2", "enable-dp-attention": True})
    assert cls is None
    # (round 37p: the DP groups go with the switch that kept them inside TP)
    assert move is not None and move.label() == "drop enable-dp-attention; drop dp"


def test_a_backend_the_user_picked_goes_back_to_the_default() -> None:
    _, move = pasted(UNREAD, {"tp": "4", "attention-backend": "torch_native"})
    assert move is not None and move.label() == "drop attention-backend"


def test_the_feature_the_failure_mentions_goes_first() -> None:
    log = _crash(
        "IndexError: index 64 is out of bounds for dimension 0 with size 64",
        ("sglang/srt/managers/scheduler.py", "self.run_batch(batch)"),
        ("sglang/srt/layers/moe/trtllm_gen_runner.py", "out = self.kernel(x, topk)"),
    )
    _, move = pasted(log, {"enable-mixed-chunk": True, "moe-runner-backend": "flashinfer_trtllm"})
    assert move is not None and move.label() == "drop moe-runner-backend"


def test_without_a_mention_the_users_order_is_kept() -> None:
    _, move = pasted(UNREAD, {"enable-mixed-chunk": True, "moe-runner-backend": "flashinfer_trtllm"})
    assert move is not None and move.label() == "drop enable-mixed-chunk"


def test_what_the_user_asked_for_goes_after_an_optional_feature() -> None:
    _, move = pasted(UNREAD, {"moe-a2a-backend": "deepep", "ep-size": "8", "enable-two-batch-overlap": True})
    assert move is not None and move.label() == "drop enable-two-batch-overlap"


def test_no_optional_feature_turned_on_proposes_nothing() -> None:
    assert pasted(UNREAD, {"tp": "2", "mem-fraction-static": "0.8"})[1] is None


def test_a_switch_left_off_or_a_default_backend_is_no_feature() -> None:
    assert pasted(UNREAD, {"enable-dp-attention": "false", "moe-runner-backend": "auto"})[1] is None


def test_a_named_failure_keeps_its_class_moves_first() -> None:
    log = _crash(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity "
        "of 79.1 GiB of which 1.2 GiB is free.",
        ("sglang/srt/model_executor/model_runner.py", "self.load_model()"),
    )
    cls, move = pasted(log, {"mem-fraction-static": "0.9", "enable-mixed-chunk": True})
    assert cls is not None and cls.startswith("cuda-oom")
    assert move is not None and "enable-mixed-chunk" not in move.label()


def test_a_class_that_knows_no_flag_fixes_it_is_not_bisected() -> None:
    log = (
        "[2026-03-03 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/model_loader/loader.py", line 90, in load\n'
        "    files = self._find(model)\n"
        "OSError: /models/q is not a local folder and is not a valid model identifier listed on "
        "'https://huggingface.co/models'\n"
    )
    diagnosis = classify(parse_text(log), FULL, Gate.START)
    assert diagnosis.failure.class_id is not None
    candidate = Candidate.build({"model-path": "/m", "enable-mixed-chunk": True})
    moves = propose(candidate, diagnosis, FULL, pinned=("model-path",))
    assert not any(e.target == "enable-mixed-chunk" for p in moves for e in p.move.edits)


def test_argument_validation_is_not_bisected() -> None:
    _, moves = proposed({"enable-mixed-chunk": True}, "AssertionError", "shape mismatch in step 3")
    assert not any(e.target == "enable-mixed-chunk" for p in moves for e in p.move.edits)


# Round 40 (40a, written before the change): a switch that forces a path on is an optional
# feature too, whatever its name starts with: "enforce-…" (a fusion the server would
# otherwise decide for itself) and a part's own "…-enable-…" switch.


def test_a_switch_that_enforces_a_path_is_a_feature_turned_on() -> None:
    _, move = pasted(UNREAD, {"tp": "8", "enforce-shared-experts-fusion": True})
    assert move is not None and move.label() == "drop enforce-shared-experts-fusion"


def test_a_parts_own_enable_switch_is_a_feature_turned_on() -> None:
    _, move = pasted(UNREAD, {"tp": "2", "mm-enable-dp-encoder": True})
    assert move is not None and move.label() == "drop mm-enable-dp-encoder"


def test_an_enforcing_switch_left_off_is_no_feature() -> None:
    assert pasted(UNREAD, {"tp": "8", "enforce-shared-experts-fusion": "false"})[1] is None
