"""Figure: `autofix search --gates preflight` on every real vLLM capture, against the real vLLM.

Each case of bench/corpus/vllm-0.33.0 (captured by bench/vllm_capture.py: the base really
fails in vLLM 0.33.0, the case's fix really passes) becomes a base config (fixture model,
VLLM_TARGET_DEVICE=cpu, the model pinned) and is searched with preflight alone against the
real vLLM in the CPU env of tools/vllm-cpu-env.sh. One warm probe serves every search; each
search has a store of its own (no success rates leak from one case to the next).

Three catalogues, side by side:
  in-sample      strategies/vllm.yaml whole (its classes were written after these captures)
  out-of-sample  leave-one-family-out: while a case is scored, the classes of its family
                 (ids vllm-<family>-*) are removed; what remains are other families'
                 classes and inference
  inferred       no classes at all: inference alone
  baseline       autofix as it stood for SGLang: no vLLM classes and no reading of vLLM's
                 validation errors (autofix/validation.py off), only the generic inference
A case counts as reached when the search ends PASS; attempts are compared with the case's
chain length + 1 (the goal: mean attempts <= mean chain + 1).

    python bench/vllm_search.py [--python PATH] [--cases ID,...] [--verbose]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from autofix import validation
from autofix.catalog import Catalog, load_catalog
from autofix.config import parse_base
from autofix.hosts.local import LocalHost
from autofix.model import Gate
from autofix.preflight import Preflight
from autofix.run import Runner, SearchOptions
from autofix.store import open_store
from autofix.targets import Target
from bench.vllm_cases import base_yaml, env_python, load_captures, load_cases

MODES = ("in-sample", "out-of-sample", "inferred", "baseline")


@dataclass(frozen=True)
class Result:
    case: str
    family: str
    passed: bool
    attempts: int
    chain: int
    winner: str


def family_prefix(family: str) -> str:
    return f"vllm-{family}-"


def catalog_for(mode: str, family: str, full: Catalog) -> Catalog:
    if mode in ("inferred", "baseline"):
        return full.without_classes()
    if mode == "out-of-sample":
        kept = tuple(c for c in full.classes if not c.id.startswith(family_prefix(family)))
        return replace(full, classes=kept)
    return full


@contextlib.contextmanager
def _validation(on: bool) -> Iterator[None]:
    """The baseline runs without autofix/validation.py (repair imports it per call)."""
    saved = validation.validation_moves
    if not on:
        validation.validation_moves = lambda subject, flags: []
    try:
        yield
    finally:
        validation.validation_moves = saved


def search(case: dict[str, Any], python: str, catalog: Catalog, probe: Preflight, folder: Path) -> Result:
    config = parse_base(base_yaml(case, python), source=f"{case['id']}.yaml")
    options = SearchOptions(gates=(Gate.PREFLIGHT,), max_attempts=12, max_time=600, host_label="local")
    store = open_store(f"sqlite:///{folder / (case['id'] + '.db')}")
    runner = Runner(
        config, options, store=store, host=probe.host, target=probe.target, catalog=catalog, preflight=probe
    )
    result = runner.run()
    moves = []
    if result.winner is not None:
        by_id = {a.id: a for a in store.attempts(result.run.id)}
        node = result.winner
        while node is not None:
            if node.move is not None:
                moves.append(node.move.label())
            node = by_id.get(node.parent_id) if node.parent_id else None
    return Result(
        case["id"],
        case["family"],
        result.winner is not None,
        result.attempts,
        int(case["chain"]),
        "; ".join(reversed(moves)) or "-",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--python", help="the vLLM env's python (default: build/reuse tools/vllm-cpu-env.sh)")
    parser.add_argument("--cases", help="comma list of case ids")
    parser.add_argument("--verbose", action="store_true", help="print every case's winning moves")
    parser.add_argument(
        "--split",
        choices=("dev", "heldout", "all"),
        default="all",
        help="dev: the cases the inference was written after; heldout: frozen before any change to it",
    )
    opts = parser.parse_args()
    python = opts.python or env_python()
    splits = ("dev", "heldout") if opts.split == "all" else (opts.split,)
    cases = []
    for split in splits:
        captured = {c["id"] for c in load_captures(split)}
        cases += [c for c in load_cases(split) if c["id"] in captured]
    if opts.cases:
        cases = [c for c in cases if c["id"] in set(opts.cases.split(","))]
    full = load_catalog(family="vllm")
    target = Target(
        "vllm", python, "vllm.entrypoints.cli.main", subcommand=("serve",), probe_env=(("VLLM_TARGET_DEVICE", "cpu"),)
    )
    probe = Preflight(LocalHost(), target)
    info = probe.start()
    print(
        f"vLLM {info.version} (real, CPU env), probe warm after {info.import_s:.1f} s; "
        f"{len(cases)} captured cases, {len(full.classes)} vLLM classes"
    )
    results: dict[str, list[Result]] = {m: [] for m in MODES}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="autofix-vllm-bench-") as tmp:
        for mode in MODES:
            folder = Path(tmp) / mode
            folder.mkdir()
            with _validation(mode != "baseline"):
                for case in cases:
                    results[mode].append(search(case, python, catalog_for(mode, case["family"], full), probe, folder))
    probe.close()
    print(f"\n{'case':32} {'family':12} {'chain':>5} " + " ".join(f"{m:>15}" for m in MODES))
    for i, case in enumerate(cases):
        cells = []
        for mode in MODES:
            r = results[mode][i]
            cells.append(f"{('PASS' if r.passed else 'fail') + ' ' + str(r.attempts):>15}")
        print(f"{case['id']:32} {case['family']:12} {case['chain']:>5} " + " ".join(cells))
        if opts.verbose:
            for mode in MODES:
                print(f"    {mode:14} {results[mode][i].winner}")
    chain = sum(int(c["chain"]) for c in cases) / max(len(cases), 1)
    print(f"\n{'':51}" + " ".join(f"{m:>15}" for m in MODES))
    rate = [f"{sum(r.passed for r in results[m]) / max(len(cases), 1):>15.0%}" for m in MODES]
    print(f"{'reached PASS (goal >= 90% out of sample)':51}" + " ".join(rate))
    mean = [f"{sum(r.attempts for r in results[m]) / max(len(cases), 1):>15.2f}" for m in MODES]
    print(f"{'mean attempts (goal <= chain + 1 = ' + format(chain + 1, '.2f') + ')':51}" + " ".join(mean))
    for split in splits:
        index = [i for i, c in enumerate(cases) if c["split"] == split]
        if not index:
            continue
        cells = []
        for mode in MODES:
            rows = [results[mode][i] for i in index]
            cells.append(f"{sum(r.passed for r in rows)}/{len(rows)} ({sum(r.attempts for r in rows) / len(rows):.2f})")
        print(f"{'split ' + split + ': reached (mean attempts)':51}" + " ".join(f"{c:>15}" for c in cells))
    families = sorted({c["family"] for c in cases})
    print("\nper family (out of sample: reached / cases, mean attempts)")
    for fam in families:
        rows = [r for r in results["out-of-sample"] if r.family == fam]
        ins = [r for r in results["in-sample"] if r.family == fam]
        print(
            f"  {fam:14} out {sum(r.passed for r in rows)}/{len(rows)} "
            f"({sum(r.attempts for r in rows) / len(rows):.2f})   in {sum(r.passed for r in ins)}/{len(ins)} "
            f"({sum(r.attempts for r in ins) / len(ins):.2f})"
        )
    print(f"\n{time.monotonic() - started:.0f} s for {len(cases) * len(MODES)} searches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
