"""Issue 14 round 45j, written before the change (round 64's NVFP4 MoE NaN report, in our
words): a version in backticks after "fails with" ("fails with FlashInfer `0.6.16.post4`") is
no error the user quotes; a C-style assertion quoted in backticks ("`Assertion 'NaN detected!
sampler: logits' failed.`") states its failure itself, as a kernel's own assert line does."""

from __future__ import annotations

from .proposing import subject_of


def test_a_version_is_not_the_quoted_error() -> None:
    text = (
        "# [Regression] MoE path produces NaNs\n\n"
        "- the same checkout fails with FlashInfer `0.7.2.post1` and `0.7.3`;\n"
        "- it passes with `0.7.1`.\n"
    )
    assert not subject_of(text).startswith("quoted_error: 0.7"), subject_of(text)


def test_an_assertion_quoted_in_backticks_is_the_failure() -> None:
    text = (
        "# [Regression] MoE path produces NaNs\n\n"
        "- the same checkout fails with FlashInfer `0.7.2.post1` and `0.7.3`;\n"
        "- First prefill: `Assertion 'NaN detected! sampler: next_logits' failed.` on all ranks\n"
    )
    assert "NaN detected! sampler: next_logits" in subject_of(text)
