"""Dump the facts of the real SGLang 0.5.23 command line into the simulator's flag table.

Run with the real CPU environment's Python:

    ~/.cache/autofix/sglang-0.5.23-cpu/bin/python tests/data/sim/tools/dump_flags.py

Writes autofix/sim/site/sglang/srt/_sim/data/flags.json:

* ``actions``: every action of the argparse parser ``prepare_server_args`` builds, in order:
  option strings, dest, action kind, type name, choices (in order), default, nargs, const,
  metavar, required and the keywords of SGLang's custom actions. Help texts are left out
  (SGLang's prose, not a fact a traceback or ``usage:`` shows), all but the mark of the
  flags ``usage:`` hides. The simulator rebuilds the
  parser from these facts, so every real flag parses, unknown flags fail like argparse does
  and ``usage:`` is byte-identical.
* ``fields``: the record's fields in order (``ServerArgs.__struct_fields__``, flags and
  internal bookkeeping alike) with the value each has when only ``--model-path`` is given.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
OUT = os.path.join(ROOT, "autofix", "sim", "site", "sglang", "srt", "_sim", "data", "flags.json")
_STANDARD = {"option_strings", "dest", "nargs", "const", "default", "type", "choices", "required"}
_STANDARD |= {"metavar", "help", "container", "deprecated"}
_KINDS = {
    "_StoreAction": "store",
    "_StoreTrueAction": "store_true",
    "_StoreFalseAction": "store_false",
    "_StoreConstAction": "store_const",
    "_AppendAction": "append",
    "_CountAction": "count",
    "_HelpAction": "help",
    "BooleanOptionalAction": "boolean_optional",
    "DeprecatedStoreTrueAction": "deprecated_true",
    "DeprecatedStoreConstAction": "deprecated_const",
    "LoRAPathAction": "lora_paths",
}


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except TypeError:
        return {"__repr__": repr(value)}
    return value


def _action(a: argparse.Action) -> dict[str, Any]:
    record: dict[str, Any] = {
        "kind": _KINDS[type(a).__name__],
        "flags": list(a.option_strings),
        "dest": a.dest,
        "default": _jsonable(a.default),
    }
    optional = {
        "nargs": a.nargs,
        "const": _jsonable(a.const),
        "type": getattr(a.type, "__name__", repr(a.type)) if a.type else None,
        "choices": list(a.choices) if a.choices is not None else None,
        "required": a.required or None,
        "metavar": a.metavar,
    }
    record.update({k: v for k, v in optional.items() if v is not None})
    if record["kind"] in ("deprecated_true", "deprecated_const", "lora_paths"):
        record["nargs"] = a.nargs  # these actions choose their own default; keep theirs, None included
    if a.help == argparse.SUPPRESS:
        record["help"] = argparse.SUPPRESS  # hidden from usage: a fact usage shows
    if isinstance(a.choices, (set, frozenset)):
        record["choices_are_a_set"] = True
    extra = {k: _jsonable(v) for k, v in vars(a).items() if k not in _STANDARD}
    if extra:
        record["extra"] = extra
    return record


def main() -> int:
    from sglang.srt.server_args import ServerArgs, prepare_server_args
    from sglang.version import __version__

    cli = argparse.ArgumentParser(prog="sglang serve")
    ServerArgs.add_cli_args(cli)
    record = prepare_server_args(["--model-path", "MODEL"])
    fields = [[name, _jsonable(getattr(record, name))] for name in type(record).__struct_fields__]
    for field in fields:
        if field[0] == "model_path":
            field[1] = None
    payload = {
        "source": f"the command line of the real SGLang {__version__} (CPU env), tests/data/sim/tools/dump_flags.py",
        "sglang_version": __version__,
        "prog": cli.prog,
        "actions": [_action(a) for a in cli._actions],
        "fields": fields,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("{\n")
        for i, (key, value) in enumerate(payload.items()):
            if isinstance(value, list):
                f.write(f" {json.dumps(key)}: [\n")
                f.write(",\n".join("  " + json.dumps(v, ensure_ascii=False) for v in value))
                f.write("\n ]")
            else:
                f.write(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
            f.write(",\n" if i < len(payload) - 1 else "\n")
        f.write("}\n")
    print(f"{len(payload['actions'])} actions, {len(fields)} fields -> {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
