"""How long each command takes to start and answer, beside ``python -c pass``.

The goal (issue #16): ``autofix --help``, ``history``, ``show``, ``export``, ``init`` and every
bad-input error answer in <= 0.5 s. Each command is run REPEAT times against a store made
by one seed search on the sim host; the median wall time is printed beside the interpreter's
own start, the floor no command can beat.

    python bench/startup.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_S = 0.5
SEED_UNIT = ROOT / "tests" / "data" / "units" / "sglang-k26-eagle3.service"


def _time(argv: list[str], cwd: Path, env: dict[str, str], repeat: int) -> tuple[float, int]:
    times, code = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
        code = done.returncode
    return statistics.median(times), code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = {**os.environ, "TMPDIR": tmp, "AUTOFIX_SIM_LOAD_S": "0.3", "COLUMNS": "120"}
        env.pop("AUTOFIX_DB", None)
        autofix = [sys.executable, "-m", "autofix"]
        seed = str(ROOT / "examples" / "k26-eagle3.yaml")
        subprocess.run([*autofix, "search", "--base", seed, "--host", "sim"], cwd=work, env=env, capture_output=True)
        bad = work / "bad.yaml"
        bad.write_text("launch:\n  args: {tp: eight}\n")
        commands = {
            "python -c pass (baseline)": [sys.executable, "-c", "pass"],
            "autofix --help": [*autofix, "--help"],
            "autofix history": [*autofix, "history"],
            "autofix history 1": [*autofix, "history", "1"],
            "autofix show 3": [*autofix, "show", "3"],
            "autofix export 1": [*autofix, "export", "1"],
            "autofix search (bad input)": [*autofix, "search", "--base", str(bad), "--host", "sim"],
            "autofix history 99 (unknown run)": [*autofix, "history", "99"],
            "autofix init --from-unit (seed)": [*autofix, "init", "--from-unit", str(SEED_UNIT)],
            "autofix init --from-cmd (docker)": [*autofix, "init", "--from-cmd", "docker run x python -m m"],
        }
        print(f"{'command':<36} {'median':>8} {'exit':>5}  goal <= {GOAL_S} s")
        for name, argv in commands.items():
            seconds, code = _time(argv, work, env, args.repeat)
            mark = "" if name.startswith("python") else ("ok" if seconds <= GOAL_S else "SLOW")
            print(f"{name:<36} {seconds:7.3f}s {code:>5}  {mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
