"""Issue 14 round 15, written before the change: a check that requires a feature "to be
disabled" (or turned off) names it in words; the move turns that feature off by whatever
the parser offers: its disable- switch, dropping the enable- switch the user set, or the
off choice of a flag whose name holds those words. These tests use their own messages."""

from __future__ import annotations

from .proposing import proposed_labels


def labels(args: dict[str, object], message: str) -> list[str]:
    return proposed_labels(args, "AssertionError", message)


def test_the_off_choice_of_the_flag_named_by_its_words() -> None:
    got = labels({"tp-size": "4"}, "Live resharding requires prefill CUDA graph to be disabled.")
    # (0.5.23 also keeps the older switch for it, --disable-prefill-cuda-graph: as good)
    assert got and got[0] in ("set cuda-graph-backend-prefill=disabled", "set disable-prefill-cuda-graph=True"), got
    assert "set cuda-graph-backend-prefill=disabled" in got


def test_a_default_on_feature_gets_its_disable_switch() -> None:
    got = labels({}, "The streaming sampler requires the overlap schedule to be turned off")
    assert got and got[0] == "set disable-overlap-schedule=True", got


def test_a_feature_the_user_turned_on_is_dropped() -> None:
    got = labels({"enable-torch-compile": True}, "Hot weight swap requires torch compile to be disabled.")
    assert got and got[0] == "drop enable-torch-compile", got
