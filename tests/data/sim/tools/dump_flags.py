"""Dump the real SGLang 0.5.23 CLI parser into the simulator's flag table.

Run with the real CPU environment's Python:

    ~/.cache/autofix/sglang-0.5.23-cpu/bin/python tests/data/sim/tools/dump_flags.py

Writes autofix/sim/site/sglang/srt/_flags.json: every action of the argparse parser that
``prepare_server_args`` builds (option strings, dest, action class, type name, choices in
order, default, nargs, const, metavar, required, help and custom action keywords). The
simulator rebuilds an identical parser from it, so every real flag parses, unknown flags
fail like argparse does and ``usage:`` is byte-identical.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
OUT = os.path.join(ROOT, "autofix", "sim", "site", "sglang", "srt", "_flags.json")
_STANDARD = {"option_strings", "dest", "nargs", "const", "default", "type", "choices", "required"}
_STANDARD |= {"metavar", "help", "container", "deprecated"}


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except TypeError:
        return {"__repr__": repr(value)}
    return value


def _action(a: argparse.Action) -> dict[str, Any]:
    record: dict[str, Any] = {
        "cls": type(a).__name__,
        "option_strings": list(a.option_strings),
        "dest": a.dest,
        "nargs": a.nargs,
        "const": _jsonable(a.const),
        "default": _jsonable(a.default),
        "type": getattr(a.type, "__name__", repr(a.type)) if a.type else None,
        "choices": list(a.choices) if a.choices is not None else None,
        "required": a.required,
        "metavar": a.metavar,
        "help": a.help,
    }
    extra = {k: _jsonable(v) for k, v in vars(a).items() if k not in _STANDARD}
    if extra:
        record["extra"] = extra
    return record


def main() -> int:
    from sglang.srt.server_args import ServerArgs
    from sglang.version import __version__

    parser = argparse.ArgumentParser(prog="sglang serve")
    ServerArgs.add_cli_args(parser)
    payload = {
        "source": "argparse parser of prepare_server_args, dumped from the real SGLang "
        f"{__version__} (CPU env) by tests/data/sim/tools/dump_flags.py",
        "sglang_version": __version__,
        "prog": parser.prog,
        "actions": [_action(a) for a in parser._actions],
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(payload, f, separators=(",", ":"), ensure_ascii=False)
        f.write("\n")
    print(f"{len(payload['actions'])} actions -> {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
