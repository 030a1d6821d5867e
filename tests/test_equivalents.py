"""Issue 14 round 25d, written before the change: another engine's flag pasted onto an
SGLang command is read as the SGLang flag that does the same job, from a table of facts
(strategies/sglang.equivalents.json: each engine's documented meaning beside SGLang's),
after SGLang's own flag history and before any guess from spelling alone."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from autofix.catalog import Equivalent, load_catalog, parse_equivalents
from autofix.errors import CatalogError
from autofix.model import Candidate
from autofix.renames import meaning, rename_move
from autofix.repair import apply

CATALOG = load_catalog()


def test_a_foreign_flag_is_the_sglang_flag_that_does_its_job_with_the_value_carried() -> None:
    base = Candidate.build({"model-path": "/m", "max-model-len": "32768", "max-num-seqs": "64"})
    move = rename_move(base, CATALOG, {})
    assert move is not None
    child = apply(base, move)
    assert child.arg("context-length") == "32768" and child.arg("max-running-requests") == "64"
    assert not child.has("max-model-len") and not child.has("max-num-seqs")


def test_the_table_beats_a_guess_from_spelling() -> None:
    """--tokenizer: every SGLang release read it as several flags, and a suffix guess made it
    --enable-dynamic-batch-tokenizer; vLLM's table says it is the tokenizer's path."""
    found = meaning("tokenizer", CATALOG)
    assert found is not None and found.flags == (("tokenizer-path", None),), found


def test_a_flag_sglang_does_by_default_is_left_out_with_the_reason() -> None:
    found = meaning("enable-prefix-caching", CATALOG)
    assert found is not None and found.dropped and "radix cache" in found.why


def test_a_target_the_host_lacks_is_read_through_sglang_history() -> None:
    found = meaning("max-cudagraph-capture-size", CATALOG)
    assert found is not None and found.flags and CATALOG.knows(found.flags[0][0]), found


def test_sglang_history_comes_before_another_engines_table() -> None:
    table = {"disable-flashinfer": Equivalent(("other",), "page-size", None, "made up")}
    found = meaning("disable-flashinfer", replace(CATALOG, equivalents=table))
    assert found is not None and found.flags == (("attention-backend", "triton"),), found


def test_engines_that_disagree_give_no_reading_and_agreeing_ones_one() -> None:
    text = json.dumps(
        {
            "engines": {
                "a": {"flags": {"max_batch_size": {"flag": "max-running-requests", "why": "x"}, "-c": {"none": "y"}}},
                "b": {"flags": {"max-batch-size": {"flag": "max-running-requests", "why": "x"}, "c": {"flag": "port"}}},
            }
        }
    )
    table = parse_equivalents("t.json", text)
    assert table["max-batch-size"].flag == "max-running-requests" and table["max-batch-size"].engines == ("a", "b")
    assert "c" not in table


def test_a_malformed_table_is_one_error_naming_the_key() -> None:
    text = json.dumps({"engines": {"a": {"flags": {"x": {"flag": "Not A Flag"}}}}})
    with pytest.raises(CatalogError, match=r"t\.json: engines\.a\.flags\.x"):
        parse_equivalents("t.json", text)


@pytest.mark.parametrize("flag", sorted({e.flag for e in CATALOG.equivalents.values() if e.flag}))
def test_every_target_is_a_flag_sglang_has_or_had(flag: str) -> None:
    assert CATALOG.knows(flag) or flag in CATALOG.history.seen, flag


# Round 26g, written before the change: a prefix reading must take the value the user gave.
# argparse expands a bare --quantize to --quantize-and-serve, a switch; "--quantize
# bitsandbytes" gives it a word no switch takes, so the user meant another flag: TGI's, read
# from the table (SGLang's --quantization, the value carried).


def test_a_prefix_that_names_a_switch_gives_way_when_the_user_gave_it_a_word() -> None:
    base = Candidate.build({"model-path": "/m", "quantize": "bitsandbytes"})
    move = rename_move(base, CATALOG, {})
    assert move is not None
    child = apply(base, move)
    assert child.arg("quantization") == "bitsandbytes", move.label()
    assert not child.has("quantize-and-serve")


def test_a_bare_prefix_still_names_the_switch() -> None:
    found = meaning("quantize", CATALOG)
    assert found is not None and found.flags == (("quantize-and-serve", None),), found


def test_a_switch_prefix_keeps_a_true_value() -> None:
    found = meaning("quantize", CATALOG, "true")
    assert found is not None and found.flags == (("quantize-and-serve", None),), found


# Round 26h, written before the table grew: vLLM's negated switches (0.33's --disable-X and
# older releases' --no-X) turn off what SGLang does by default, so they are SGLang's off
# switches; vLLM's prompt-token details are SGLang's cache report (facts of both parsers' help).


@pytest.mark.parametrize(
    ("spelling", "flags"),
    [
        ("no-enable-prefix-caching", (("disable-radix-cache", None),)),
        ("disable-prefix-caching", (("disable-radix-cache", None),)),
        ("no-enable-chunked-prefill", (("chunked-prefill-size", "-1"),)),
        ("disable-chunked-prefill", (("chunked-prefill-size", "-1"),)),
        ("no-async-scheduling", (("disable-overlap-schedule", None),)),
        ("enable-prompt-tokens-details", (("enable-cache-report", None),)),
    ],
)
def test_vllms_negated_switches_are_sglangs_off_switches(spelling: str, flags: tuple[object, ...]) -> None:
    found = meaning(spelling, CATALOG)
    assert found is not None and found.flags == flags, found


def test_vllms_async_scheduling_is_sglangs_default() -> None:
    found = meaning("async-scheduling", CATALOG)
    assert found is not None and found.dropped, found


def test_engines_that_give_the_same_value_in_other_json_types_agree() -> None:
    text = json.dumps(
        {
            "engines": {
                "a": {"flags": {"off_switch": {"flag": "chunked-prefill-size", "value": -1, "why": "x"}}},
                "b": {"flags": {"off-switch": {"flag": "chunked-prefill-size", "value": "-1", "why": "y"}}},
            }
        }
    )
    found = parse_equivalents("t.json", text)
    assert found["off-switch"].flag == "chunked-prefill-size" and found["off-switch"].engines == ("a", "b")


# Round 26j, written before the change: another engine's value that SGLang's flag does not
# take (a quantization scheme SGLang has no name for) cannot be carried over; the flag is left
# out with the reason, in the same move (not renamed, refused, then dropped).


def test_a_foreign_value_the_sglang_flag_does_not_take_is_left_out() -> None:
    found = meaning("quantize", CATALOG, "eetq")
    assert found is not None and found.dropped and "eetq" in found.why, found


def test_a_foreign_value_the_sglang_flag_takes_is_carried() -> None:
    found = meaning("quantize", CATALOG, "awq")
    assert found is not None and found.flags == (("quantization", None),), found


# Round 44k, written before the table grew: vLLM's --override-generation-config (a JSON
# object of default sampling parameters, merged under each request's own) is SGLang's
# --preferred-sampling-params (the same JSON, merged the same way: tokenizer_manager's
# {**preferred, **request}); vLLM's --generation-config picks where the defaults come from:
# "vllm" (the engine's own) is SGLang's --sampling-defaults openai, "auto" (the model's
# generation_config.json) its --sampling-defaults model. Facts of both parsers' help.


def test_vllms_generation_config_override_is_sglangs_preferred_sampling_params() -> None:
    found = meaning("override-generation-config", CATALOG, '{"temperature": 0.6}')
    assert found is not None and found.flags == (("preferred-sampling-params", None),), found


@pytest.mark.parametrize(("value", "defaults"), [("vllm", "openai"), ("auto", "model")])
def test_vllms_generation_config_source_is_sglangs_sampling_defaults(value: str, defaults: str) -> None:
    found = meaning("generation-config", CATALOG, value)
    assert found is not None and found.flags == (("sampling-defaults", defaults),), found


def test_a_switch_given_under_a_number_flags_prefix_is_the_switch_of_that_name() -> None:
    """Round 44m, written before the change: --torch-compile with no value is, to argparse,
    a prefix of --torch-compile-max-bs (a number: "expected one argument"); given as a
    switch it means --enable-torch-compile. With a number it stays the prefix's flag."""
    found = meaning("torch-compile", CATALOG, True)
    assert found is not None and found.flags == (("enable-torch-compile", None),), found
    numbered = meaning("torch-compile", CATALOG, "32")
    assert numbered is not None and numbered.flags == (("torch-compile-max-bs", None),), numbered
