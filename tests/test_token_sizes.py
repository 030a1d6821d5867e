"""Issue 14 round 39, written before the change: a scalar int flag that holds a number of
tokens (a chunk, a prefill batch, a context) is sized in powers of two by convention: an
operator's "8k" chunk is 8192 tokens and "32k context" is 32768. Every verified fix of the
fresh sets that met such a value (chunked-prefill-size 8k and 6k, max-prefill-tokens 16k)
wrote the binary number; counts of other things (queued requests, iterations) and list edges
(metric buckets) stay decimal. A flag the host's parser reads with SI suffixes itself never
refuses the value, so this reading only meets the int flags that do.

The flags and help texts are our own, given as a host parser's facts."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.meant import as_meant

from .proposing import proposed

OWN_FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "chunk-budget": {"kind": "value", "type": "int", "help": "The maximum number of tokens in one chunk."},
    "max-batch-tokens": {"kind": "value", "type": "int", "help": "Upper bound of a batch."},
    "max-waiting": {"kind": "value", "type": "int", "help": "The maximum number of waiting requests."},
    "rebalance-every": {"kind": "value", "type": "int", "help": "Number of iterations between two rebalances."},
    "latency-edges": {"kind": "list", "type": "float", "help": "Bucket edges of the token histogram."},
    "draft-span": {"kind": "value", "type": "int", "help": "Sliding window size for the drafter."},
    "attention-window-size": {"kind": "value", "type": "int", "help": "Local attention span."},
    "graph-max-seq-len": {"kind": "value", "type": "int", "help": "Replays admit batches up to this."},
    "prefill-max-context": {"kind": "value", "type": "int", "help": "Upper bound for captured prefill graphs."},
    "replay-limit": {"kind": "value", "type": "int", "help": "Longest sequence a replay admits."},
}
HOST = load_catalog().without_classes().with_parser({"flags": OWN_FLAGS}, "9.9.9")


@pytest.mark.parametrize(
    ("flag", "value", "want"),
    [
        ("chunk-budget", "8k", "8192"),  # the help says it counts tokens
        ("chunk-budget", "6k", "6144"),
        ("max-batch-tokens", "16k", "16384"),  # the name says so
        ("chunk-budget", "8K", "8192"),  # a capital K was binary already
        ("max-waiting", "10k", "10000"),  # requests: a decimal count
        ("rebalance-every", "2k", "2000"),
        ("latency-edges", "2k", "2000"),  # a histogram's edges, not a size
        # Round 40i (written before the change): a model's attention window spans tokens
        ("draft-span", "4k", "4096"),  # the help says sliding window
        ("attention-window-size", "4k", "4096"),  # the name says window
        # Round 48d (written before the change): a sequence length or a context is a size in
        # tokens as well, said by the name (seq-len, context) or the help ("longest sequence")
        ("graph-max-seq-len", "8k", "8192"),
        ("prefill-max-context", "64k", "65536"),
        ("replay-limit", "4k", "4096"),
    ],
)
def test_a_token_size_is_binary_other_counts_decimal(flag: str, value: str, want: str) -> None:
    assert as_meant(value, flag, HOST) == want


def test_python_refusing_a_token_size_gives_the_binary_number() -> None:
    """int() refuses '6k' naming no flag (0.4.10's chunked-prefill-size is a plain int): the
    flag holding it gets the number of tokens meant."""
    _, found = proposed(
        {"chunked-prefill-size": "6k", "tp-size": "2"}, "ValueError", "invalid literal for int() with base 10: '6k'"
    )
    assert found and found[0].move.label() == "set chunked-prefill-size=6144"
