"""The journal parser and classifier stay linear on adversarial input (bench/adversarial.py).

No wall-clock limits: CPU time (``time.process_time``) of one shape at two sizes, each
the best of a few runs, compared with itself and with a normal journal measured in the
same process, with generous factors. Linear work gives 4x for 4x the bytes and a few
times the normal journal's time per MB; the shapes this guards against (a regex retried
from every character of a 16 KB line, a scan of every process per line) gave 100x to
18,000x the normal journal's time per MB and grew with the size.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from autofix.catalog import load_catalog
from bench.adversarial import MB, SHAPES, measure, normal

SMALL = MB // 2
LARGE = 2 * MB  # 4x SMALL
GROWTH = 8.0  # at most this much more CPU for 4x the bytes (linear: 4; quadratic: 16)
VS_NORMAL = 20.0  # time per MB at most this many times the normal journal's
REPEATS = 3
CATALOG = load_catalog()
ADVERSARIAL = {name: make for name, make in SHAPES.items() if make is not normal}


def cpu_seconds(make: Callable[[int], bytes], size: int) -> float:
    """Best of REPEATS: other load on the machine only ever adds time."""
    data = make(size)
    best = float("inf")
    for _ in range(REPEATS):
        started = time.process_time()
        measure("", data, CATALOG)
        best = min(best, time.process_time() - started)
    return max(best, 1e-3)


@pytest.fixture(scope="module")
def normal_s_per_mb() -> float:
    return cpu_seconds(normal, LARGE) / (LARGE / MB)


@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_linear_and_near_a_normal_journal(name: str, normal_s_per_mb: float) -> None:
    make = ADVERSARIAL[name]
    small = cpu_seconds(make, SMALL)
    # Checked first: a blow-up fails here in a second instead of hanging at the larger size.
    assert small / (SMALL / MB) <= VS_NORMAL * normal_s_per_mb, (
        f"{name}: {small:.3f} s for {SMALL / MB:g} MB vs {normal_s_per_mb:.3f} s/MB for a normal journal"
    )
    large = cpu_seconds(make, LARGE)
    assert large <= GROWTH * small, f"{name}: {small:.3f} s at {SMALL / MB:g} MB, {large:.3f} s at {LARGE / MB:g} MB"
    assert large / (LARGE / MB) <= VS_NORMAL * normal_s_per_mb


def test_parser_state_bounded_by_processes() -> None:
    """A journal of a new process per line: per-process state and open tracebacks are capped."""
    from autofix.tracebacks import MAX_OPEN, MAX_STREAMS, JournalParser
    from bench.adversarial import many_tracebacks

    parser = JournalParser()
    parser.feed_text(many_tracebacks(2 * MB))
    assert len(parser._streams) <= MAX_STREAMS and len(parser._open_keys) <= MAX_OPEN
    journal = parser.result()
    assert len(journal.tracebacks) == 200 and journal.dropped_tracebacks > 0


@pytest.mark.parametrize(
    ("text", "wrapper"),
    [
        ("Rank 0 scheduler died during initialization (exit code: -9).", True),
        ("the Scheduler is dead", True),
        ("first line\nRank 3 of 8 died", True),
        ("first line\nthe detokenizer process died", True),
        ("scheduler " * 50, False),
        ("Rank 1 " * 50, False),
        ("died before the scheduler", False),
    ],
)
def test_wrapper_pattern_means_what_it_did(text: str, wrapper: bool) -> None:
    from autofix.tracebacks import Traceback

    assert Traceback("RuntimeError", text, ()).is_wrapper is wrapper


def test_rewritten_catalogue_patterns_mean_what_they_did() -> None:
    nccl = CATALOG.get("nccl-invalid-env").match.evidence
    attn = CATALOG.get("attn-backend-unsupported-hardware").match.message
    assert nccl is not None and attn is not None
    found = nccl.search("x\nh:1:2 [3] NCCL INFO a\nh:1:2 [3] NCCL WARN Invalid value LL256 for NCCL_PROTO\n")
    assert found is not None and found.group("var") == "NCCL_PROTO"
    assert nccl.search("NCCL WARN invalid " * 100) is None
    assert attn.search("ValueError: x\nFA3 attention backend requires SM90 or SM80")
    assert attn.search("the FlashInfer backend is only supported on sm90")
    assert not attn.search("FA3x requires") and not attn.search("requires FA3")
