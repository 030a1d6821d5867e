"""Issue 14 round 44u, written before the change (0.5.11-tenth's MoRI chunk, in our words and
values): a check that names its bound first, with the bound's value in parentheses, and the
user's size after it ("SGLANG_TOY_MAX_TOKENS (default 4096) must be larger or equal to
chunked_prefill_size") bounds that size from the other side: it is set to the bound, not
dropped (the default may not be the bound) nor zeroed. A size already within it is left."""

from __future__ import annotations

from .proposing import FULL, proposed_labels

MESSAGE = "SGLANG_TOY_MAX_TOKENS (default 4096) must be larger or equal to chunked_prefill_size"


def test_the_size_named_after_its_bound_is_set_to_the_bound() -> None:
    labels = proposed_labels({"tp-size": "8", "chunked-prefill-size": "8192"}, "AssertionError", MESSAGE, catalog=FULL)
    assert labels[0] == "set chunked-prefill-size=4096", labels


def test_the_other_direction_raises_it() -> None:
    message = "toy_min_tokens (2048) must be at most max_prefill_tokens"
    labels = proposed_labels({"max-prefill-tokens": "1024"}, "AssertionError", message, catalog=FULL)
    assert labels[0] == "set max-prefill-tokens=2048", labels


def test_a_size_within_the_bound_gets_no_such_move() -> None:
    labels = proposed_labels({"chunked-prefill-size": "2048"}, "AssertionError", MESSAGE, catalog=FULL)
    assert "set chunked-prefill-size=4096" not in labels, labels
