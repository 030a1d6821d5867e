"""Issue 14 round 31, written before the change.

A check that refuses a choice by naming the value, not the flag ("extra_buffer requires
platform support for Mamba cache state snapshots."), refuses it whether SGLang resolved it
for an unset flag (round 26's rule) or the user set it. Set explicitly, dropping the flag
may resolve the same value again (an automatic strategy picks it), so the flag's other
distinctive choices (not auto, not a variant of the refused one) are tried too, before a
guess from the message's words. The message is SGLang 0.5.23's; the choice list is the
0.5.23 parser's. (A last resort, as the words are: a message that offers its own fix, "Try to set
disable_overlap_schedule=True", is read first, and the search tries what it offers first.)"""

from __future__ import annotations

from .proposing import FULL, proposed, proposed_labels

MESSAGE = "extra_buffer requires platform support for Mamba cache state snapshots."


def _labels(args: dict[str, object], message: str = MESSAGE) -> list[str]:
    return proposed_labels(args, "AssertionError", message, catalog=FULL)


def test_a_choice_the_user_set_and_the_check_names_gets_the_other_implementation() -> None:
    labels = _labels({"mamba-radix-cache-strategy": "extra_buffer", "tp-size": "4", "kv-cache-dtype": "fp8_e4m3"})
    assert labels[0] == "set mamba-radix-cache-strategy=no_buffer"
    assert "drop kv-cache-dtype" not in labels[:1]


def test_the_resolved_value_still_gets_it_when_the_flag_is_unset() -> None:
    _, proposals = proposed(
        {"tp-size": "4"},
        "AssertionError",
        MESSAGE,
        catalog=FULL,
        resolved={"mamba_radix_cache_strategy": "extra_buffer"},
    )
    assert proposals[0].move.label() == "set mamba-radix-cache-strategy=no_buffer"


def test_a_message_that_names_the_flag_is_left_to_the_flag_rules() -> None:
    labels = _labels(
        {"mamba-radix-cache-strategy": "extra_buffer"},
        "--mamba-radix-cache-strategy extra_buffer requires --page-size 1.",
    )
    assert "set mamba-radix-cache-strategy=no_buffer" not in labels[:1]


def test_a_variant_of_the_named_choice_is_refused_with_it() -> None:
    """Round 44b, written before the change (users30's DGX Spark script): the user set
    extra_buffer_lazy, a variant of the extra_buffer the check names; the refusal covers
    it, so the other implementation goes first, not three drops guessed from the words
    (dropping the flag resolves extra_buffer again)."""
    args = {
        "mamba-radix-cache-strategy": "extra_buffer_lazy",
        "max-mamba-cache-size": "8",
        "kv-cache-dtype": "fp8_e4m3",
    }
    labels = _labels(args)
    assert labels[0] == "set mamba-radix-cache-strategy=no_buffer", labels


def test_a_choice_that_only_shares_a_prefix_with_the_named_word_is_not_refused() -> None:
    """Only a choice the message names whole counts; the user's value must extend it at a
    word break (extra_buffer_lazy of extra_buffer), not merely start with its letters."""
    labels = _labels({"mamba-radix-cache-strategy": "no_buffer"}, "no_buf requires platform support for snapshots.")
    assert "set mamba-radix-cache-strategy=extra_buffer" not in labels


def test_a_choice_sglang_picked_by_itself_is_set_away_from_when_no_value_is_known() -> None:
    """Round 44h, written before the change (round 60's ROCm thread): at run time nothing
    says what SGLang resolved; "extra_buffer needs CUDA/MUSA/NPU (FLA)." names a choice that
    only --mamba-radix-cache-strategy has, and the user left that flag unset: its automatic
    pick is what was refused, so the flag is set to its other implementation."""
    from autofix.model import Gate

    from .proposing import proposed

    _, found = proposed(
        {"tp-size": "8"}, "AssertionError", "extra_buffer needs CUDA/MUSA/NPU (FLA).", catalog=FULL, gate=Gate.START
    )
    assert found and found[0].move.label() == "set mamba-radix-cache-strategy=no_buffer", [
        p.move.label() for p in found
    ]


def test_a_choice_several_flags_share_is_no_sign_of_which_flag_picked_it() -> None:
    """'triton' is a choice of several backend flags: naming it points at none of them."""
    from autofix.model import Gate

    from .proposing import proposed

    _, found = proposed(
        {"tp-size": "8"}, "AssertionError", "triton needs a newer toy driver.", catalog=FULL, gate=Gate.START
    )
    assert not any(p.move.label().startswith("set ") and "backend=" in p.move.label() for p in found)


def test_a_choice_named_in_a_list_after_the_refusal_is_not_refused() -> None:
    """Round 44 after-run (0.5.23-twelfth's encoder-only-on-text-llama): "Model type
    LlamaForCausalLM is not supported for encoder disaggregation. Supported architectures:
    Qwen2VL, Qwen3VL, Qwen3.5, ..." names qwen3 (a --reasoning-parser choice) among what is
    supported, after the refusal: no choice of that flag was refused."""
    from autofix.model import Gate

    from .proposing import proposed

    message = (
        "Model type LlamaForCausalLM is not supported for encoder disaggregation. Supported "
        "architectures: Qwen2VL, Qwen3VL, Qwen3.5, InternS2"
    )
    _, found = proposed({"encoder-only": True}, "ValueError", message, catalog=FULL, gate=Gate.START)
    assert not any(p.move.label().startswith("set reasoning-parser") for p in found), [p.move.label() for p in found]
