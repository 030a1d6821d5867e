"""Issue 14 round 46g, written before the change: an environment variable a check tells the
operator to set, with its value ("Set SGLANG_X>=5120, or ...", "export SGLANG_Y=600", "Set
SGLANG_Z=1 to use the Triton path"), is a move: the variable set to that value (a bound's
value itself for ">="), weighed like the message's other fixes. A variable named with no
value, or a name that is no environment variable's, gives none. The wordings are SGLang
0.5.23's shapes; the names and values are ours."""

from __future__ import annotations

import pytest

from .proposing import proposed_labels


@pytest.mark.parametrize(
    ("message", "label"),
    [
        (
            "Toy budget exceeds its workspace: required=5120, capacity=4096. Set SGLANG_TOY_MAX_TOKENS>=5120, "
            "or lower --chunked-prefill-size.",
            "set_env SGLANG_TOY_MAX_TOKENS=5120",
        ),
        ("Toy bootstrap timed out; export SGLANG_TOY_TIMEOUT=600 to wait longer.", "set_env SGLANG_TOY_TIMEOUT=600"),
        (
            "Toy kernel is unavailable here. Set SGLANG_TOY_DISABLE=1 to use the Triton path.",
            "set_env SGLANG_TOY_DISABLE=1",
        ),
    ],
)
def test_the_variable_a_message_tells_to_set_is_a_move(message: str, label: str) -> None:
    labels = proposed_labels({"model-path": "/m", "chunked-prefill-size": "4096"}, "ValueError", message)
    assert label in labels


def test_the_variable_comes_before_lowering_what_the_message_lists_after_it() -> None:
    message = (
        "Toy budget exceeds its workspace: required=5120, capacity=4096. Set SGLANG_TOY_MAX_TOKENS>=5120, "
        "or lower --chunked-prefill-size."
    )
    labels = proposed_labels({"model-path": "/m", "chunked-prefill-size": "4096"}, "ValueError", message)
    assert labels[0] == "set_env SGLANG_TOY_MAX_TOKENS=5120"


@pytest.mark.parametrize(
    "message",
    [
        "Toy failed. Set SGLANG_TOY_DISABLE to disable it.",  # no value given
        "Toy failed. Set max_tokens=5 in the request.",  # no environment variable's name
    ],
)
def test_no_value_or_no_variable_gives_no_env_move(message: str) -> None:
    labels = proposed_labels({"model-path": "/m"}, "ValueError", message)
    assert not any(label.startswith("set_env") for label in labels)


def test_a_variable_for_a_platform_the_message_names_is_no_move() -> None:
    message = (
        "Toy backend needs a CUDA SM90 GPU. On ROCm, set SGLANG_TOY_AMD_PATH=1 to select the other kernel instead."
    )
    labels = proposed_labels({"model-path": "/m"}, "ValueError", message)
    assert not any(label.startswith("set_env") for label in labels)
