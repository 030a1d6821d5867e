"""Issue 14 round 36b, written before the change: what a message says a feature needs is set
before the feature is dropped.

- "--cp-strategy must be set when --enable-prefill-cp is enabled": the flag that must be set
  gets a value (its parser's first choice that means on); the engine dropped prefill CP first.
- "--enable-kv-cache-sharding currently requires the fa3 prefill attention backend": the
  value named in prose goes to the flag whose name the prose spells out whole
  (prefill-attention-backend); the engine dropped the sharding the user asked for.

The messages are ours, in the shape SGLang 0.5.23's validation takes."""

from __future__ import annotations

from .proposing import BARE, proposed_labels


def _first_on_choice(flag: str) -> str:
    info = BARE.flag(flag)
    assert info is not None and info.choices, flag
    return next(str(c) for c in info.choices if str(c).lower() not in ("none", "off", "disabled", "auto"))


def test_a_flag_that_must_be_set_is_set_before_the_feature_is_dropped() -> None:
    labels = proposed_labels(
        {"tp-size": 2, "enable-prefill-cp": True, "attn-cp-size": 2},
        "ValueError",
        "--cp-strategy must be set when the toy context split --enable-prefill-cp is on.",
    )
    assert labels[0] == f"set cp-strategy={_first_on_choice('cp-strategy')}"


def test_must_be_set_to_a_value_is_not_read_as_any_value() -> None:
    labels = proposed_labels(
        {"tp-size": 2, "enable-prefill-cp": True},
        "ValueError",
        "--cp-strategy must be set to the toy layout of the checkpoint.",
    )
    assert not labels or not labels[0].startswith("set cp-strategy=")


def test_a_value_the_feature_requires_goes_to_the_flag_the_prose_spells() -> None:
    labels = proposed_labels(
        {"tp-size": 2, "enable-kv-cache-sharding": True, "page-size": 64},
        "ValueError",
        "--enable-kv-cache-sharding currently requires the fa3 prefill attention backend; got 'toy'.",
    )
    assert labels[0] == "set prefill-attention-backend=fa3"
    assert "drop enable-kv-cache-sharding" in labels


def test_a_required_value_without_its_flag_words_is_not_guessed() -> None:
    """'requires flashinfer to be installed' names a value, not the flag that holds it."""
    labels = proposed_labels(
        {"tp-size": 2, "enable-toy": True},
        "ImportError",
        "this sampler requires flashinfer to be installed.",
    )
    assert not any(label.startswith(("set attention-backend=", "set prefill-attention-backend=")) for label in labels)
