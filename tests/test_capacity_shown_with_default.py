"""Issue 14 round 38b, written before the change.

A check that bounds a size by a capacity it shows with its number — "SGLANG_X_PER_RANK
(default 4096) must be >= the per-rank dispatch tokens (chunked_prefill_size by default)"
— is met by bringing the size the parenthesis names down to that capacity, which keeps
the feature on. Turning the size off (0, a disabled chunk) also gets past the check, but
changes what the server does, so it comes after. The wordings are SGLang 0.5.23's shape;
the names and numbers are ours."""

from __future__ import annotations

import pytest

from .proposing import proposed_labels


@pytest.mark.parametrize(
    ("args", "message", "move"),
    [
        (
            {"chunked-prefill-size": "8192", "moe-a2a-backend": "mori"},
            "SGLANG_FOO_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 2048) must be >= the per-rank dispatch tokens "
            "(chunked_prefill_size by default)",
            "set chunked-prefill-size=2048",
        ),
        (
            {"max-running-requests": "512"},
            "SGLANG_BAR_CAPACITY (default 256) must be at least the number of requests (max_running_requests)",
            "set max-running-requests=256",
        ),
    ],
)
def test_the_named_size_comes_down_to_the_capacity_shown(args: dict[str, object], message: str, move: str) -> None:
    labels = proposed_labels(args, "AssertionError", message)
    assert labels and labels[0] == move


def test_a_size_already_within_the_capacity_is_not_moved() -> None:
    labels = proposed_labels(
        {"chunked-prefill-size": "1024"},
        "AssertionError",
        "SGLANG_FOO_CAP (default 2048) must be >= the per-rank dispatch tokens (chunked_prefill_size by default)",
    )
    assert "set chunked-prefill-size=2048" not in labels
