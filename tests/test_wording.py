"""Inference from how a check words its refusal (autofix/wording.py), written BEFORE the
rules (issue 14, round 5). Each case has the SHAPE of a leave-one-family-out miss of the
shared captures but other flags, values or wording, so a rule that only matches one
capture's text fails here. The catalogue is the bare one (no curated classes): what is
tested is inference alone."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.classify import Diagnosis, Subject
from autofix.model import Candidate, Failure, Frame, Gate
from autofix.repair import propose

CATALOG = load_catalog()
BARE = CATALOG.without_classes()


def diagnose(exception: str, message: str, source: str | None = None) -> Diagnosis:
    frame = Frame(file="/x/sglang/srt/arg_groups/hook.py", line=2, function="check", source=source) if source else None
    subject = Subject(exception, message, frame)
    failure = Failure(gate=Gate.PREFLIGHT, class_id=None, fingerprint="f", exception=exception, message=message)
    return Diagnosis(failure, subject)


def first(args: dict[str, object], exception: str, message: str, source: str | None = None, catalog=BARE) -> str:  # type: ignore[no-untyped-def]
    candidate = Candidate.build({"model-path": "/m", **args})
    proposals = propose(candidate, diagnose(exception, message, source), catalog, pinned=("model-path",))
    assert proposals, "no move at all"
    return proposals[0].move.label()


@pytest.mark.parametrize(
    ("args", "message", "expected"),
    [
        # A bracketed list in alphabetical order says nothing of preference: the parser's
        # order does (triton is its first attention backend). The refused value is excluded.
        (
            {"attention-backend": "torch_native", "speculative-algorithm": "EAGLE"},
            "Currently only ['fa3', 'flashinfer', 'triton'] attention backends are supported for "
            "speculative decoding, but you explicitly specified 'torch_native'.",
            "set attention-backend=triton",
        ),
        # The holder named by a --flag the message asks for, nothing of it set yet.
        (
            {"enable-mixed-chunk": True},
            "--enable-mixed-chunk: the resolved attention backends ['intel_amx'] are not in the allowed "
            "set ['fa3', 'flashinfer', 'triton']. Pass a compatible --attention-backend.",
            "set attention-backend=triton",
        ),
        # A prose list in the author's order, the holder found by the value it refuses.
        (
            {"speculative-algorithm": "STANDALONE", "enable-lora": True},
            "Adapters are only compatible with EAGLE, EAGLE3, or NGRAM speculative decoding, not STANDALONE.",
            "set speculative-algorithm=EAGLE",
        ),
        # The holder is what the operator asked for (quantization): the feature that
        # restricts it, named by its value's words (flashinfer_cutlass), goes instead.
        (
            {"quantization": "gptq", "moe-runner-backend": "flashinfer_cutlass"},
            "Invalid quantization 'gptq'.\nFlashInfer CUTLASS MOE supports only: 'fp8', 'modelopt_fp4', or bfloat16 (None).",
            "drop moe-runner-backend",
        ),
    ],
)
def test_a_list_of_allowed_values_sets_the_flag_that_holds_them(
    args: dict[str, object], message: str, expected: str
) -> None:
    assert first(args, "ValueError", message) == expected


def test_a_value_that_must_stand_alone_in_its_list_is_left_alone() -> None:
    message = "When 'all' is given to --lora-target-modules, it must be the only module listed."
    assert first({"lora-target-modules": ["q_proj", "all", "v_proj"]}, "AssertionError", message) == (
        "set lora-target-modules=all"
    )


def test_a_character_a_value_may_not_hold_is_replaced_not_the_flag_dropped() -> None:
    message = "served_model_name must not contain ':' (reserved for adapters). Invalid value: 'qwen:7b-chat'"
    got = first(
        {"served-model-name": "qwen:7b-chat"}, "AssertionError", message, 'assert ":" not in cfg.served_model_name, ('
    )
    assert got == "set served-model-name=qwen-7b-chat"


def test_none_compared_with_a_number_gives_the_unset_field_the_number() -> None:
    """TypeError None vs int in `if cfg.x > 1`: x is unset (None) where the code expected a
    number; the comparison's own constant is the value that lets the test be read (not the
    value past it, which would switch on whatever the branch guards; never a drop)."""
    got = first(
        {"speculative-algorithm": "EAGLE", "speculative-eagle-topk": 2},
        "TypeError",
        "'>' not supported between instances of 'NoneType' and 'int'",
        "if cfg.speculative_num_steps > 1:",
    )
    assert got == "set speculative-num-steps=1"


def test_a_size_that_must_be_one_or_another_size_takes_the_other_size() -> None:
    """'must be 1 or the same as the tensor parallel size': the size that keeps the feature."""
    message = "The expert parallel size must be 1 or equal to the tensor parallel size"
    got = first(
        {"tp-size": 8, "ep-size": 2, "moe-a2a-backend": "deepep"}, "AssertionError", message, "assert view.ep_size in ["
    )
    assert got == "set ep-size=8"


def test_a_group_that_does_not_divide_the_gpus_shrinks_before_more_gpus_are_asked_for() -> None:
    """tp 8, moe-dp 3: the nearest group size above 1 that divides 8 (2 and 4 tie: the
    smaller), then the default; raising tp (buying GPUs) comes last."""
    source = "def check(cfg):\n    assert cfg.tp_size % cfg.moe_dp_size == 0, (\n        'x'\n    )\n"
    candidate = Candidate.build({"model-path": "/m", "tp-size": 8, "moe-dp-size": 3})
    diagnosis = diagnose(
        "AssertionError", "tp_size must be divisible by moe_dp_size", "assert cfg.tp_size % cfg.moe_dp_size == 0, ("
    )
    labels = [p.move.label() for p in propose(candidate, diagnosis, BARE, pinned=("model-path",), source=source)]
    assert labels[0] == "set moe-dp-size=2"
    assert labels.index("drop moe-dp-size") < labels.index("set tp-size=9")
    assert labels[-1] == "set tp-size=9"


def test_a_refused_feature_named_by_abbreviated_words_is_dropped() -> None:
    """'dp attention' is --attn-dp-size's words too (attn abbreviates attention)."""
    message = "Currently NGRAM speculative decoding does not support dp attention."
    assert first({"speculative-algorithm": "NGRAM", "attn-dp-size": 2, "tp-size": 2}, "ValueError", message) == (
        "drop attn-dp-size"
    )


