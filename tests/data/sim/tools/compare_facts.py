"""Compare two capture_facts.py recordings (the real SGLang's and the simulator's) case by case.

    python tests/data/sim/tools/compare_facts.py REAL.json SIM.json [--fields]

Per case: outcome, the exception chain (types, messages, frames: file, line, function, printed
line, carets), the log lines, and (--fields) every resolved field that differs. Prints the
cases that differ and a count; exits 1 if any does.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

_VOLATILE = {"random_seed"}


def _frames(raised: list[dict[str, Any]]) -> list[Any]:
    return [
        (e["type"], e["message"], e["then"], [f for f in e["frames"] if not str(f["file"]).startswith("/")])
        for e in raised
    ]


def _logs(logs: list[str]) -> list[str]:
    return [re.sub(r"\{[^}]*\}", lambda m: "{" + ",".join(sorted(m.group(0)[1:-1].split(","))) + "}", x) for x in logs]


def main() -> int:
    real = {c["id"]: c for c in json.loads(Path(sys.argv[1]).read_text())}
    sim = {c["id"]: c for c in json.loads(Path(sys.argv[2]).read_text())}
    fields = "--fields" in sys.argv
    differing = 0
    for cid, r in real.items():
        s = sim.get(cid)
        problems = []
        if s is None:
            problems.append("not in the sim's recording")
        else:
            if r["ok"] != s["ok"]:
                problems.append(f"ok: real {r['ok']} sim {s['ok']}")
            if _frames(r.get("raised", [])) != _frames(s.get("raised", [])):
                problems.append(
                    f"raised:\n  real {_frames(r.get('raised', []))}\n  sim  {_frames(s.get('raised', []))}"
                )
            if _logs(r.get("logs", [])) != _logs(s.get("logs", [])):
                problems.append(f"logs:\n  real {r.get('logs')}\n  sim  {s.get('logs')}")
            if fields and r["ok"] and s["ok"]:
                diff = {
                    k: (v, s["resolved"].get(k))
                    for k, v in r["resolved"].items()
                    if k not in _VOLATILE and s["resolved"].get(k) != v
                }
                if diff:
                    problems.append(f"resolved: {diff}")
        if problems:
            differing += 1
            print(f"=== {cid}\n" + "\n".join(problems))
    print(f"{len(real) - differing}/{len(real)} cases match")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
