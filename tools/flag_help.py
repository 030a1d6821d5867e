"""Copy the help of each number flag from an installed SGLang into strategies/sglang.flags.json.

The help of a number flag is a fact of its parser (the unit it counts in, the number that
stands for no limit or off) that autofix/meant.py reads when a value is refused. A host's
probe sends it with the parser; this fills the catalogue's own table, used offline and
before a probe answers, from the release the table was read from.

    python tools/flag_help.py ~/.cache/autofix/sglang-0.5.23-cpu/bin/python [strategies/sglang.flags.json]

Runs the probe's own parser reading (autofix/probes/preflight.py, standard library only)
in that Python; only the ``help`` of flags already in the table is written.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from autofix.meant import number_type

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "autofix" / "probes" / "preflight.py"
# Run in the target's Python: load the probe as a module, read the parser, print the facts.
_READ = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("probe", sys.argv[1])
probe = importlib.util.module_from_spec(spec)
spec.loader.exec_module(probe)
from sglang.srt.server_args import ServerArgs
print(json.dumps(probe._parser_facts(ServerArgs)["flags"], default=repr))
"""


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__, file=sys.stderr)
        return 2
    python = argv[0]
    table = Path(argv[1]) if len(argv) > 1 else ROOT / "strategies" / "sglang.flags.json"
    done = subprocess.run([python, "-c", _READ, str(PROBE)], capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        print(f"flag_help: {python} could not read the parser:\n{done.stderr[-2000:]}", file=sys.stderr)
        return 1
    facts = json.loads(done.stdout.strip().splitlines()[-1])
    data = json.loads(table.read_text(encoding="utf-8"))
    written = 0
    for name, info in data["flags"].items():
        help_text = (facts.get(name) or {}).get("help")
        if help_text and number_type(info.get("type")) and info.get("kind") in ("value", "list"):
            info["help"] = help_text
            written += 1
    table.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{table}: help for {written} flags")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
