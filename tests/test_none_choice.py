"""Issue 14 round 31, written before the change.

``none`` given to a choice flag whose parser spells "nothing" otherwise (``unquant`` among a
quantization's methods, ``off``, ``disabled``) means that choice, before a spelling that
only shares letters with it (``nvfp4_online`` holds n, o, n, e in order). The argparse
wording is SGLang 0.5.23's; the choice lists are ours."""

from __future__ import annotations

from autofix.choices import closest_choices, near_choice

from .proposing import proposed

METHODS = ["awq", "fp8", "gptq", "modelopt_fp4", "nvfp4_online", "w8a8_fp8", "mxfp4", "unquant"]


def test_none_means_the_choice_that_says_nothing_is_done() -> None:
    assert closest_choices("none", METHODS)[0] == "unquant"
    assert closest_choices("None", ["auto", "off", "on"])[0] == "off"
    assert near_choice("none", "unquant")


def test_argparse_refusing_none_sets_the_unquantized_choice() -> None:
    listed = ", ".join(f"'{m}'" for m in METHODS)
    _, proposals = proposed(
        {"speculative-draft-model-quantization": "none", "speculative-algorithm": "EAGLE3"},
        "SystemExit",
        "launch_server.py: error: argument --speculative-draft-model-quantization: invalid choice: 'none' "
        f"(choose from {listed})",
    )
    assert proposals[0].move.label() == "set speculative-draft-model-quantization=unquant"


def test_none_with_no_choice_that_means_it_leaves_the_flag_out() -> None:
    """Round 39: 'none' given to a flag whose choices hold no word for nothing ('deepep'
    alone, a release whose all-to-all backend is only ever turned on) asks for the flag's
    default, not for the one choice there is: turning DeepEP on is the opposite."""
    _, proposals = proposed(
        {"a2a-toy-backend": "none", "tp-size": "8"},
        "SystemExit",
        "launch_server.py: error: argument --a2a-toy-backend: invalid choice: 'none' (choose from 'deepep')",
    )
    assert proposals[0].move.label() == "drop a2a-toy-backend"
