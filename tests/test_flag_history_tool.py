"""tools/flag_history.py: the flag history read from release wheels, and the shipped history.

Releases from 0.5.18 on build their parser from namespaced config structs under
``sglang/srt/arg_groups/fields/`` rather than add_argument calls in server_args.py; the
history must read those (each field's CLI name, aliases, --no- twins, and not the fields
kept off the CLI), or every flag added after 0.5.16 looks unknown to it and an older host
cannot tell a newer release's flag from a typo.
"""

from __future__ import annotations

import io
import json
import runpy
import zipfile
from pathlib import Path
from typing import Any

from autofix.catalog import load_catalog
from autofix.model import Candidate, EditOp
from autofix.renames import meaning, rename_move

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> dict[str, Any]:
    """tools/flag_history.py's globals (a script, not a package module)."""
    return runpy.run_path(str(ROOT / "tools" / "flag_history.py"), run_name="flag_history")


# A fields module in the shape 0.5.18+ declares its flags (our own example text).
FIELDS = """
import argparse
import msgspec
from typing import Optional

class Widgets(msgspec.Struct):
    _NS_PATH = "widgets"
    widget_size: A[int, "How big."] = 4
    widget_mode: A[str, Arg(help="Mode.", cli_name="--widget-style", choices=["a", "b"])] = "a"
    widget_count: A[int, Arg(help="Count.", aliases=["--widgets", "--num-widgets"])] = 1
    widget_fast: A[Optional[bool], Arg(help="Fast.", action=argparse.BooleanOptionalAction)] = None
    widget_secret: A[str, Arg(help="Resolved from --widget-style.", no_cli=True)] = ""
    widget_hook: Optional[object] = None
    _private: A[int, "Not a flag."] = 0
"""


def test_a_fields_module_declares_flags_by_name_cli_name_alias_and_negation() -> None:
    flags = _tool()["read_fields"](FIELDS)
    assert flags == {
        "widget-size",
        "widget-style",
        "widget-count",
        "widgets",
        "num-widgets",
        "widget-fast",
        "no-widget-fast",
    }


def _wheel(path: Path, version: str, server_args: str, fields: dict[str, str]) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("sglang/srt/server_args.py", server_args)
        for name, text in fields.items():
            zf.writestr(f"sglang/srt/arg_groups/fields/{name}.py", text)
    wheel = path / f"sglang-{version}-py3-none-any.whl"
    wheel.write_bytes(buffer.getvalue())
    return wheel


def test_build_spans_add_argument_releases_and_field_module_releases(tmp_path: Path) -> None:
    old = 'import argparse\np = argparse.ArgumentParser()\np.add_argument("--widget-size", type=int)\np.add_argument("--old-knob")\n'
    wheels = [
        _wheel(tmp_path, "0.5.16", old, {}),
        _wheel(tmp_path, "0.5.18", "class ServerArgs:\n    pass\n", {"widgets": FIELDS}),
    ]
    data = _tool()["build"](wheels)
    assert data["releases"] == ["0.5.16", "0.5.18"]
    assert data["flags"]["widget-size"] == {"first": "0.5.16", "last": "0.5.18"}
    assert data["flags"]["old-knob"] == {"first": "0.5.16", "last": "0.5.16"}
    assert data["flags"]["widget-style"] == {"first": "0.5.18", "last": "0.5.18"}


def test_the_shipped_history_ends_at_the_bundled_parsers_release_with_its_flags() -> None:
    """The last release the history read is the one strategies/sglang.flags.json was probed
    from, and it declares exactly that parser's flags and aliases."""
    history = json.loads((ROOT / "strategies" / "sglang.flag-history.json").read_text())
    parser = json.loads((ROOT / "strategies" / "sglang.flags.json").read_text())
    last = history["releases"][-1]
    assert last == parser["version"]
    declared = {flag for flag, seen in history["flags"].items() if seen["last"] == last}
    assert declared == set(parser["flags"]) | set(parser["aliases"])


def test_on_an_older_host_every_flag_of_later_releases_goes_in_one_move() -> None:
    """0.5.23's KV sharding and prefill context-parallel flags on a host that has none of
    them: not typos to rename one by one but a newer release's flags, all dropped at once."""
    catalog = load_catalog()
    newer = ["enable-kv-cache-sharding", "enable-prefill-cp", "attn-cp-size", "cp-strategy"]
    facts = {"flags": {k: {"kind": v.kind} for k, v in catalog.flags.items() if k not in newer}, "aliases": {}}
    host = catalog.with_parser(facts, "0.4.10.post2")
    for flag in newer:
        found = meaning(flag, host)
        assert found is not None and found.dropped, flag
    candidate = Candidate.build(
        {
            "tp-size": "2",
            "enable-prefill-cp": True,
            "attn-cp-size": "2",
            "cp-strategy": "zigzag",
            "enable-kv-cache-sharding": True,
        }
    )
    move = rename_move(candidate, host)
    assert move is not None
    assert sorted(e.target for e in move.edits if e.op is EditOp.DROP) == sorted(newer)
