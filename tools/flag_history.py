"""Build strategies/sglang.flag-history.json from the server_args.py of past SGLang releases.

Facts only: which flags each release's parser declared (the ``--x`` strings its
add_argument calls name; for releases that generate the CLI from the ServerArgs fields,
the fields; for 0.5.18+, which build it from the config structs of
``sglang/srt/arg_groups/fields/``, those structs' fields as the CLI spells them), and
the replacements its deprecation messages and deprecated-alias actions name
(``--enable-ep-moe is deprecated. Please set `--ep-size` to the same value as `--tp-size`
instead``; ``new_flag="--cuda-graph-max-bs-decode"``).

    python tools/flag_history.py WHEELS_DIR [-o strategies/sglang.flag-history.json]

WHEELS_DIR holds sglang-*.whl files (``pip download --no-deps sglang==X``), any layout.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

_VERSION = re.compile(r"sglang-(?P<v>[0-9][^-]*)-")
_FLAG = r"--(?P<{}>[a-z0-9][a-z0-9-]*)"
_MESSAGES = (
    # '--disable-flashinfer' is deprecated. Please use '--attention-backend triton' instead.
    re.compile(
        "'?"
        + _FLAG.format("old")
        + r"'? is deprecated\.? Please use '"
        + _FLAG.format("new")
        + r"(?:[ =](?P<value>[A-Za-z0-9_.]+))?' instead"
    ),
    # NOTE: --enable-deepep-moe is deprecated. Please set `--moe-a2a-backend` to 'deepep' instead.
    re.compile(
        _FLAG.format("old")
        + r" is deprecated\.? (?:now\.? )?Please set `"
        + _FLAG.format("new")
        + r"` to '(?P<value>[^']+)'"
    ),
    # --enable-ep-moe is deprecated. Please set `--ep-size` to the same value as `--tp-size` instead.
    re.compile(
        _FLAG.format("old")
        + r" is deprecated\.? Please set `"
        + _FLAG.format("new")
        + r"` to the same value as `"
        + _FLAG.format("source")
        + "`"
    ),
    # Note: --hybrid-kvcache-ratio is deprecated now. Please use --swa-full-tokens-ratio instead.
    re.compile(
        _FLAG.format("old")
        + r" is deprecated(?: now)?\.? Please use `?"
        + _FLAG.format("new")
        + r"(?:[ =](?P<value>[A-Za-z0-9_.]+))?`? instead"
    ),
    # --elastic-ep-rejoin is deprecated, use --elastic-ep-join-mode recover instead.
    re.compile(
        _FLAG.format("old")
        + r" is deprecated[,;] use `?"
        + _FLAG.format("new")
        + r"(?:[ =](?P<value>[A-Za-z0-9_.]+))?`? instead"
    ),
)
_ORDER = re.compile(r"(\d+)|([a-z]+)")


def version_key(version: str) -> tuple[Any, ...]:
    parts: list[Any] = []
    for number, word in _ORDER.findall(version):
        parts.append((1, int(number)) if number else (0 if word in ("rc", "a", "b") else 2, word))
    return tuple(parts)


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def read_release(text: str) -> tuple[set[str], dict[str, dict[str, Any]]]:
    """(flags the parser declares, replacements named by deprecations) of one server_args.py."""
    tree = ast.parse(text)
    flags: set[str] = set()
    replaced: dict[str, dict[str, Any]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "ServerArgs":
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.target.id[:1] != "_":
                    flags.add(item.target.id.replace("_", "-"))
        if not (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument"):
            continue
        names = [
            a.value[2:]
            for a in node.args
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("--")
        ]
        flags.update(names)
        for kw in node.keywords:
            if kw.arg == "new_flag" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                new, _, value = kw.value.value.partition("=")
                if names and re.fullmatch(r"--[a-z0-9-]+", new):
                    entry: dict[str, Any] = {"flag": new[2:]}
                    if value:
                        entry["value"] = value
                    for name in names:
                        replaced.setdefault(name, entry)
    for message in set(_strings(tree)) | {text}:
        for pattern in _MESSAGES:
            for found in pattern.finditer(message):
                groups = found.groupdict()
                entry = {"flag": groups["new"]}
                if groups.get("value"):
                    entry["value"] = groups["value"]
                if groups.get("source"):
                    entry["value_from"] = groups["source"]
                if groups["old"] != groups["new"]:
                    replaced.setdefault(groups["old"], entry)
    return flags, replaced


def read_fields(text: str) -> set[str]:
    """Flags of one ``arg_groups/fields`` module (0.5.18+, where the CLI is generated from
    namespaced config structs): each public field annotated with argument metadata (``A[...]``) under its
    ``cli_name`` (else the field's name), its ``aliases``, and ``--no-x`` for a
    BooleanOptionalAction; fields declared ``no_cli=True`` are resolved, not flags."""
    flags: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.target.id[:1] != "_":
                flags |= _field_flags(item.target.id, item.annotation)
    return flags


def _field_flags(field: str, annotation: ast.expr) -> set[str]:
    if not (isinstance(annotation, ast.Subscript) and _name(annotation.value) in ("A", "Annotated")):
        return set()  # a plain annotation carries no argument metadata: not on the CLI
    said = {kw.arg: kw.value for n in ast.walk(annotation) if isinstance(n, ast.Call) for kw in n.keywords}
    if isinstance(said.get("no_cli"), ast.Constant) and said["no_cli"].value is True:
        return set()
    name = said.get("cli_name")
    flag = name.value[2:] if isinstance(name, ast.Constant) and isinstance(name.value, str) else field.replace("_", "-")
    flags = {flag}
    if "aliases" in said:
        flags.update(s[2:] for s in _strings(said["aliases"]) if re.fullmatch(r"--[a-z0-9][a-z0-9-]*", s))
    action = said.get("action")
    if isinstance(action, ast.Attribute) and action.attr == "BooleanOptionalAction":
        flags.add(f"no-{flag}")
    return flags


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _release_sources(zf: zipfile.ZipFile) -> tuple[str, list[str]] | None:
    """(server_args.py, the field modules it builds its parser from) of one wheel."""
    try:
        main = zf.read("sglang/srt/server_args.py").decode("utf-8")
    except KeyError:
        return None
    fields = sorted(n for n in zf.namelist() if re.fullmatch(r"sglang/srt/arg_groups/fields/\w+\.py", n))
    return main, [zf.read(n).decode("utf-8") for n in fields]


def build(wheels: list[Path]) -> dict[str, Any]:
    releases: dict[str, tuple[str, list[str]]] = {}
    for wheel in wheels:
        match = _VERSION.search(wheel.name)
        if not match:
            continue
        with zipfile.ZipFile(wheel) as zf:
            sources = _release_sources(zf)
        if sources is not None:
            releases[match.group("v")] = sources
    order = sorted(releases, key=version_key)
    flags: dict[str, dict[str, str]] = {}
    replacements: dict[str, dict[str, Any]] = {}
    for version in order:
        main, field_modules = releases[version]
        declared, replaced = read_release(main)
        for module in field_modules:
            declared |= read_fields(module)
        for name in declared:
            seen = flags.setdefault(name, {"first": version, "last": version})
            seen["last"] = version
        for old, entry in replaced.items():
            replacements.setdefault(old, {**entry, "release": version})
    return {
        "source": "server_args.py of the SGLang releases on PyPI listed here, read by tools/flag_history.py",
        "releases": order,
        "flags": dict(sorted(flags.items())),
        "replacements": dict(sorted(replacements.items())),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("wheels", type=Path)
    parser.add_argument("-o", "--output", type=Path, default=Path("strategies/sglang.flag-history.json"))
    args = parser.parse_args()
    data = build(sorted(args.wheels.rglob("sglang-*.whl")))
    args.output.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{len(data['releases'])} releases, {len(data['flags'])} flags, {len(data['replacements'])} replacements")
    return 0


if __name__ == "__main__":
    sys.exit(main())
