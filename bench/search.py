"""Benchmark: repairing the sim corpus four ways, side by side in one run.

bench/corpus/*.yaml are broken configs for the simulated host (argument-level failures,
several chains of 2-3); bench/corpus/runtime/*.yaml fail after a launch (OOM, NCCL …).
For each case:

* autofix: preflight, then moves; only what passes preflight is launched;
* autofix without preflight: the same search, every candidate launched;
* grid sweep: the speculative flags over a grid (steps x topk x draft tokens), every point
  launched, as vLLM's auto_tune or SGLang's bench_speculative do (solved if one passes);
* the seed's manual loop: one launch per fix along the path autofix found, a crash
  noticed at the next 15 s poll (the loop of the seed story).

Columns: cases solved, attempts, GPU launches, wall time on the sim (load time
AUTOFIX_SIM_LOAD_S), and wall time with each launch that loads weights costing the real
10 minutes of Kimi K2.6 instead.

    python bench/search.py [--load 0.3] [--cases a,b] [--runtime]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from autofix import logs
from autofix.catalog import Catalog, load_catalog
from autofix.config import BaseConfig, load_base
from autofix.fleet import Fleet
from autofix.hosts.local import LocalHost
from autofix.model import Attempt, AttemptState, Candidate, Gate
from autofix.preflight import ProbePool
from autofix.run import Runner, SearchOptions
from autofix.store import Store, open_store
from autofix.targets import make_target

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "bench" / "corpus"
REAL_LOAD_S = 600.0
POLL_S = 15.0
LIVE = (Gate.START, Gate.READY, Gate.SMOKE)
GRID = [(s, k, d) for s in (1, 2, 3, 5) for k in (1, 2, 4) for d in (2, 4, 8) if d > s or k > 1]


@dataclass
class Tally:
    solved: int = 0
    attempts: int = 0
    launches: int = 0
    loads: int = 0  # launches that got as far as loading weights
    # Loads that happen one after another: on several hosts at once only the busiest
    # host's loads add up (None: all of them, one host).
    serial_loads: int | None = None
    seconds: float = 0.0
    rows: list[str] = field(default_factory=list)

    def add(self, name: str, solved: bool, attempts: list[Attempt], seconds: float, catalog: Catalog) -> None:
        self.solved += int(solved)
        self.attempts += len(attempts)
        launched = [a for a in attempts if a.launched]
        self.launches += len(launched)
        self.loads += sum(_loaded(a, catalog) for a in launched)
        self.seconds += seconds
        self.rows.append(f"{name}: {'ok' if solved else 'FAIL'} {len(attempts)} attempts, {len(launched)} launches")


def _loaded(attempt: Attempt, catalog: Catalog) -> bool:
    """A launch that passed SGLang's argument validation loads the weights."""
    if attempt.state is AttemptState.PASSED or attempt.failure is None:
        return True
    cls = catalog.get(attempt.failure.class_id) if attempt.failure.class_id else None
    if cls is not None:
        return cls.target == "runtime"
    return "Load weight" in attempt.log_excerpt or "KV Cache" in attempt.log_excerpt


def _sim_runner(
    config: BaseConfig,
    options: SearchOptions,
    store: Store,
    catalog: Catalog,
    load_s: float,
    host: LocalHost,
    slot: int,
    probes: ProbePool | None = None,
) -> Runner:
    """A search on sim host ``slot`` (its own work dir and ports), cache off so each case
    is measured on its own; with ``probes``, the host's warm probe."""
    target = make_target("sim", config, sim_load_s=load_s, index=slot)
    preflight = probes.get(slot, host, target) if probes is not None else None
    return Runner(
        config,
        options,
        store=store,
        host=host,
        target=target,
        catalog=catalog,
        preflight=preflight,
        use_cache=False,
    )


def _search(
    config: BaseConfig,
    gates: tuple[Gate, ...],
    catalog: Catalog,
    load_s: float,
    workdir: Path,
    max_attempts: int = 30,
    hosts: int = 1,
) -> tuple[bool, list[Attempt], float]:
    store = open_store(f"sqlite:///{workdir / f'runs-{time.monotonic_ns()}.db'}")
    options = SearchOptions(gates=gates, max_attempts=max_attempts, max_time=1800, host_label="sim")
    runner = _sim_runner(config, options, store, catalog, load_s, LocalHost(workdir=str(workdir / "host0")), 0)
    for i in range(1, hosts):
        host = LocalHost(workdir=str(workdir / f"host{i}"))
        runner.add_host(host, make_target("sim", config, sim_load_s=load_s, index=i), "sim")
    started = time.monotonic()
    result = runner.run()
    seconds = time.monotonic() - started
    return result.winner is not None, store.attempts(result.run.id), seconds


