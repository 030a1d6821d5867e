"""Issue 14 round 26k, written before the change: commands pasted from another engine carry
what SGLang's parser has no place for, and the base must take them so the repair can fix
them (the issue: "the base accepts any flag spelling the user's command had").

* A positional word of the other CLI (``openllm start ... --port 3000 llama``) lands after a
  flag's value: the base takes it, the server's port is the first value, and the repair
  keeps the first value, even of a pinned flag (the pin is that value).
* A foreign switch that SGLang's parser reads as the prefix of a number flag (llama.cpp's
  ``--swa-full``, SGLang's ``--swa-full-tokens-ratio``) is the search's to read, not bad
  input at load; so is a number flag spelled in full with no value (round 47g).
* Another engine's flag whose SGLang flag the user already set (``--model-id`` beside the
  pinned ``--model-path``) goes: the user's own SGLang value stands.
These tests use their own commands."""

from __future__ import annotations

import pytest

from autofix.classify import Diagnosis, Subject
from autofix.config import parse_base
from autofix.errors import ConfigError
from autofix.model import Candidate, Failure, Gate
from autofix.renames import rename_move
from autofix.repair import apply, propose

from .proposing import FULL


def test_a_word_after_the_port_is_taken_and_the_port_is_its_first_value() -> None:
    cfg = parse_base("launch:\n  args:\n    model-path: /m\n    port: ['3000', llama]\n", source="b.yaml")
    assert cfg.base.arg("port") == ("3000", "llama")


def test_a_port_that_is_no_port_is_still_bad_input() -> None:
    with pytest.raises(ConfigError, match="port"):
        parse_base("launch:\n  args:\n    model-path: /m\n    port: [llama, '3000']\n", source="b.yaml")


def test_the_first_value_of_a_pinned_flag_is_kept_when_the_parser_leaves_a_word_over() -> None:
    candidate = Candidate.build({"model-path": ("/m", "v2"), "port": "3000"})
    message = "sglang serve: error: unrecognized arguments: v2"
    failure = Failure(gate=Gate.PREFLIGHT, class_id=None, fingerprint="f", exception="argparse_error", message=message)
    diagnosis = Diagnosis(failure, Subject("argparse_error", message, None))
    moves = propose(candidate, diagnosis, FULL, pinned=("model-path",))
    assert moves and moves[0].child.arg("model-path") == "/m", [p.move.label() for p in moves]


def test_a_foreign_switch_read_as_a_prefix_of_a_number_flag_is_taken_at_load() -> None:
    cfg = parse_base("launch:\n  args:\n    model-path: /m\n    swa-full: true\n", source="b.yaml")
    assert cfg.base.has("swa-full")


def test_a_number_flag_in_full_given_a_switch_is_the_searchs() -> None:
    """Round 47g, written before the change: a number flag given no value (an unset
    variable's place, an old switch's spelling) is the search's too: argparse's "expected
    one argument" is read there. A word that is no number stays bad input."""
    cfg = parse_base("launch:\n  args:\n    model-path: /m\n    swa-full-tokens-ratio: true\n", source="b.yaml")
    assert cfg.base.arg("swa-full-tokens-ratio") is True
    with pytest.raises(ConfigError, match="swa-full-tokens-ratio"):
        parse_base("launch:\n  args:\n    model-path: /m\n    swa-full-tokens-ratio: lots\n", source="b.yaml")


def test_a_foreign_flag_whose_sglang_flag_the_user_set_goes() -> None:
    base = Candidate.build({"model-path": "/m", "model-id": "org/other-model", "max-num-seqs": "8"})
    move = rename_move(base, FULL, {})
    assert move is not None
    child = apply(base, move)
    assert child.arg("model-path") == "/m" and not child.has("model-id"), move.label()
    assert child.arg("max-running-requests") == "8"


def test_sglangs_own_abbreviation_given_a_switch_is_still_bad_input() -> None:
    # --tp is SGLang's abbreviation of --tp-size (and other engines' --tp takes a number too):
    # a switch there is no foreign flag, it is a missing number.
    with pytest.raises(ConfigError, match="tp"):
        parse_base("launch:\n  args:\n    model-path: /m\n    tp: true\n", source="b.yaml")
