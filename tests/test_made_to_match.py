"""Issue 14 round 36i, written before the change: "X specified in the model config (fp8) does
not match X specified in the `quantization` argument (compressed-tensors)": two values that
must agree, one the user's; the user's flag takes the other (the checkpoint's), before the
flag is dropped. The engine only dropped it (a primary choice: after every sibling line). The
message is ours, in the shape of SGLang 0.5.23's model config check."""

from __future__ import annotations

from .proposing import proposed_labels

MESSAGE = (
    "Quantization method specified in the toy config (fp8) does not match the quantization "
    "method specified in the `quantization` argument (compressed-tensors)."
)


def test_the_users_side_of_a_mismatch_takes_the_other_side() -> None:
    labels = proposed_labels({"tp-size": 2, "quantization": "compressed-tensors"}, "ValueError", MESSAGE)
    assert labels[0] == "set quantization=fp8"


def test_a_mismatch_the_user_has_no_side_of_moves_nothing_this_way() -> None:
    labels = proposed_labels({"tp-size": 2, "quantization": "awq"}, "ValueError", MESSAGE)
    assert "set quantization=fp8" not in labels


def test_a_value_the_flag_cannot_take_is_not_proposed() -> None:
    message = "the toy layout (banana) does not match the `quantization` argument (compressed-tensors)."
    labels = proposed_labels({"quantization": "compressed-tensors"}, "ValueError", message)
    assert "set quantization=banana" not in labels


def test_two_sizes_that_must_be_equal_are_left_to_the_size_rules() -> None:
    """Sizes ('toy_size (4) must equal tp_size (8)'): the subject moves to the other, as the
    relation rules say; the user's tp is not brought down to the subject's value first."""
    labels = proposed_labels({"tp-size": 8, "dwdp-size": 4}, "AssertionError", "dwdp_size (4) must equal tp_size (8)")
    assert labels[0] != "set tp-size=4"
