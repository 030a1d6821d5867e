"""Issue 14 round 7, written before the change: values an operator mends instead of dropping
the flag (the fifth fresh set and users2 showed each shape; these tests use other flags,
values and wording). A size written with a unit the parser does not take is the plain
integer it means; a list with a member the check refuses loses that member (a negative id,
a duplicate); a JSON value whose keys are not the ones the check names gets them renamed; a
refused pipeline-parallel size folds into tensor parallelism, keeping the GPUs and the
speculative algorithm; a replaced flag whose replacement value the host's parser no longer
offers takes the nearest choice that keeps the feature on."""

from __future__ import annotations

import json

import pytest

from autofix.catalog import load_catalog
from autofix.model import Candidate
from autofix.renames import rename_move
from autofix.repair import apply

from .proposing import proposed


def first_child(args: dict[str, object], exception: str, message: str) -> Candidate:
    candidate, found = proposed(args, exception, message)
    assert found, "no move at all"
    return apply(candidate, found[0].move)


# --- sizes with units ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flag", "given", "message", "meant"),
    [
        (
            "max-prefill-tokens",
            "16K",
            "argument --max-prefill-tokens: Invalid integer value: '16K'. Use a plain integer, SI suffixes "
            "(1k, 1M), or IEC suffixes (1Ki, 1Mi). Suffixes are case-sensitive.",
            "16384",
        ),
        (
            "context-length",
            "0.5Mi",
            "Decimals are not allowed with IEC suffixes like 'Mi'. Use an integer IEC value such as '1Mi', or "
            "an SI value such as '1.5M'.",
            "524288",
        ),
        (
            "max-total-tokens",
            "2Gi",
            "argument --max-total-tokens: invalid int value: '2Gi'",
            "2147483648",
        ),
    ],
)
def test_a_size_with_a_unit_is_the_plain_integer_it_means(flag: str, given: str, message: str, meant: str) -> None:
    child = first_child({flag: given, "tp-size": 2}, "argparse.ArgumentTypeError", message)
    assert child.arg(flag) == meant
    assert child.arg("tp-size") == "2"


# --- lists with a member the check refuses -------------------------------------------------


def test_a_negative_member_of_a_list_is_taken_out() -> None:
    child = first_child(
        {"return-aux-hidden-state-layer-ids": ["3", "20", "-2"]},
        "ValueError",
        "--return-aux-hidden-state-layer-ids must be non-negative, got [3, 20, -2].",
    )
    assert child.arg("return-aux-hidden-state-layer-ids") == ("3", "20")


def test_a_duplicate_member_of_a_list_is_taken_out() -> None:
    child = first_child(
        {"generation-tokens-buckets": ["custom", "64", "256", "256", "2048"]},
        "AssertionError",
        "--generation-tokens-buckets custom rule bucket values should not contain duplicates",
    )
    assert child.arg("generation-tokens-buckets") == ("custom", "64", "256", "2048")


# --- JSON values whose keys are not the ones named ----------------------------------------


def test_json_members_get_the_keys_the_check_names() -> None:
    given = ['{"adapter_name": "fin", "adapter_path": "/lora/fin"}', '{"adapter_name": "law", "adapter_path": "/x"}']
    child = first_child(
        {"lora-paths": given, "enable-lora": True},
        "AssertionError",
        f"'{given[0]}' looks like a JSON str, but it does not contain 'lora_name' and 'lora_path' keys.",
    )
    value = child.arg("lora-paths")
    assert isinstance(value, tuple)
    assert [json.loads(v) for v in value] == [
        {"lora_name": "fin", "lora_path": "/lora/fin"},
        {"lora_name": "law", "lora_path": "/x"},
    ]


# --- a refused pipeline-parallel size ------------------------------------------------------


def test_refused_pipeline_parallelism_folds_into_tensor_parallelism() -> None:
    child = first_child(
        {
            "tp-size": 4,
            "pp-size": 2,
            "speculative-algorithm": "EAGLE3",
            "speculative-draft-model-path": "/d",
        },
        "AssertionError",
        "Pipeline parallelism does not yet support multi-layer MTP speculative decoding",
    )
    assert child.arg("speculative-algorithm") == "EAGLE3"
    assert child.arg("speculative-draft-model-path") == "/d"
    assert not child.has("pp-size")
    assert child.arg("tp-size") == "8"


# --- a replacement whose value the host no longer offers ----------------------------------


def test_a_replacement_value_the_host_does_not_offer_takes_a_choice_that_keeps_it_on() -> None:
    """History: --enforce-piecewise-cuda-graph became --cuda-graph-backend-prefill tc_piecewise;
    0.5.23's parser offers full, breakable, disabled: 'enforce' keeps a prefill graph on."""
    catalog = load_catalog()
    move = rename_move(Candidate.build({"model-path": "/m", "enforce-piecewise-cuda-graph": True}), catalog)
    assert move is not None
    child = apply(Candidate.build({"model-path": "/m", "enforce-piecewise-cuda-graph": True}), move)
    assert child.arg("cuda-graph-backend-prefill") in ("full", "breakable")


def test_a_list_the_message_spells_out_is_set() -> None:
    """Issue 14 round 9: "should only have one parameter: ['tse']" gives the list to set."""
    child = first_child(
        {"generation-tokens-buckets": ["tse", "2", "8", "4"]},
        "AssertionError",
        "--generation-tokens-buckets tse rule should only have one parameter: ['tse'], got 4",
    )
    assert child.arg("generation-tokens-buckets") in ("tse", ("tse",))
