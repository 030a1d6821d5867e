"""Issue 14 round 20, written before the change.

A failure that names the user's flag literally ("crashed when I add --enable-foo-bar-graph")
has said which switch to undo: a feature whose words only stand inside that flag's name
(here "bar graph") was not named by the failure, and its switch is no move before the
literal one. A feature named in the text's own words still is.

A log line that only announces that something failed elsewhere ("Scheduler hit an
exception: Traceback (most recent call last):" with the traceback cut; the launcher's
"SIGQUIT received ... It usually means one child failed") says nothing of what failed, and
does not outrank the issue's title above it. These tests use their own flags and pastes."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.features import switched_off
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .proposing import proposed, subject_of

CATALOG = load_catalog()
VIEWS = {
    "enable-piecewise-cuda-graph": ("enable-piecewise-cuda-graph", True, ()),
    "disable-cuda-graph": ("disable-cuda-graph", None, ()),
    "enable-two-batch-overlap": ("enable-two-batch-overlap", True, ()),
}


def test_feature_words_inside_a_literal_flag_name_are_not_a_named_feature() -> None:
    assert switched_off("the server crashed when I add --enable-piecewise-cuda-graph", VIEWS) == []


def test_a_feature_named_in_words_beside_a_literal_flag_still_is() -> None:
    moves = switched_off("crash in cuda graph capture once --enable-two-batch-overlap is set", VIEWS)
    assert [m.label() for m in moves] == ["set disable-cuda-graph=True"]


def test_the_literal_flag_is_undone_first() -> None:
    _, found = proposed(
        {"enable-piecewise-cuda-graph": True, "tp-size": "2"},
        "RuntimeError",
        "on NPU the server crashed when add --enable-piecewise-cuda-graph",
        gate=Gate.START,
        catalog=CATALOG,
    )
    assert found and found[0].move.label() == "drop enable-piecewise-cuda-graph", [p.move.label() for p in found]


def test_a_cut_traceback_announced_by_the_scheduler_gives_way_to_the_title() -> None:
    paste = (
        "# [Bug] draft model crash with mtp under load\n"
        "\n"
        "[2026-02-01 08:00:01] SIGQUIT received. signum=None, frame=None. It usually means one child failed.\n"
        "[2026-02-01 08:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/opt/py/sglang/srt/managers/scheduler.py", line 900, in run_scheduler_process\n'
        "    scheduler.event_loop_overlap()\n"
        '  File "/opt/py/sglang/srt/speculative/eagle_worker.py", line 77, in forward_dra\n'
    )
    assert "draft model crash with mtp under load" in subject_of(paste)


def test_a_logged_line_that_states_the_failure_still_beats_the_title() -> None:
    paste = (
        "# [Bug] draft model crash with mtp under load\n"
        "[2026-02-01 08:00:00 TP0] Decode batch failed: draft tokens exceed the page table (512 > 256)\n"
        "[2026-02-01 08:00:01] SIGQUIT received. signum=None, frame=None. It usually means one child failed.\n"
    )
    assert "draft tokens exceed the page table" in subject_of(paste)


def test_an_oom_at_load_lowers_the_fraction_even_when_nothing_says_its_value() -> None:
    """Offline, or on a host whose preflight resolved nothing, a CUDA OOM at load still
    gets a smaller --mem-fraction-static (a tenth below the value SGLang typically picks),
    not no move at all."""
    oom = (
        "[2026-05-25 19:34:29 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/x/sglang/srt/model_executor/model_runner.py", line 1, in load_model\n'
        "    x()\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    )
    d = classify(parse_text(oom), CATALOG, Gate.START)
    assert d.failure.class_id == "cuda-oom-load"
    props = propose(Candidate.build({"model-path": "/m"}), d, CATALOG)
    value = props[0].child.arg("mem-fraction-static") if props else None
    assert value is not None and float(str(value)) < 0.85, [p.move.label() for p in props]


# A check that asks for a feature to be on, naming it in words: its switch is turned on
# (an enable- switch set, the user's disable- switch dropped) before what the user set is
# given up.
BARE = load_catalog().without_classes()


def test_please_enable_a_feature_when_setting_another_turns_it_on() -> None:
    _, found = proposed(
        {"tp-size": "8", "enable-dp-lm-head": True},
        "AssertionError",
        "Please enable dp attention when setting enable_dp_lm_head.",
        catalog=BARE,
    )
    assert found and found[0].move.label() == "set enable-dp-attention=True", [p.move.label() for p in found]


def test_a_feature_that_must_be_enabled_turns_on_and_a_disabling_switch_goes() -> None:
    _, found = proposed(
        {"disable-overlap-schedule": True},
        "ValueError",
        "The overlap schedule must be enabled for this mode.",
        catalog=BARE,
    )
    assert found and found[0].move.label() == "drop disable-overlap-schedule", [p.move.label() for p in found]


# A flag of a newer release, on a host whose release still spelled that choice as a switch
# of its own: the flag history says the switch was replaced by "--new-flag value", so on
# the older host "--new-flag value" is that switch (read backwards). These tests use a
# pretend older host that has only the switch.
OLD_HOST = (
    load_catalog()
    .without_classes()
    .with_parser(
        {
            "flags": {
                "model-path": {"kind": "value", "type": "str"},
                "tp-size": {"kind": "value", "type": "int", "default": 1},
                "disable-fast-image-processor": {"kind": "bool"},
            }
        },
        "0.5.0",
    )
)


def test_a_newer_flags_choice_is_the_older_switch_it_replaced() -> None:
    _, found = proposed(
        {"image-processor-backend": "pil", "tp-size": "2"},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: --image-processor-backend pil",
        catalog=OLD_HOST,
    )
    assert found, "no move"
    child = found[0].child
    assert child.arg("disable-fast-image-processor") is True and not child.has("image-processor-backend"), found[
        0
    ].move.label()


def test_a_choice_no_older_switch_stood_for_is_still_dropped() -> None:
    _, found = proposed(
        {"image-processor-backend": "fast", "tp-size": "2"},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: --image-processor-backend fast",
        catalog=OLD_HOST,
    )
    assert found and not found[0].child.has("image-processor-backend")
    assert not found[0].child.has("disable-fast-image-processor")
