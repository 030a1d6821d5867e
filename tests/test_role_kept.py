"""Issue 14 round 38c, written before the change.

The disaggregation role is the deployment's shape: a decode worker turned colocated (or a
colocated server turned into a prefill worker that serves nothing alone) passes the check
and breaks the deployment around it. So a role the user set is kept even where the message
names the role a feature needs: the feature goes first ("DWDP requires
--disaggregation-mode null or prefill" on a decode worker: DWDP dropped). A role the user
did not set may still be set for a feature that needs one, and a spelling argparse refused
is still mended. The wordings are SGLang 0.5.23's shape; the values are ours."""

from __future__ import annotations

from .proposing import proposed_labels


def test_a_role_the_user_set_is_kept_and_the_feature_that_needs_another_goes() -> None:
    labels = proposed_labels(
        {"disaggregation-mode": "decode", "dwdp-size": "4", "tp-size": "4"},
        "AssertionError",
        "DWDP requires --disaggregation-mode null or prefill",
    )
    assert labels[0] == "drop dwdp-size"
    assert "set disaggregation-mode=null" in labels  # still tried, after


def test_a_role_left_unset_may_be_set_for_the_feature_that_needs_it() -> None:
    labels = proposed_labels(
        {"dwdp-size": "4", "tp-size": "4", "disaggregation-decode-polling-interval": "2"},
        "AssertionError",
        "DWDP requires --disaggregation-mode null or prefill",
    )
    assert "set disaggregation-mode=prefill" in labels or "set disaggregation-mode=null" in labels


def test_a_refused_spelling_of_the_role_is_still_mended_first() -> None:
    labels = proposed_labels(
        {"disaggregation-mode": "none", "tp-size": "2"},
        "argparse.ArgumentError",
        "argument --disaggregation-mode: invalid choice: 'none' (choose from 'null', 'prefill', 'decode')",
    )
    assert labels[0] == "set disaggregation-mode=null"
