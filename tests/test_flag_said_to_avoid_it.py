"""Issue 14 round 43, written before the change.

A report that says which flag avoids the failure ("--disable-overlap-schedule reliably avoids
the hang", "with `--disable-cuda-graph` it works fine", "`--x` works around it") gives the
operator's first move: that flag. The flag comes first there and the verb after it, where
the advice readers looked for a verb before the flag ("try --x", "add --x"). In the corpus
before the change, 4 logs (rounds 22, 26, 42, 57) said so, and each thread's fix was that
flag. A flag said to cause the failure is no advice. The logs are ours."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

CATALOG = load_catalog()

HANG = (
    "[2026-12-07 10:00:00 TP0] Decode batch, #running-req: 12, #token: 4096, gen throughput (token/s): 310.2\n"
    "[2026-12-07 10:05:00] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)\n"
)


def first_move(report: str, args: dict[str, object]) -> str:
    diagnosis = classify(parse_text(HANG + report), CATALOG, Gate.START)
    found = propose(Candidate.build({"model-path": "/m", **args}), diagnosis, CATALOG, pinned=("model-path",))
    return found[0].move.label() if found else "-"


@pytest.mark.parametrize(
    "report",
    [
        "Seen on two releases. --disable-overlap-schedule reliably avoids the hang.\n",
        "Running with `--disable-overlap-schedule` works fine.\n",
        "**`--disable-overlap-schedule` works around it**\n",
    ],
)
def test_the_flag_the_report_says_avoids_the_failure_is_the_first_move(report: str) -> None:
    assert first_move(report, {"tp-size": "8", "nnodes": "2"}) == "set disable-overlap-schedule=True"


def test_a_flag_said_to_cause_it_is_no_advice() -> None:
    report = "It only hangs with --enable-two-batch-overlap; the hang is reproducible.\n"
    assert first_move(report, {"tp-size": "8", "enable-two-batch-overlap": True}) != "set enable-two-batch-overlap=True"
