"""Issue 14 round 47a, written before the change: advice that names a server argument by its
field name, as the offline engine's keyword arguments and the RL frameworks' configs spell
it (``chunked_prefill_size = -1``, ``mem_fraction_static=0.7``), is the log's advice like
``--x v``. Only after an advice verb: "with x=v" and "we ran x=v" describe the launch that
failed. A name that is no server argument is nobody's flag. The failure lines and values
are ours; the shape is round 71's (a report's workaround, "disabled by setting
`chunked_prefill_size = -1`")."""

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
        (
            "As a workaround, chunked prefill can be disabled by setting `chunked_prefill_size = -1`.",
            "set chunked-prefill-size=-1",
        ),
        ("Please set disable_radix_cache=True in the engine arguments.", "set disable-radix-cache=True"),
        ("You can try `mem_fraction_static=0.7` when you create the engine.", "set mem-fraction-static=0.7"),
        ("To avoid it, pass attention_backend='triton' to sgl.Engine.", "set attention-backend=triton"),
    ],
)
def test_advice_naming_the_field_is_the_first_move(said: str, wanted: str) -> None:
    assert first_move(FAILURE + said + "\n") == wanted


@pytest.mark.parametrize(
    "said",
    [
        # the launch that failed, described: no advice
        "It crashes with `enable_mixed_chunk=True` on our side, please take a look.",
        "We launched the engine with enable_mixed_chunk = True and it crashed, please help.",
    ],
)
def test_the_failing_launch_described_by_field_is_no_advice(said: str) -> None:
    assert first_move(FAILURE + said + "\n") != "set enable-mixed-chunk=True"


def test_a_name_no_server_argument_has_is_no_move() -> None:
    said = "Please set rollout_batch_size_per_gpu=4 in the trainer config to avoid it."
    assert "rollout" not in first_move(FAILURE + said + "\n")


def test_advice_by_field_for_what_the_user_set_already_is_no_move() -> None:
    said = "Please set disable_radix_cache=True in the engine arguments."
    assert first_move(FAILURE + said + "\n", disable_radix_cache=True) != "set disable-radix-cache=True"


def test_a_switch_advised_off_by_field_is_never_turned_on() -> None:
    """Advice "set enable_x=False": the switch stays off (round 63's miles-pr935 read it on)."""
    said = "The tests pass because they set `enable_mixed_chunk=False` in the engine arguments."
    assert first_move(FAILURE + said + "\n") != "set enable-mixed-chunk=True"


def test_a_switch_advised_off_by_field_that_the_user_turned_on_is_dropped() -> None:
    said = "As a workaround, set `enable_mixed_chunk=False` in the engine arguments."
    # (the user's other feature comes first in a plain bisection of what the launch turned on)
    assert first_move(FAILURE + said + "\n", enable_torch_compile=True, enable_mixed_chunk=True) == (
        "drop enable-mixed-chunk"
    )
