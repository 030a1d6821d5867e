"""Figure: `autofix search --gates preflight` on every real capture, against the real SGLang.

For each case of tests/data/sglang-0.5.23/cases.jsonl a base config is made from its argv
(fixture model paths, --device cpu, model-path pinned) and searched with preflight only
against SGLang 0.5.23 in the CPU env of tools/sglang-cpu-env.sh. One warm probe is shared
by all searches (as one long `autofix search` would keep it). Prints, per case, whether it
reached PASS and in how many attempts, against the case's chain length + 2; then the pass
rate and mean attempts, with the catalogue and with inferred moves only.

    python bench/captures_search.py [--python PATH] [--only catalogue|inferred] [--cases ID,...]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autofix.catalog import Catalog, load_catalog
from autofix.config import parse_base
from autofix.hosts.local import LocalHost
from autofix.model import Gate
from autofix.preflight import Preflight
from autofix.run import Runner, SearchOptions
from autofix.store import open_store
from autofix.targets import Target
from bench.captures import ROOT, base_yaml, load_cases


@dataclass(frozen=True)
class CaseResult:
    case: str
    passed: bool
    attempts: int
    budget: int  # chain length + 2
    winner: str


def env_python() -> str:
    done = subprocess.run(
        ["bash", str(ROOT / "tools" / "sglang-cpu-env.sh")], capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def search_case(
    case: dict[str, Any], python: str, catalog: Catalog, preflight: Preflight, store_url: str
) -> CaseResult:
    config = parse_base(base_yaml(case, python), source=f"{case['id']}.yaml")
    options = SearchOptions(gates=(Gate.PREFLIGHT,), max_attempts=12, max_time=600, host_label="local")
    runner = Runner(
        config,
        options,
        store=open_store(store_url),
        host=preflight.host,
        target=preflight.target,
        catalog=catalog,
        preflight=preflight,
    )
    result = runner.run()
    moves = []
    if result.winner is not None:
        by_id = {a.id: a for a in runner.store.attempts(result.run.id)}
        node = result.winner
        while node is not None:
            if node.move is not None:
                moves.append(node.move.label())
            node = by_id.get(node.parent_id) if node.parent_id else None
    return CaseResult(
        case=case["id"],
        passed=result.winner is not None,
        attempts=result.attempts,
        budget=int(case["chain_length"]) + 2,
        winner="; ".join(reversed(moves)) or "-",
    )


def run_all(python: str, catalog: Catalog, cases: list[dict[str, Any]]) -> tuple[list[CaseResult], float]:
    host = LocalHost()
    preflight = Preflight(host, Target("sglang", python, "sglang.launch_server"))
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        store_url = f"sqlite:///{Path(tmp) / 'runs.db'}"
        try:
            results = [search_case(c, python, catalog, preflight, store_url) for c in cases]
        finally:
            preflight.close()
    return results, time.monotonic() - started


def summary(label: str, results: list[CaseResult], seconds: float) -> None:
    passed = [r for r in results if r.passed]
    within = [r for r in passed if r.attempts <= r.budget]
    mean = sum(r.attempts for r in passed) / len(passed) if passed else 0.0
    mean_budget = sum(r.budget for r in passed) / len(passed) if passed else 0.0
    print(
        f"\n{label}: PASS {len(passed)}/{len(results)} ({100 * len(passed) / len(results):.0f} %), "
        f"mean attempts {mean:.2f} (mean chain length + 2: {mean_budget:.2f}), "
        f"{len(within)} within chain + 2; {seconds:.0f} s"
    )
    failed = [r for r in results if not r.passed or r.attempts > r.budget]
    for r in failed:
        why = "no PASS" if not r.passed else f"{r.attempts} attempts > {r.budget}"
        print(f"  {r.case:<46} {why}")


def main() -> int:
    from autofix import logs

    logs.configure()  # quiet: the figures are the output
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", help="the SGLang env's python (default: built by tools/sglang-cpu-env.sh)")
    parser.add_argument("--only", choices=["catalogue", "inferred"])
    parser.add_argument("--cases", help="comma list of case ids")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    python = args.python or env_python()
    cases = load_cases()
    if args.cases:
        wanted = set(args.cases.split(","))
        cases = [c for c in cases if c["id"] in wanted]
    catalog = load_catalog()
    modes = [("with the catalogue", catalog), ("inferred moves only (catalogue off)", catalog.without_classes())]
    if args.only:
        modes = [modes[0] if args.only == "catalogue" else modes[1]]
    for label, cat in modes:
        results, seconds = run_all(python, cat, cases)
        if args.verbose:
            for r in results:
                print(f"  {'PASS' if r.passed else 'fail'} {r.attempts:2d}/{r.budget:<2d} {r.case:<46} {r.winner}")
        summary(label, results, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
