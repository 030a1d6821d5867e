"""Capture the vLLM corpus from the REAL vLLM: each case's base and its fix, through the probe.

For every case of bench/corpus/vllm-0.33.0/cases.yaml the base candidate and the base with
the case's fix applied are validated by the real vLLM (tools/vllm-cpu-env.sh, one warm
probe). A case is kept when the base fails and the fix passes; its vLLM output goes to
captures/<id>.txt (model paths as {models}, the env's site-packages as {site}) and one line
to captures.jsonl. Cases that do not fail, or whose fix does not pass, are printed and left out.

    python bench/vllm_capture.py [--python PATH] [--cases ID,...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from autofix.hosts.local import LocalHost
from autofix.preflight import Preflight
from autofix.repair import apply
from autofix.targets import Target
from autofix.tracebacks import parse_text
from bench.vllm_cases import CORPUS, MODELS, SPLITS, base_candidate, env_python, fix_move, load_cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--python", help="the vLLM env's python (default: build/reuse tools/vllm-cpu-env.sh)")
    parser.add_argument("--cases", help="comma list of case ids")
    parser.add_argument("--split", choices=("dev", "heldout"), default="dev", help="which case file")
    opts = parser.parse_args()
    python = opts.python or env_python()
    site = str(Path(python).resolve().parent.parent / "lib")
    cases = load_cases(opts.split)
    if opts.cases:
        wanted = set(opts.cases.split(","))
        cases = [c for c in cases if c["id"] in wanted]
    target = Target(
        "vllm", python, "vllm.entrypoints.cli.main", subcommand=("serve",), probe_env=(("VLLM_TARGET_DEVICE", "cpu"),)
    )
    probe = Preflight(LocalHost(), target)
    info = probe.start()
    print(
        f"vLLM {info.version}: imported in {info.import_s:.1f} s; {len(info.parser.get('flags', {}))} flags in its parser"
    )
    out_dir = CORPUS / "captures"
    out_dir.mkdir(exist_ok=True)
    kept: list[dict[str, object]] = []
    for case in cases:
        base = base_candidate(case)
        answer = probe.check(base, 120)
        fixed = apply(base, fix_move(case))
        fix_answer = probe.check(fixed, 120) if not answer.ok else None
        root = parse_text(answer.output).root_cause()
        first = (root.message.strip().splitlines() or [""])[0] if root else ""
        if answer.ok:
            print(f"  {case['id']:32} base PASSES: not a failure, left out")
            continue
        assert fix_answer is not None
        verdict = "fix passes" if fix_answer.ok else "FIX FAILS: " + fix_answer.output.strip().splitlines()[-1][:160]
        print(f"  {case['id']:32} {root.exc_type if root else answer.status}: {first[:90]} | {verdict}")
        if not fix_answer.ok:
            continue
        text = answer.output.replace(str(MODELS), "{models}").replace(site, "{site}")
        (out_dir / f"{case['id']}.txt").write_text(text, encoding="utf-8")
        kept.append(
            {
                "id": case["id"],
                "family": case["family"],
                "argv": [a.replace(str(MODELS), "{models}") for a in base.argv()],
                "exception": root.exc_type if root else "",
                "message": first,
                "fix": fix_move(case).label(),
                "fix_passed": True,
                "seconds": answer.seconds,
            }
        )
    probe.close()
    if not opts.cases:
        with open(SPLITS[opts.split][1], "w", encoding="utf-8") as fh:
            for row in kept:
                fh.write(json.dumps(row) + "\n")
    print(f"{len(kept)} of {len(cases)} cases kept (base fails, fix passes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
