"""Issue 14 round 41, written before the change (three sets carry it in sample: 0.5.23-fourth,
users23 and users28, each scored blind before: `--tool-call-parser qwen3` on SGLang, whose
choices hold 'qwen' and 'qwen3_coder', was set to 'qwen3_coder').

A refused value that is a choice's name with a version written after it ('qwen3': 'qwen' and
3) meant that family's choice, before a choice that starts with the whole value and goes on
with a word of its own ('qwen3_coder': a variant the user did not name), unless the model's
path names the variant (Qwen3-Coder-480B). Without the family among the choices, the longer
one stays first. (users14's two Qwen3-Coder commands turn the other way in the bench: their
fixture's path, qwen3-30b-a3b, lost the word; offline no path is at hand.) The choice lists
are ours."""

from __future__ import annotations

import pytest

from autofix.choices import closest_choices

from .proposing import proposed_labels


@pytest.mark.parametrize(
    ("given", "choices", "first"),
    [
        ("qwen3", ["auto", "llama3", "qwen", "qwen3_coder"], "qwen"),
        ("toy2", ["toy", "toy2-vision", "other"], "toy"),
        ("toy2.5", ["toy", "toy2.5_mini"], "toy"),
        # no family listed: the choice that starts with the value
        ("qwen3", ["auto", "llama3", "qwen3_coder"], "qwen3_coder"),
        # a choice that only adds digits is a version of its own, as before
        ("qwen", ["qwen3", "qwen3_coder"], "qwen3"),
        # a listed choice spelled the same always wins
        ("qwen3", ["qwen", "qwen3", "qwen3_coder"], "qwen3"),
    ],
)
def test_a_family_with_a_version_written_after_it(given: str, choices: list[str], first: str) -> None:
    assert closest_choices(given, choices)[0] == first


def test_a_variant_the_models_path_names_stays_first() -> None:
    choices = ["auto", "llama3", "qwen", "qwen3_coder"]
    assert closest_choices("qwen3", choices, context="/models/Qwen/Qwen3-Coder-480B-A35B-Instruct")[0] == "qwen3_coder"
    assert closest_choices("qwen3", choices, context="/models/Qwen/Qwen3-8B")[0] == "qwen"


def test_the_search_reads_the_models_path() -> None:
    listed = "'auto', 'llama3', 'qwen', 'qwen3_coder'"
    message = f"sglang serve: error: argument --tool-call-parser: invalid choice: 'qwen3' (choose from {listed})"
    coder = proposed_labels(
        {"model-path": "/m/Qwen3-Coder-30B", "tool-call-parser": "qwen3"}, "argparse_error", message
    )
    plain = proposed_labels({"model-path": "/m/Qwen3-8B", "tool-call-parser": "qwen3"}, "argparse_error", message)
    assert coder[0] == "set tool-call-parser=qwen3_coder"
    assert plain[0] == "set tool-call-parser=qwen"


def test_a_model_of_another_version_of_the_family_keeps_the_variant_first() -> None:
    """Qwen3.5 where 'qwen3' was written: the value does not name the model's version, so the
    family reading says nothing (users21's Qwen3.5 case, found at round 41's after-run)."""
    choices = ["auto", "llama3", "qwen", "qwen3_coder"]
    assert closest_choices("qwen3", choices, context="/models/Qwen/Qwen3.5-397B-A17B-NVFP4")[0] == "qwen3_coder"
    assert closest_choices("qwen3", choices, context="/models/Qwen/Qwen3-235B-A22B")[0] == "qwen"
