"""Check a fresh set before it is frozen: every base fails the real preflight, every fix passes.

    python bench/fresh_verify.py bench/fresh/sglang-0.5.23-third.jsonl --python ~/.cache/autofix/sglang-0.5.23-cpu/bin/python

One line per case: the base's verdict and the last line of its error, then each fix's verdict.
Exit 1 when a base passes or a fix fails (the set is not ready to freeze). A users* case marked
`"fails_on_0.5.23": false` is a command that passes as posted: its base must pass instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from autofix.hosts.local import LocalHost
from autofix.model import Candidate
from autofix.preflight import Preflight
from autofix.targets import Target
from bench.out_of_sample import command_args, with_models


def last_error_line(output: str) -> str:
    lines = [ln for ln in output.splitlines() if ln.strip()]
    return lines[-1][:160] if lines else "(no output)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path")
    parser.add_argument("--python", required=True)
    args = parser.parse_args()
    preflight = Preflight(LocalHost(), Target("sglang", args.python, "sglang.launch_server"))
    preflight.start()
    bad = 0
    try:
        for line in Path(args.path).read_text().splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            base = preflight.check(Candidate.build(command_args(with_models(case["argv"]))), 120)
            expect_fail = case.get("fails_on_0.5.23", True) is not False
            if expect_fail:
                print(f"{'ok  ' if not base.ok else 'PASS'} {case['id']}: {last_error_line(base.output)}", flush=True)
            else:
                shown = "passes as expected" if base.ok else last_error_line(base.output)
                print(f"{'ok  ' if base.ok else 'FAIL'} {case['id']} (expected to pass): {shown}", flush=True)
            bad += base.ok if expect_fail else not base.ok
            for fix in case.get("fixes", []):
                answer = preflight.check(Candidate.build(command_args(with_models(fix))), 120)
                shown = " ".join(fix[4:])
                print(
                    f"     fix {'pass' if answer.ok else 'FAIL'}: {shown[:100]}"
                    + ("" if answer.ok else f" -> {last_error_line(answer.output)}"),
                    flush=True,
                )
                bad += not answer.ok
    finally:
        preflight.close()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
