"""Issue 14 round 31, written before the change.

``none`` given to a choice flag whose parser spells "nothing" otherwise (``unquant`` among a
quantization's methods, ``off``, ``disabled``) means that choice, before a spelling that
only shares letters with it (``nvfp4_online`` holds n, o, n, e in order). The argparse
wording is SGLang 0.5.23's; the choice lists are ours."""

from __future__ import annotations

from autofix.choices import closest_choices, near_choice

from .proposing import choice_refused, proposed

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


def test_a_float_dtype_given_to_a_quantization_means_unquantized() -> None:
    """Round 43, written before the change: a draft kept in its own BF16 weights is written
    as its dtype ('bf16', 'float16'); among quantization methods that is the one that leaves
    the weights unquantized, not the format its letters are nearest to (a dropped flag lets
    the draft inherit the target's fp8)."""
    for dtype in ("bf16", "bfloat16", "fp16", "float16", "half"):
        assert closest_choices(dtype, METHODS)[0] == "unquant"
    # SGLang's list is long (a near spelling may be chance there): this one is no chance.
    methods = [*METHODS, "marlin", "gptq_marlin", "awq_marlin", "bitsandbytes", "gguf", "modelopt", "w4afp8"]
    labels = choice_refused("speculative-draft-model-quantization", "bf16", methods, {"quantization": "fp8"})
    assert labels[0] == "set speculative-draft-model-quantization=unquant"


def test_a_float_dtype_among_dtypes_is_the_dtype_it_spells() -> None:
    dtypes = ["auto", "fp8_e5m2", "fp8_e4m3", "bfloat16", "unquant"]
    assert closest_choices("bf16", dtypes)[0] == "bfloat16"
