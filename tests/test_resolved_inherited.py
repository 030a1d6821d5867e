"""Issue 14 round 36h, written before the change: a value SGLang resolved for a flag the user
left unset, that the user gave another flag (the draft model's quantization inherits the
target's), is the user's choice: a check that refuses it refuses the user's flag, and no
move sets the inheriting flag to other choices. The engine set the draft's quantization on a
server with no draft model, one attempt per choice, down every line (a twenty-fourth set's
case took 11 attempts). The message is ours, in the shape of SGLang 0.5.23's model config."""

from __future__ import annotations

from .proposing import proposed


def test_an_inherited_value_is_not_another_flags_choice_to_change() -> None:
    _, proposals = proposed(
        {"tp-size": 2, "quantization": "compressed-tensors", "kv-cache-dtype": "fp8_e4m3"},
        "ValueError",
        "Quantization method specified in the toy config (fp8) does not match the quantization "
        "method specified in the `quantization` argument (compressed-tensors).",
        resolved={"speculative-draft-model-quantization": "compressed-tensors", "quantization": "compressed-tensors"},
    )
    labels = [p.move.label() for p in proposals]
    assert not any(label.startswith("set speculative-draft-model-quantization=") for label in labels)


def test_a_resolved_value_the_user_gave_no_flag_is_still_read() -> None:
    """An automatic strategy made concrete (nothing the user wrote holds it) stays a suspect."""
    _, proposals = proposed(
        {"tp-size": 2},
        "ValueError",
        "the toy kernel does not run under the triton_kernel strategy on this device.",
        resolved={"moe-runner-backend": "triton_kernel"},
    )
    assert any(p.move.label().startswith("set moe-runner-backend=") for p in proposals)
