"""Issue 14 round 43, written before the change (sglang-0.4.10.post2-eighth's
readme-one-liner-escaped-spaces, scored blind at 30c84cd: failed with no move).

A multi-line README command pasted onto one line with its backslashes kept ('... \\ --tp-size
2 \\ --kv-cache-dtype ...') reaches the server with every flag after the first as ' --tp-size':
an escaped space before it, so argparse reads it as a word and refuses them all ("unrecognized
arguments:  --tp-size 2  --kv-cache-dtype fp8_e4m3"). The words are flags and their values:
the flag before keeps its first value and they are set as the flags they name. Words that name
no flag of the parser are left to the other moves. The argparse wording is SGLang's; the
values are ours."""

from __future__ import annotations

from autofix.repair import apply

from .proposing import proposed

EXTRA = ("/models/qwen3-8b-fp8", " --tp-size", "2", " --kv-cache-dtype", "fp8_e4m3", " --enable-metrics")


def test_words_that_are_flags_after_a_space_are_set_as_those_flags() -> None:
    candidate, found = proposed(
        {"model-path": EXTRA[0], "served-model-name": EXTRA},
        "argparse_error",
        "launch_server.py: error: unrecognized arguments:  --tp-size 2  --kv-cache-dtype fp8_e4m3  --enable-metrics",
    )
    fixed = apply(candidate, found[0].move)
    assert fixed.arg("served-model-name") == EXTRA[0]
    assert fixed.arg("tp-size") == "2"
    assert fixed.arg("kv-cache-dtype") == "fp8_e4m3"
    assert fixed.arg("enable-metrics") is True


def test_words_that_name_no_flag_are_no_flags() -> None:
    words = ("/models/a", " --no-such-toy-flag", "2")
    candidate, found = proposed(
        {"model-path": "/m", "served-model-name": words},
        "argparse_error",
        "launch_server.py: error: unrecognized arguments:  --no-such-toy-flag 2",
    )
    assert not any(apply(candidate, p.move).has("no-such-toy-flag") for p in found)
