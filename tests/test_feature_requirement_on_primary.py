"""Issue 14 round 45f, written before the change (0.4.10.post2-tenth's int4 MoE with the
FlashInfer CUTLASS MoE switch, in our words): a message that states what a feature requires
of a primary choice ("modelopt_fp4 quantization is required for Flashinfer MOE"), without
naming the value the user gave it, is about the feature: the quantization is the
checkpoint's, and changing it gives the user's choice up, so the feature's switch goes
first. A message that refuses the user's own value still lets the choice change."""

from __future__ import annotations

from autofix.model import Candidate
from autofix.repair import gives_up_primary

from .proposing import FULL


def _base(quantization: str) -> Candidate:
    return Candidate.build({"model-path": "/m", "quantization": quantization, "enable-flashinfer-cutlass-moe": True})


def test_a_value_required_for_a_feature_gives_the_users_choice_up() -> None:
    base = _base("moe_wna16")
    child = base.with_arg("quantization", "modelopt_fp4")
    assert gives_up_primary(base, child, FULL, "modelopt_fp4 quantization is required for Flashinfer MOE")


def test_a_refusal_of_the_users_value_does_not() -> None:
    base = _base("moe_wna16")
    child = base.with_arg("quantization", "modelopt_fp4")
    message = "moe_wna16 quantization is not supported for Flashinfer MOE; modelopt_fp4 quantization is required"
    assert not gives_up_primary(base, child, FULL, message)


def test_a_value_of_the_same_family_is_no_choice_given_up() -> None:
    """Round 45r, written before the change (0.4.10.post2's eighth, first and third sets, in
    sample: their verified fixes move petit_nvfp4 or modelopt to modelopt_fp4 and keep the
    FlashInfer MoE): a required value that shares a word with the user's (fp4 in nvfp4, the
    modelopt family) is another kernel or spelling of the same checkpoint's format, so changing
    to it gives nothing up; a foreign one (fp8 or moe_wna16 to modelopt_fp4) still does."""
    message = "modelopt_fp4 quantization is required for Flashinfer MOE"
    for held in ("petit_nvfp4", "modelopt"):
        base = _base(held)
        assert not gives_up_primary(base, base.with_arg("quantization", "modelopt_fp4"), FULL, message), held
    for held in ("fp8", "moe_wna16"):
        base = _base(held)
        assert gives_up_primary(base, base.with_arg("quantization", "modelopt_fp4"), FULL, message), held