def _fleet(
    configs: list[BaseConfig], hosts: int, catalog: Catalog, load_s: float, workdir: Path
) -> tuple[list[tuple[bool, list[Attempt], str]], float]:
    """The whole corpus as one command (``autofix search --base … --base … --hosts …``):
    each free sim host takes the next case and runs its search, with one warm preflight
    probe per host."""
    store = open_store(f"sqlite:///{workdir / f'fleet-{time.monotonic_ns()}.db'}")
    probes = ProbePool()
    slots = [(slot, LocalHost(workdir=str(workdir / f"fleet{slot}"))) for slot in range(hosts)]

    def make(index: int, slot_host: tuple[int, LocalHost]) -> Runner:
        slot, host = slot_host
        config = configs[index]
        options = SearchOptions(gates=(Gate.PREFLIGHT, *LIVE), max_attempts=30, max_time=1800, host_label=f"sim{slot}")
        return _sim_runner(config, options, store, catalog, load_s, host, slot, probes)

    started = time.monotonic()
    try:
        results = Fleet(len(configs), slots, make).run()
    finally:
        probes.close()
    seconds = time.monotonic() - started
    out: list[tuple[bool, list[Attempt], str]] = []
    for r in results:
        if r.result is None:
            out.append((False, [], ""))
        else:
            out.append((r.result.winner is not None, store.attempts(r.result.run.id), r.result.run.host))
    return out, seconds


def _single(
    config: BaseConfig, candidate: Candidate, catalog: Catalog, load_s: float, workdir: Path
) -> tuple[bool, Attempt, float]:
    """One candidate launched as it is: no preflight, no repair."""
    one = replace(config, base=candidate)
    ok, attempts, seconds = _search(one, LIVE, catalog.without_classes(), load_s, workdir, max_attempts=1)
    return ok, attempts[0], seconds


