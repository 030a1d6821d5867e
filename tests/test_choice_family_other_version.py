"""Issue 14 round 42a, written before the change (in sample: 0.4.10.post2-fifth's
`--tool-call-parser qwen3` on a Qwen3 MoE, scored blind at round 40, was set to
'qwen3_coder').

Round 41's reading of a versioned family name ('qwen3': the family 'qwen' before the variant
'qwen3_coder' the user did not name) needed the family's bare name among the choices. An
older parser lists the family only under another version ('qwen25'): that is the family's
choice too, before a variant whose own word neither the value nor the model's path says. With
several versions listed the newest goes first. The choice lists are ours."""

from __future__ import annotations

import pytest

from autofix.choices import closest_choices

from .proposing import proposed_labels


@pytest.mark.parametrize(
    ("given", "choices", "first"),
    [
        ("qwen3", ["qwen25", "mistral", "llama3", "qwen3_coder", "glm45"], "qwen25"),
        ("toy3", ["toy1", "toy2", "toy3-vision"], "toy2"),
        ("toy3", ["toy2.5", "toy3_mini", "other"], "toy2.5"),
        # the bare family still wins over another version of it
        ("qwen3", ["qwen", "qwen25", "qwen3_coder"], "qwen"),
        # no variant starts with the value: the nearest spelling stands, as before
        ("glm5", ["glm45", "glm47"], "glm45"),
    ],
)
def test_another_version_of_the_family_before_a_variant(given: str, choices: list[str], first: str) -> None:
    assert closest_choices(given, choices)[0] == first


def test_a_variant_the_models_path_names_stays_first() -> None:
    choices = ["qwen25", "mistral", "qwen3_coder"]
    assert closest_choices("qwen3", choices, context="/m/Qwen3-Coder-30B-A3B-Instruct")[0] == "qwen3_coder"
    assert closest_choices("qwen3", choices, context="/m/Qwen3-30B-A3B")[0] == "qwen25"


def test_the_search_sets_the_familys_other_version() -> None:
    listed = "'qwen25', 'mistral', 'llama3', 'deepseekv3', 'pythonic', 'kimi_k2', 'qwen3_coder', 'glm45', 'step3'"
    message = f"launch_server.py: error: argument --tool-call-parser: invalid choice: 'qwen3' (choose from {listed})"
    labels = proposed_labels({"model-path": "/m/Qwen3-30B-A3B", "tool-call-parser": "qwen3"}, "argparse_error", message)
    assert labels[0] == "set tool-call-parser=qwen25"
