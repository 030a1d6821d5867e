"""Flags the parser does not know, mapped to what the user meant (autofix/renames.py).

Data-driven from facts: the flag table of SGLang 0.5.23's parser (strategies/sglang.flags.json)
and the flag history of past releases' parsers (strategies/sglang.flag-history.json), with
spellings real users typed (bench/fresh/users.jsonl, spellings.jsonl)."""

from __future__ import annotations

import pytest

from autofix.catalog import Catalog, FlagHistory, Replacement, load_catalog
from autofix.model import Candidate, EditOp
from autofix.renames import base_warnings, meaning, normal_form, refused_flags, rename_move, reported, unknown_flags
from autofix.repair import apply

CATALOG = load_catalog()


@pytest.mark.parametrize(
    ("typed", "normal"),
    [
        ("reasoning_parser", "reasoning-parser"),
        ("-page-size", "page-size"),  # ---page-size, as argparse shows it
        ("- -trust-remote-code", "trust-remote-code"),
        ("Trust-Remote-Code", "trust-remote-code"),
        ("trust-remote-code--enable-metrics", "trust-remote-code--enable-metrics"),
    ],
)
def test_normal_form(typed: str, normal: str) -> None:
    """Underscores, case, extra and split dashes are spelling; a glued ``--`` is kept."""
    assert normal_form(typed) == normal


@pytest.mark.parametrize(
    ("typed", "flags"),
    [
        ("reasoning_parser", [("reasoning-parser", None)]),
        ("- -trust-remote-code", [("trust-remote-code", None)]),
        ("speculative-eagle-top-k", [("speculative-eagle-topk", None)]),  # the nearest name
        ("trust-remote-code--enable-metrics", [("trust-remote-code", None), ("enable-metrics", None)]),
        ("enable-deepep-moe", [("moe-a2a-backend", "deepep")]),  # a release's deprecation names it
        ("cuda-graph-max-bs", [("cuda-graph-max-bs-decode", None)]),  # renamed in 0.5.14
        ("speculative-algo", [("speculative-algorithm", None)]),  # a prefix unique once
    ],
)
def test_meaning_of_a_spelling(typed: str, flags: list[tuple[str, object]]) -> None:
    """Each unknown spelling maps to the flag(s) the user meant, with the value the history
    gives (None: the user's own)."""
    found = meaning(typed, CATALOG)
    assert found is not None and list(found.flags) == flags


def test_a_flag_every_later_release_removed_is_dropped_with_why() -> None:
    """A flag past releases had and no later parser keeps, with no replacement: dropped."""
    history = CATALOG.history
    gone = next(
        f
        for f, (_, last) in history.seen.items()
        if last != history.releases[-1] and f not in history.replacements and not CATALOG.knows(f)
    )
    found = meaning(gone, CATALOG)
    assert found is not None and found.dropped and "removed" in found.why


def test_all_unknown_flags_are_renamed_in_one_move_carrying_values() -> None:
    """A real user's command (bench/fresh/users.jsonl: eagle-torch-compile-cuda-graph-max-bs)
    with four old spellings: one move renames them all and keeps each value."""
    candidate = Candidate.build(
        {
            "model": "/m",
            "speculative-algo": "EAGLE",
            "speculative-draft": "/d",
            "mem-fraction": "0.7",
            "cuda-graph-max-bs": "2",
        }
    )
    move = rename_move(candidate, CATALOG)
    assert move is not None and all(e.op is EditOp.RENAME for e in move.edits)
    child = apply(candidate, move)
    assert child.arg("speculative-algorithm") == "EAGLE"
    assert child.arg("speculative-draft-model-path") == "/d"
    assert child.arg("mem-fraction-static") == "0.7"
    assert child.arg("cuda-graph-max-bs-decode") == "2"
    assert unknown_flags(child, CATALOG) == []
    assert "--cuda-graph-max-bs written as --cuda-graph-max-bs-decode" in reported([move])


def test_a_removed_flag_with_a_replacement_value_gets_it() -> None:
    """--enable-deepep-moe (bare) becomes --moe-a2a-backend deepep."""
    candidate = Candidate.build({"model-path": "/m", "enable-deepep-moe": True})
    child = apply(candidate, rename_move(candidate, CATALOG))  # type: ignore[arg-type]
    assert child.arg("moe-a2a-backend") == "deepep" and not child.has("enable-deepep-moe")


def test_a_replacement_may_take_another_flags_value() -> None:
    """A history entry whose replacement takes another flag's value (value_from)."""
    history = FlagHistory(
        seen={"enable-ep-moe": ("0.4.0", "0.4.10")},
        replacements={"enable-ep-moe": Replacement("ep-size", value_from="tp-size", release="0.5.0")},
        releases=("0.4.0", "0.4.10", "0.5.0"),
    )
    catalog = Catalog(CATALOG.classes, CATALOG.aliases, CATALOG.domains, CATALOG.flags, history=history)
    candidate = Candidate.build({"model-path": "/m", "tp-size": 8, "enable-ep-moe": True})
    child = apply(candidate, rename_move(candidate, catalog))  # type: ignore[arg-type]
    assert child.arg("ep-size") == "8"


