"""Print the observations of capture_facts.py in the shape rules.json writes them down.

    python tests/data/sim/tools/frames_of.py FACTS.json [CASE_ID ...]

For each case: its argv, the log lines, then every exception of the chain (innermost first)
with its frames as ``[function, line, "printed line", "carets"]`` rows, the function named as
in rules.json's ``functions`` table (``file stem.function``). A reading aid for writing rules
from what the real SGLang did; it writes nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def function_id(frame: dict[str, object]) -> str:
    stem = str(frame["file"]).rsplit("/", 1)[-1].removesuffix(".py")
    return f"{stem}.{frame['func']}"


def row(frame: dict[str, object]) -> str:
    cells = [function_id(frame), frame["line"], frame.get("code", "")]
    if frame.get("marks"):
        cells.append(frame["marks"])
    return json.dumps(cells)


def main() -> int:
    cases = json.loads(Path(sys.argv[1]).read_text())
    wanted = set(sys.argv[2:])
    functions: dict[str, str] = {}
    for case in cases:
        if wanted and case["id"] not in wanted:
            continue
        print(f"== {case['id']}: {' '.join(case['argv'])}")
        for line in case.get("logs", []):
            print(f"   log: {line}")
        for exc in case.get("raised", []):
            print(f"   {exc['type']}: {exc['message'][:200]!r}  then={exc['then']}")
            for frame in exc["frames"]:
                if not str(frame["file"]).startswith("/"):
                    functions[function_id(frame)] = f"{frame['file']}:{frame['func']}"
                    print(f"      {row(frame)},")
        if case.get("ok"):
            print("   ok")
    print("== functions")
    for key, value in sorted(functions.items()):
        print(f'   "{key}": "{value}",')
    return 0


if __name__ == "__main__":
    sys.exit(main())