def _grid(config: BaseConfig) -> list[Candidate]:
    out = []
    for steps, topk, draft in GRID:
        c = config.base
        for flag, value in (
            ("speculative-num-steps", steps),
            ("speculative-eagle-topk", topk),
            ("speculative-num-draft-tokens", draft),
        ):
            c = c.with_arg(flag, str(value))
        out.append(c)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--load", type=float, default=0.3, help="sim load time per launch (default 0.3 s)")
    parser.add_argument("--cases", help="comma list of case names")
    parser.add_argument("--runtime", action="store_true", help="the runtime corpus (bench/corpus/runtime) instead")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--only-autofix", action="store_true", help="skip the grid sweep and the manual loop")
    parser.add_argument("--explore", type=int, default=0, help="also measure --explore N on 1 vs 3 hosts")
    args = parser.parse_args()
    logs.configure()
    catalog = load_catalog()
    folder = CORPUS / "runtime" if args.runtime else CORPUS
    paths = sorted(folder.glob("*.yaml"))
    if args.cases:
        wanted = set(args.cases.split(","))
        paths = [p for p in paths if p.stem in wanted]
    names = [
        "autofix",
        "corpus, 1 sim host",
        "corpus, 3 sim hosts",
        "frontier on 3 hosts",
        "autofix, no preflight",
        "grid sweep",
        "seed's manual loop",
    ]
    autofix_rows = names[:4]
    tallies = {name: Tally() for name in names}
    with tempfile.TemporaryDirectory(prefix="autofix-bench-") as tmp:
        os.environ["TMPDIR"] = tmp
        work = Path(tmp)
        for path in paths:
            config = load_base(path)
            ok, attempts, seconds = _search(config, (Gate.PREFLIGHT, *LIVE), catalog, args.load, work)
            tallies["autofix"].add(path.stem, ok, attempts, seconds, catalog)
            ok3, attempts3, seconds3 = _search(config, (Gate.PREFLIGHT, *LIVE), catalog, args.load, work, hosts=3)
            tallies["frontier on 3 hosts"].add(path.stem, ok3, attempts3, seconds3, catalog)
            if args.only_autofix:
                continue

            ok2, attempts2, seconds2 = _search(config, LIVE, catalog, args.load, work)
            tallies["autofix, no preflight"].add(path.stem, ok2, attempts2, seconds2, catalog)

            grid_attempts: list[Attempt] = []
            grid_seconds = 0.0
            grid_ok = False
            for point in _grid(config):
                passed, attempt, secs = _single(config, point, catalog, args.load, work)
                grid_attempts.append(attempt)
                grid_seconds += secs
                grid_ok = grid_ok or passed
            tallies["grid sweep"].add(path.stem, grid_ok, grid_attempts, grid_seconds, catalog)

            # The manual loop: the path autofix found, each step launched, noticed at a 15 s poll.
            by_id = {a.id: a for a in attempts}
            winner = next((a for a in attempts if a.state is AttemptState.PASSED), None)
            path_attempts: list[Attempt] = []
            node = winner
            while node is not None:
                path_attempts.append(node)
                node = by_id.get(node.parent_id) if node.parent_id else None
            manual: list[Attempt] = []
            manual_seconds = 0.0
            manual_ok = False
            for step in reversed(path_attempts):
                passed, attempt, secs = _single(config, _real(config, step, by_id), catalog, args.load, work)
                manual.append(attempt)
                manual_seconds += (passed and secs) or math.ceil(max(secs, 0.1) / POLL_S) * POLL_S
                manual_ok = passed
            tallies["seed's manual loop"].add(
                path.stem, manual_ok and winner is not None, manual, manual_seconds, catalog
            )
            if args.verbose:
                print(
                    f"{path.stem}: autofix {len(attempts)}/{sum(a.launched for a in attempts)}, "
                    f"no-preflight {len(attempts2)}, grid {len(grid_attempts)}, manual {len(manual)}",
                    flush=True,
                )

        # The whole corpus as one command: `autofix search --base … (x n) --hosts sim[,sim,sim]`.
        configs = [load_base(path) for path in paths]
        for hosts, name in ((1, "corpus, 1 sim host"), (3, "corpus, 3 sim hosts")):
            outcomes, seconds = _fleet(configs, hosts, catalog, args.load, work)
            per_host: dict[str, int] = {}
            for path, (ok, attempts, host) in zip(paths, outcomes, strict=True):
                tallies[name].add(path.stem, ok, attempts, 0.0, catalog)
                per_host[host] = per_host.get(host, 0) + sum(a.launched and _loaded(a, catalog) for a in attempts)
            tallies[name].seconds = seconds
            tallies[name].serial_loads = max(per_host.values(), default=0)

    n = len(paths)
    print(f"corpus: {n} broken configs ({folder.relative_to(ROOT)}), sim load {args.load} s per launch\n")
    print(
        f"{'strategy':<24} {'solved':>7} {'attempts':>9} {'launches':>9} {'wall (sim)':>11} {'wall at 10 min/load':>20}"
    )
    for name, t in tallies.items():
        if args.only_autofix and name not in autofix_rows:
            continue
        scaled = t.seconds + (t.loads if t.serial_loads is None else t.serial_loads) * (REAL_LOAD_S - args.load)
        print(
            f"{name:<24} {t.solved:>3}/{n:<3} {t.attempts:>9} {t.launches:>9} {t.seconds:>10.1f}s {scaled / 3600:>18.1f} h"
        )
    a, g = tallies["autofix"], tallies["grid sweep"]
    one, three, frontier = tallies["corpus, 1 sim host"], tallies["corpus, 3 sim hosts"], tallies["frontier on 3 hosts"]
    print(
        f"\nthe corpus over 3 sim hosts vs 1: wall {three.seconds:.1f} s vs {one.seconds:.1f} s "
        f"({one.seconds / max(three.seconds, 0.001):.2f}x); each search's frontier over 3 hosts instead: "
        f"{frontier.seconds:.1f} s vs {a.seconds:.1f} s ({a.seconds / max(frontier.seconds, 0.001):.2f}x)"
    )
    if args.only_autofix:
        return 0
    print(
        f"\nautofix: every solved case with exactly one launch: "
        f"{'yes' if a.solved == n and a.launches == n else 'no'} ({a.launches} launches for {n} cases); "
        f"attempts vs the grid sweep: {a.attempts}/{g.attempts} = {a.attempts / max(g.attempts, 1):.2f}"
    )
    return 0


def _real(config: BaseConfig, attempt: Attempt, by_id: dict[int, Attempt]) -> Candidate:
    """The attempt's candidate rebuilt from the base (the store keeps secrets redacted)."""
    from autofix.repair import apply

    moves = []
    node: Attempt | None = attempt
    while node is not None and node.move is not None:
        moves.append(node.move)
        node = by_id.get(node.parent_id) if node.parent_id else None
    candidate = config.base
    for move in reversed(moves):
        candidate = apply(candidate, move)
    return candidate


if __name__ == "__main__":
    sys.exit(main())