def test_base_warnings_say_what_each_unknown_flag_means() -> None:
    """Said at load, before anything runs."""
    candidate = Candidate.build({"model-path": "/m", "reasoning_parser": "kimi_k2", "zzz-not-a-flag": True})
    lines = base_warnings(candidate, CATALOG, "0.5.23")
    assert any(
        "--reasoning_parser is not a flag of SGLang 0.5.23: did you mean --reasoning-parser" in ln for ln in lines
    )
    assert any("--zzz-not-a-flag is not a flag of SGLang 0.5.23, and no flag of it is near" in ln for ln in lines)


def test_refused_flags_read_from_argparse_lines() -> None:
    """argparse's own words (real 0.5.23 lines) -> the flags as typed, with their values."""
    typed = refused_flags(
        "sglang serve: error: unrecognized arguments: - -trust-remote-code -page-size 16 --Trust-Remote-Code"
    )
    assert typed == {"- -trust-remote-code": True, "-page-size": "16", "Trust-Remote-Code": True}
    assert refused_flags("error: ambiguous option: --cuda-graph-bs could match --cuda-graph-bs-decode") == {
        "cuda-graph-bs": True
    }


def test_a_bare_flag_renamed_to_one_without_default_is_not_dropped_again() -> None:
    """--cuda-graph-bs with no value (offline, value unknown): renamed, never renamed-then-dropped."""
    move = rename_move(Candidate.build({"cuda-graph-bs": True}), CATALOG)
    assert move is not None and [e.op for e in move.edits] == [EditOp.RENAME]


def test_a_flag_newer_than_the_hosts_release_is_dropped_not_read_as_a_near_name() -> None:
    """On an older host (its parser lacks attn-dp-size, 0.5.23's), the flag is not taken
    for its nearest name (attn-cp-size: another meaning); it is dropped, saying why."""
    facts = {"flags": {k: {"kind": v.kind} for k, v in CATALOG.flags.items() if k != "attn-dp-size"}, "aliases": {}}
    host = CATALOG.with_parser(facts, "0.5.11")
    found = meaning("attn-dp-size", host)
    assert found is not None and found.dropped and "newer than the host's release" in found.why
    assert meaning("attn-dp-size", CATALOG) is not None and not meaning("attn-dp-size", CATALOG).dropped  # type: ignore[union-attr]


def test_offline_a_value_taken_from_another_flag_is_not_guessed() -> None:
    """From an error line alone (no --tp-size known), --enable-ep-moe is renamed to --ep-size
    but not given a size; with the command at hand it takes tp's value."""
    history = FlagHistory(
        seen={"enable-ep-moe": ("0.4.0", "0.4.10")},
        replacements={"enable-ep-moe": Replacement("ep-size", value_from="tp-size", release="0.5.0")},
        releases=("0.4.0", "0.4.10", "0.5.0"),
    )
    catalog = Catalog(CATALOG.classes, CATALOG.aliases, CATALOG.domains, CATALOG.flags, history=history)
    offline = rename_move(Candidate.build({"enable-ep-moe": True}), catalog, offline=True)
    assert offline is not None and offline.label() == "rename enable-ep-moe to ep-size"


@pytest.mark.parametrize("typed", ["-c", "-np", "-ngl", "-m", "-fa", "-b", "-ub"])
def test_a_short_option_of_another_tool_is_no_prefix_of_a_long_flag(typed: str) -> None:
    """Issue 14 round 25c, written before the change: argparse expands a prefix of a long
    flag only when written with two dashes; ``-c`` (llama.cpp's context size) was never
    ``--chat-template`` on any release, so no prefix reading names it. Round 25f: nor is a
    short option the host's parser happens to begin only one flag with (``-fa`` is not
    ``--fastapi-root-path``, ``-b`` not ``--base-gpu-id``)."""
    found = meaning(typed, CATALOG)
    assert found is None or found.dropped or "prefix" not in found.why, found


@pytest.mark.parametrize(
    ("typed", "flag"),
    [
        ("mem-frac", "mem-fraction-static"),
        ("speculative-draft", "speculative-draft-model-path"),
        ("mode", "model-path"),
    ],
)
def test_a_prefix_one_release_took_for_one_flag_keeps_that_reading(typed: str, flag: str) -> None:
    found = meaning(typed, CATALOG)
    assert found is not None and found.flags == ((flag, None),), found


def test_a_prefix_no_release_took_is_not_guessed() -> None:
    """``--tokenizer`` named tokenizer-path and tokenizer-mode alike on every release: no
    fact says which, so no prefix reading (the first-seen tie picked tokenizer-mode)."""
    found = meaning("tokenizer", CATALOG)
    assert found is None or all(f != "tokenizer-mode" for f, _ in found.flags), found


