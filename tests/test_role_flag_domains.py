"""Issue 14 round 29d, written before the change.

A flag for one role of a setting (the draft model's KV cache dtype, the decode phase's
attention backend) takes the values its general flag's facts give (``domains``), among
those its own parser accepts: ``--speculative-draft-kv-cache-dtype fp8`` means the FP8 KV
dtype every Hopper/Ada GPU has, as ``--kv-cache-dtype fp8`` does.

These tests use their own values where they can."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed

CATALOG = load_catalog()


def test_a_role_flag_takes_its_general_flags_facts() -> None:
    assert CATALOG.domain("speculative-draft-kv-cache-dtype") == CATALOG.domain("kv-cache-dtype")
    assert CATALOG.domain("decode-attention-backend") == CATALOG.domain("attention-backend")


def test_only_the_values_the_role_flag_accepts() -> None:
    accepted = set(CATALOG.flag("mm-attention-backend").choices)  # type: ignore[union-attr]
    assert set(CATALOG.domain("mm-attention-backend")) <= accepted


def test_a_flag_with_no_facts_has_none() -> None:
    assert CATALOG.domain("speculative-draft-model-path") == ()


def test_an_fp8_draft_kv_dtype_is_the_common_fp8() -> None:
    message = (
        "argument --speculative-draft-kv-cache-dtype: invalid choice: 'fp8' "
        "(choose from 'auto', 'fp8_e5m2', 'fp8_e4m3', 'bf16', 'bfloat16')"
    )
    _, moves = proposed({"speculative-draft-kv-cache-dtype": "fp8"}, "argparse.ArgumentError", message)
    assert moves[0].move.label() == "set speculative-draft-kv-cache-dtype=fp8_e4m3"
