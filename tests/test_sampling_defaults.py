"""Issue 14 round 27k, written before the change (crossover sets 4-6, in sample, carry these):
another engine's server-wide sampling defaults given one flag each (llama.cpp's ``--temp
--top-k --top-p --min-p --repeat-penalty``, KTransformers' ``--temperature --top_p
--max_new_tokens``) are keys of SGLang's ``--preferred-sampling-params`` JSON object: since
0.4 the tokenizer manager lays it under every request's own sampling parameters, which is
what those flags do in their engines. The table says which key each flag fills
(strategies/sglang.equivalents.json ``key``); the user's value is carried, as a number."""

from __future__ import annotations

import json

from autofix.catalog import load_catalog
from autofix.renames import meaning

from .proposing import renamed

CATALOG = load_catalog()


def test_llama_cpp_sampling_flags_become_preferred_sampling_params() -> None:
    child = renamed({"temp": "0.6", "top-k": "20", "top-p": "0.95", "min-p": "0", "repeat-penalty": "1.1"})
    assert json.loads(str(child.arg("preferred-sampling-params"))) == {
        "temperature": 0.6,
        "top_k": 20,
        "top_p": 0.95,
        "min_p": 0,
        "repetition_penalty": 1.1,
    }
    assert [name for name, _ in child.args] == ["model-path", "preferred-sampling-params"]


def test_ktransformers_underscore_spellings_and_the_output_length() -> None:
    child = renamed({"temperature": "0.3", "top_p": "0.9", "max_new_tokens": "1024", "cache_lens": "32768"})
    assert json.loads(str(child.arg("preferred-sampling-params"))) == {
        "temperature": 0.3,
        "top_p": 0.9,
        "max_new_tokens": 1024,
    }
    assert child.arg("max-total-tokens") == "32768"


def test_keys_join_what_the_user_already_gave_sglang() -> None:
    child = renamed({"preferred-sampling-params": '{"top_k": 20}', "temp": "0.7"})
    assert json.loads(str(child.arg("preferred-sampling-params"))) == {"top_k": 20, "temperature": 0.7}


def test_the_reading_says_which_key() -> None:
    found = meaning("repeat-penalty", CATALOG, "1.1")
    assert found is not None and "preferred-sampling-params" in found.words()
    assert "repetition_penalty" in found.words()
