"""A launch script's own variables, read as a shell would. Pure.

Operators keep their launch command in a script: assignments first (``TP=16``, ``export
NCCL_IB_HCA=mlx5_0``), then the command that uses them (``--tp $TP``). The assignments on
their own lines above the command are read in order; ``$NAME``, ``${NAME}``,
``${NAME:-default}`` and ``${NAME-default}`` in the command take their values as bash
would, nothing inside single quotes is expanded, and an exported name is also the server's
environment (a plain one is the shell's only). A name the script never sets stays as
written, for the importer to refuse by name. Only plain words are read: a value that needs
the shell to run something (``$(nproc)``, backticks, arithmetic) is not an assignment here.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

_ASSIGNMENT_LINE = re.compile(r"^(?P<export>export\s+)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>.*)$")
_EXPORT_ONLY = re.compile(r"^export\s+(?P<names>[A-Za-z_][A-Za-z0-9_]*(?:\s+[A-Za-z_][A-Za-z0-9_]*)*)\s*$")
_REFERENCE = re.compile(
    r"\$\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?-)(?P<default>[^}]*))?\}|\$(?P<bare>[A-Za-z_][A-Za-z0-9_]*)"
)
_RUNS_SOMETHING = re.compile(r"\$\(|`|\$\[")


@dataclass(frozen=True)
class Script:
    """The command with the script's variables in it, and what was read."""

    command: str
    exported: tuple[tuple[str, str], ...]  # the server's environment, in the script's order
    shell: tuple[str, ...]  # names the shell only held
    unset: tuple[str, ...]  # references to names the script never set, as written


def read_script(text: str) -> Script:
    """The command of a script (the first line that is not a comment, a blank or an
    assignment, with the lines it continues) with the variables set above it expanded."""
    lines = text.replace("\\\r\n", " ").replace("\\\n", " ").splitlines()
    values: dict[str, str] = {}
    exported: dict[str, None] = {}
    start = len(lines)
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        only = _EXPORT_ONLY.match(line)
        if only is not None:
            exported.update(dict.fromkeys(n for n in only.group("names").split() if n in values))
            continue
        found = _ASSIGNMENT_LINE.match(line)
        value = _one_word(found.group("value"), values) if found is not None else None
        if found is None or value is None:
            start = i
            break
        values[found.group("name")] = value
        if found.group("export"):
            exported[found.group("name")] = None
    left: list[str] = []
    command = expand("\n".join(lines[start:]), values, left)
    env = tuple((name, values[name]) for name in exported)
    return Script(command, env, tuple(n for n in values if n not in exported), tuple(left))


def _one_word(value: str, values: dict[str, str]) -> str | None:
    """The value of an assignment as the shell leaves it (quotes removed, earlier names
    expanded); None when it is not one plain word (a command substitution, two words) or
    uses a name nothing set."""
    if _RUNS_SOMETHING.search(value):
        return None
    left: list[str] = []
    expanded = expand(value, values, left)
    if left:
        return None  # a name nothing set: the line is left to the command, refused there
    try:
        words = shlex.split(expanded, comments=True)
    except ValueError:
        return None
    if len(words) > 1:
        return None
    return words[0] if words else ""


def expand(text: str, values: dict[str, str], left: list[str] | None = None) -> str:
    """``text`` with each reference to a known name (or one with a default) replaced, as
    bash expands it outside single quotes. The replacement is quoted so that the shell
    split that follows keeps it one word; ``left`` collects the references kept as
    written (names nothing sets)."""
    out: list[str] = []
    quoted = False  # inside '...'
    doubled = False  # inside "..."
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "'" and not doubled:
            quoted = not quoted
        elif ch == '"' and not quoted:
            doubled = not doubled
        elif ch == "\\" and not quoted and i + 1 < len(text):
            out.append(text[i : i + 2])
            i += 2
            continue
        elif ch == "$" and not quoted:
            found = _REFERENCE.match(text, i)
            meant = _value_of(found, values) if found is not None else None
            if found is not None and meant is not None:
                out.append(re.sub(r'(["\\$`])', r"\\\1", meant) if doubled else shlex.quote(meant))
                i = found.end()
                continue
            if left is not None:
                left.append(found.group(0) if found is not None else "$")
        out.append(ch)
        i += 1
    return "".join(out)


def _value_of(found: re.Match[str], values: dict[str, str]) -> str | None:
    name = found.group("braced") or found.group("bare")
    if found.group("op") is None:
        return values.get(name)
    if found.group("op") == ":-" and not values.get(name):
        return found.group("default")
    if found.group("op") == "-" and name not in values:
        return found.group("default")
    return values[name]
