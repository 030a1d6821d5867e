"""Issue 14 round 23, written before the change (found on the in-sample crossover set):
argparse's "unrecognized arguments" names what it could not place.

- A flag spelled with underscores or capitals that no reading maps to a known flag is still
  the user's flag: with nothing better it is dropped (before: no move at all).
- A word left over after a flag that takes one value, when the user gave that flag several
  (vLLM's --served-model-name takes many, SGLang's one), is the flag's extra values: the
  flag keeps its first.

These tests use their own flags and values."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import BARE, proposed


def test_an_unknown_flag_with_underscores_is_dropped_when_nothing_maps_it() -> None:
    _, found = proposed(
        {"zq_batch_window": "64", "tp-size": "2"},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: --zq_batch_window 64",
        catalog=BARE,
    )
    assert found and not found[0].child.has("zq_batch_window"), [p.move.label() for p in found]


def test_extra_values_of_a_one_value_flag_are_left_out() -> None:
    _, found = proposed(
        {"served-model-name": ["alpha-8b", "org/Alpha-8B"], "tp-size": "2"},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: org/Alpha-8B",
        catalog=BARE,
    )
    assert found and found[0].child.arg("served-model-name") == "alpha-8b", [p.move.label() for p in found]


def test_a_primary_named_as_the_condition_of_another_flag_is_kept() -> None:
    """ "--x is only supported with <primary> == A, got B": the message is about --x (a
    tuning flag the user set); the user's primary choice B is the condition it met, so
    dropping --x comes before giving up B (in sample: the 0.5.11-first set)."""
    from autofix.model import Candidate
    from autofix.repair import gives_up_primary

    base = Candidate.build(
        {
            "model-path": "/m",
            "speculative-algorithm": "EAGLE3",
            "speculative-draft-model-path": "/d",
            "zz-sync-skip": True,
        }
    )
    message = "--zz-sync-skip is only supported with speculative_algorithm == EAGLE, got EAGLE3."
    assert gives_up_primary(base, base.with_arg("speculative-algorithm", "EAGLE"), BARE, message)
    assert not gives_up_primary(base, base.without_arg("zz-sync-skip"), BARE, message)


def test_a_primary_no_other_choice_depends_on_may_still_change() -> None:
    """The same shape about quantization, which no flag the user set serves: the choice
    named by its value may change (w8a8_fp8 -> fp8 keeps what they asked for)."""
    from autofix.model import Candidate
    from autofix.repair import gives_up_primary

    base = Candidate.build({"model-path": "/m", "quantization": "w8a8_fp8", "zz-runner": "lora_x"})
    message = "--zz-runner lora_x supports unquantized and 128-block FP8 MoE, got --quantization w8a8_fp8."
    assert not gives_up_primary(base, base.with_arg("quantization", "fp8"), BARE, message)


def test_several_values_of_a_json_list_flag_are_the_list() -> None:
    """Round 39 (0.5.11-fifth, in sample): a flag whose parser reads one JSON list
    (json_list_type) given its members as words (``--group-ports 50000 50001``) takes them
    as the list ``[50000, 50001]``, before keeping its first value alone."""
    flags = {
        "model-path": {"kind": "value", "type": "str"},
        "toy-group-ports": {"kind": "value", "type": "json_list_type"},
    }
    host = load_catalog().without_classes().with_parser({"flags": flags}, "9.9.9")
    _, found = proposed(
        {"toy-group-ports": ["50000", "50001"]},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: 50001",
        catalog=host,
    )
    assert found and found[0].move.label() == "set toy-group-ports=[50000, 50001]", [p.move.label() for p in found]
