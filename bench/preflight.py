"""Benchmark: seconds per preflight candidate against the real SGLang, cold vs warm.

The seed chain (the DESIGN.md base on the CPU env: --device cpu, fixture model paths)
and the candidates a search walks through are resolved by SGLang 0.5.23's own
``prepare_server_args`` / ``resolve_once`` / ``check_server_args``, two ways, in one run:

* cold: a new probe process per candidate (import SGLang every time), the way a
  one-shot ``python -c 'prepare_server_args(...)'`` check works;
* warm: one probe for all of them (SGLang imported once, one forked child each), the way
  ``autofix search`` runs it.

    python bench/preflight.py [--python PATH] [--rounds 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from autofix.hosts.local import LocalHost
from autofix.model import Candidate
from autofix.preflight import Preflight
from autofix.targets import Target
from bench.captures import MODELS
from bench.captures_search import env_python


def seed_chain() -> list[tuple[str, Candidate]]:
    base = {
        "model-path": str(MODELS / "k26"),
        "tp": 8,
        "device": "cpu",
        "trust-remote-code": True,
        "speculative-algorithm": "EAGLE3",
        "speculative-draft-model-path": str(MODELS / "eagle3"),
        "speculative-num-draft-tokens": 3,
        "speculative-eagle-topk": 4,
    }
    steps = [
        ("base (bare AssertionError)", {}),
        ("+ num-steps 2", {"speculative-num-steps": 2}),
        ("+ num-steps 3", {"speculative-num-steps": 3}),
        ("+ num-steps 2, topk 1", {"speculative-num-steps": 2, "speculative-eagle-topk": 1}),
        ("+ num-steps 1, topk 1 (draft rewritten to 2)", {"speculative-num-steps": 1, "speculative-eagle-topk": 1}),
        ("- topk, - draft tokens (auto 3/1/4)", {"speculative-eagle-topk": None, "speculative-num-draft-tokens": None}),
    ]
    return [(label, Candidate.build({**base, **extra})) for label, extra in steps]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", help="the SGLang env's python (default: built by tools/sglang-cpu-env.sh)")
    parser.add_argument("--rounds", type=int, default=2, help="warm rounds over the chain (default 2)")
    args = parser.parse_args()
    python = args.python or env_python()
    host = LocalHost()
    target = Target("sglang", python, "sglang.launch_server")
    chain = seed_chain()

    cold: list[float] = []
    outcomes: list[str] = []
    for _, candidate in chain:
        started = time.monotonic()
        probe = Preflight(host, target)
        probe.start()
        answer = probe.check(candidate, 120)
        probe.close()
        cold.append(time.monotonic() - started)
        outcomes.append("PASS" if answer.ok else f"FAIL {answer.exception}")

    probe = Preflight(host, target)
    started = time.monotonic()
    info = probe.start()
    startup = time.monotonic() - started
    warm: list[float] = []
    for _ in range(args.rounds):
        for _, candidate in chain:
            t0 = time.monotonic()
            probe.check(candidate, 120)
            warm.append(time.monotonic() - t0)
    probe.close()

    print(f"SGLang {info.version} at {python}")
    print(f"warm probe start: {startup:.2f} s (import {info.import_s:.2f} s, then hooks pre-imported)\n")
    print(f"{'candidate':<48} {'outcome':<22} {'cold s':>7} {'warm s':>7}")
    per_round = len(chain)
    for i, (label, _) in enumerate(chain):
        warm_i = statistics.mean(warm[i::per_round])
        print(f"{label:<48} {outcomes[i]:<22} {cold[i]:7.2f} {warm_i:7.3f}")
    cold_mean = statistics.mean(cold)
    warm_mean = statistics.mean(warm)
    print(f"\nmean per candidate: cold {cold_mean:.2f} s, warm {warm_mean:.3f} s ({cold_mean / warm_mean:.0f}x)")
    print(
        f"targets: warm <= 1 s -> {'met' if max(warm) <= 1.0 else 'NOT met'}; "
        f">= 10x less than cold -> {'met' if cold_mean / warm_mean >= 10 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
