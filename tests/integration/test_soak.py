"""A bounded soak (bench/soak.py): many attempts in one run, the controller stays flat.

60 attempts in one ``Runner.run()`` on the sim host (about 35 of them launches that die
of a simulated CUDA OOM, the rest preflight failures): after the warm-up the controller
holds no more file descriptors than before and its memory grows by less than a few MB,
every attempt is recorded once and finished, and nothing the run started is left running.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.soak import WARMUP, SoakResult, run_soak

pytestmark = pytest.mark.integration

ATTEMPTS = 60
FD_SLACK = 2  # a pipe of a channel being torn down as the sample is taken
RSS_SLACK_MB = 20.0


@pytest.fixture(scope="module")
def soak(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SoakResult]:
    # The sim's processes inherit TMPDIR (work dirs, locks): this soak's own, as the bench does.
    workdir = tmp_path_factory.mktemp("soak")
    before = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(workdir)
    try:
        yield run_soak(ATTEMPTS, load_s=0.1, workdir=Path(workdir))
    finally:
        if before is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = before


def test_every_attempt_recorded_once_and_finished(soak: SoakResult) -> None:
    assert soak.attempts == ATTEMPTS
    assert soak.recorded == ATTEMPTS and soak.duplicate_seqs == 0 and soak.unfinished == 0
    assert soak.passed == 0  # the soak's candidates cannot pass: the run went the whole way
    assert soak.launches >= ATTEMPTS // 3, "the soak must launch candidates, not only preflight them"
    assert soak.launches < ATTEMPTS, "and must preflight-fail some"


def test_open_fds_flat_after_warmup(soak: SoakResult) -> None:
    after = [s.fds for s in soak.samples if s.attempts >= WARMUP]
    assert max(after) <= soak.warm.fds + FD_SLACK, [s.fds for s in soak.samples]
    assert soak.end.fds <= soak.start.fds + FD_SLACK  # the run closed its probe, channels and HTTP client


def test_threads_flat_after_warmup(soak: SoakResult) -> None:
    after = [s.threads for s in soak.samples if s.attempts >= WARMUP]
    assert max(after) <= soak.warm.threads + 2, [s.threads for s in soak.samples]


def test_memory_bounded_after_warmup(soak: SoakResult) -> None:
    peak = max(s.rss_mb for s in soak.samples if s.attempts >= WARMUP)
    assert peak - soak.warm.rss_mb < RSS_SLACK_MB, [round(s.rss_mb, 1) for s in soak.samples]


def test_nothing_left_running(soak: SoakResult) -> None:
    assert not soak.left, [(p.pid, p.cmd) for p in soak.left]
    # Children of the controller itself are autofix's to reap (PID 1 reaps the orphans).
    assert not soak.own_zombies, [(p.pid, p.cmd) for p in soak.own_zombies]