def test_an_option_only_for_some_algorithms_goes_before_the_algorithm_changes() -> None:
    message = "--speculative-adaptive only supports EAGLE / EAGLE3 speculative decoding."
    args = {"speculative-algorithm": "NGRAM", "speculative-adaptive": True}
    assert first(args, "ValueError", message) == "drop speculative-adaptive"


def test_a_bit_width_the_host_refuses_takes_another_width_of_the_same_flag() -> None:
    """'KV4 ...' names the KV cache dtype by its initials and width: another width of it."""
    message = "KV4 is not supported on this platform."
    got = first({"kv-cache-dtype": "fp4_mx_block16"}, "RuntimeError", message, catalog=CATALOG)
    assert got == "set kv-cache-dtype=fp8_e4m3"


def test_an_option_only_supported_for_listed_algorithms_goes_before_the_algorithm_changes() -> None:
    message = "--speculative-adaptive is only supported for EAGLE / NEXTN, not speculative_algorithm=NGRAM."
    args = {"speculative-algorithm": "NGRAM", "speculative-adaptive": True}
    assert first(args, "NotImplementedError", message) == "drop speculative-adaptive"


def test_offline_the_feature_that_restricts_what_the_operator_asked_for_goes_first() -> None:
    """Offline no value is known: the restricting feature is the flag whose parser choices
    hold the value the message names outside its list (FlashInfer CUTLASS: moe-runner-backend)."""
    from autofix.repair import offline_moves

    message = (
        "Invalid quantization 'gptq'.\nFlashInfer CUTLASS MOE supports only: 'fp8', 'modelopt_fp4', or bfloat16 (None)."
    )
    labels = [m.label() for m in offline_moves(diagnose("AssertionError", message), BARE)]
    assert labels[0] == "drop moe-runner-backend"