def test_a_prefix_of_nested_names_is_the_base_flag() -> None:
    """Round 25g: --disable-cuda begins --disable-cuda-graph and --disable-cuda-graph-padding
    on every release, but the second is a variant of the first (its name extends it): the
    prefix stands for the base flag (users3 lost it to the history-grounded prefix rule)."""
    found = meaning("disable-cuda", CATALOG)
    assert found is not None and found.flags == (("disable-cuda-graph", None),), found


# Round 44p, written before the change: a release that renamed a flag without a deprecation
# message, one word replaced (--schedule-heuristic -> --schedule-policy in 0.2.9, read from
# the parsers of 0.1.x-0.2.x now in the history) or a plural (--max-prefill-num-token ->
# --max-prefill-tokens): the one new flag of the next release whose other words are the
# same, when those include a word that says what the flag is about (not only "enable").


def _with_history(history: FlagHistory) -> Catalog:
    """The 0.5.23 catalogue with ``history`` for its flag history."""
    return Catalog(CATALOG.classes, CATALOG.aliases, CATALOG.domains, CATALOG.flags, history=history)


def _history_of(old: str, new: str) -> Catalog:
    return _with_history(
        FlagHistory(
            seen={old: ("0.1.0", "0.1.5"), new: ("0.2.0", "0.5.23")},
            releases=("0.1.0", "0.1.5", "0.2.0", "0.5.23"),
        )
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [("schedule-heuristic", "schedule-policy"), ("max-prefill-num-token", "max-prefill-tokens")],
)
def test_a_silent_rename_that_replaces_one_word_is_followed(old: str, new: str) -> None:
    found = meaning(old, _history_of(old, new), "lpm")
    assert found is not None and found.flags == ((new, None),), found


def test_a_replaced_word_beside_a_verb_alone_is_no_rename() -> None:
    """--enable-zqmla removed and --enable-metrics new in the next release: "enable" says
    nothing about what either does."""
    found = meaning("enable-zqmla", _history_of("enable-zqmla", "enable-metrics"), True)
    assert found is None or found.flags != (("enable-metrics", None),), found


def test_the_opposite_switch_is_no_rename() -> None:
    """--enable-zq-autotune removed and --disable-zq-autotune new: the opposite switch."""
    found = meaning("enable-zq-autotune", _history_of("enable-zq-autotune", "disable-zq-autotune"), True)
    assert found is None or found.flags != (("disable-zq-autotune", None),), found


# Round 44r, written before the change (users31's PR test plan and Kubernetes entrypoint, in
# toy names): a silent rename whose new name a later release renamed again is followed to the
# host's name (--zq-prefill, 0.5.3, -> --zq-prefill-backend, 0.5.4, -> --yq-prefill-backend,
# 0.5.13 by its deprecation); and a prefix the host's parser has no flag for that one past
# release's parser read as one flag (--enable-zqep for --enable-zqep-moe, argparse's
# abbreviation there) is that flag, read on to the host's release.


def test_a_silent_rename_is_followed_through_a_later_rename() -> None:
    history = FlagHistory(
        seen={"zq-prefill": ("0.5.3", "0.5.3"), "zq-prefill-backend": ("0.5.4", "0.5.12")},
        replacements={"zq-prefill-backend": Replacement("dsa-prefill-backend", release="0.5.13")},
        releases=("0.5.3", "0.5.4", "0.5.12", "0.5.13"),
    )
    catalog = _with_history(history)
    found = meaning("zq-prefill", catalog, "flashmla_kv")
    assert found is not None and found.flags == (("dsa-prefill-backend", None),), found


def test_a_prefix_a_past_release_read_as_one_flag_is_that_flag() -> None:
    history = FlagHistory(
        seen={"enable-zqep-moe": ("0.4.0", "0.4.8")},
        replacements={"enable-zqep-moe": Replacement("moe-a2a-backend", value="deepep", release="0.4.10")},
        releases=("0.4.0", "0.4.8", "0.4.10"),
    )
    catalog = _with_history(history)
    found = meaning("enable-zqep", catalog, True)
    assert found is not None and found.flags == (("moe-a2a-backend", "deepep"),), found


def test_a_renamed_flag_whose_value_the_new_flag_does_not_take_is_left_out_in_one_move() -> None:
    """Round 44r: a flag renamed across releases carries the user's value; where the new
    flag's choices do not hold it and none is meant by it (the kernel names were renamed
    too), the flag is left out in the same move, not renamed, refused, then dropped."""
    history = FlagHistory(
        seen={"zq-prefill": ("0.5.3", "0.5.3")},
        replacements={"zq-prefill": Replacement("dsa-prefill-backend", release="0.5.4")},
        releases=("0.5.3", "0.5.4"),
    )
    catalog = _with_history(history)
    candidate = Candidate.build({"model-path": "/m", "zq-prefill": "qqzz_prefill_kernel"})
    move = rename_move(candidate, catalog)
    assert move is not None
    child = apply(candidate, move)
    assert not child.has("zq-prefill") and not child.has("dsa-prefill-backend"), move.label()
