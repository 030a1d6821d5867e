"""What an operator runs today, as a base config: a systemd unit or a command line.

    from_unit(text, source=..., file_name=..., host=...)   -> Imported
    from_command(text, source=..., host=...)               -> Imported

Pure: the caller reads the file and writes the YAML. The base holds the unit's interpreter
and module, every flag as spelled, its Environment=, its EnvironmentFile= paths (as
``launch.env_files``, read on the host at launch, never here), WorkingDirectory=, name and
Conflicts=. A secret env value (HF_TOKEN=…) is kept out of the YAML: the base points at
autofix's own env file for the unit instead, the one its export uses, and a note says what
to put there. A secret flag's value stays (the command line had it in the clear), and
``holds_secret`` tells the caller to write the file 0600.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

import yaml

from ..errors import InputError
from ..export import secret_env_file, yaml_scalar
from ..secrets import known_secret_flags, secret_env_name, secret_flag_name
from ._command import Command, FlagFacts, parse_command
from ._script import read_script
from ._unitfile import UnitFile, parse_unit, resolve_specifiers, split_words

__all__ = ["Imported", "command_args", "from_command", "from_unit", "parse_command"]


@dataclass(frozen=True)
class Imported:
    yaml_text: str
    notes: tuple[str, ...]  # for the operator: what was moved, dropped or must be put in place
    holds_secret: bool  # a secret flag's value is in the YAML: write it mode 0600


def from_unit(text: str, *, source: str, file_name: str, host: str = "local", name: str | None = None) -> Imported:
    unit = parse_unit(text, source=source, name=file_name if file_name.endswith(".service") else f"{file_name}.service")
    specifiers = unit.specifiers()
    env = _unit_env(unit, specifiers)
    command = _exec_start(unit, specifiers, env)
    unit_name = unit.name.removesuffix(".service")
    conflicts = [c for line in unit.values("Unit", "Conflicts") for c in line.split()]
    cwd = unit.last("Service", "WorkingDirectory")
    notes = list(command.notes)
    if cwd is not None:
        cwd = resolve_specifiers(
            cwd.removeprefix("-"), where=f"{unit.source}: WorkingDirectory=", specifiers=specifiers
        )
        if not cwd.startswith("/"):
            notes.append(f"WorkingDirectory={cwd} is not an absolute path: left out (launch.cwd)")
            cwd = None
    env_files = [
        resolve_specifiers(line.strip(), where=f"{unit.source}: EnvironmentFile=", specifiers=specifiers)
        for line in unit.values("Service", "EnvironmentFile")
    ]
    if user := unit.last("Service", "User"):
        notes.append(f"User={user}: autofix launches candidates as the host's SSH user, not as {user}")
    merged = Command(command.family, command.python, command.module, command.args, tuple(env.items()), ())
    return _base(
        merged,
        source=source,
        name=name or unit_name,
        host=host,
        unit=unit_name,
        conflicts=[c.removesuffix(".service") + ".service" for c in conflicts],
        cwd=cwd,
        env_files=env_files,
        notes=notes,
    )


def from_command(text: str, *, source: str, host: str = "local", name: str | None = None) -> Imported:
    """A command line as a shell would split it (backslash-newline joins lines), or a
    launch script's command with the variables its assignments set (_script)."""
    script = read_script(text)
    if script.unset:
        shown = script.unset[0]
        raise InputError(
            f"{source}: {shown!r} needs the shell's variables: write the values in the command, "
            "or the assignments above it"
        )
    prefix = " ".join(f"{n}={shlex.quote(v)}" for n, v in script.exported)
    try:
        words = shlex.split(f"{prefix} {script.command}" if prefix else script.command, comments=True)
    except ValueError as exc:
        raise InputError(f"{source}: cannot split the command as a shell would: {exc}") from None
    command = parse_command(words, where=source, facts=_facts(), shell=True)
    if script.shell or script.exported:
        read = ", ".join([*script.shell, *(f"{n} (exported: the server's environment)" for n, _ in script.exported)])
        command = replace(command, notes=(*command.notes, f"read from the script: {read}"))
    base_name = name or _name_from(command)
    return _base(
        command,
        source=source,
        name=base_name,
        host=host,
        unit=f"{command.family}-{base_name}",
        conflicts=[],
        cwd=None,
        env_files=[],
        notes=list(command.notes),
    )


def command_args(text: str) -> dict[str, object] | None:
    """The flags of a launch command seen in a log (as spelled, with their values), or None
    when the text is no server command autofix reads. Nothing is refused here: a log is
    evidence, not a base (shell variables stay as written)."""
    try:
        words = shlex.split(text.replace("\\\n", " "), comments=False)
        command = parse_command(words, where="log", facts=_facts(), shell=True)
    except (ValueError, InputError):
        return None
    return dict(command.args)


def _unit_env(unit: UnitFile, specifiers: Mapping[str, str]) -> dict[str, str]:
    env: dict[str, str] = {}
    for line in unit.values("Service", "Environment"):
        for word in split_words(line, where=f"{unit.source}: Environment=", specifiers=specifiers):
            key, sep, value = word.partition("=")
            if not sep or not key:
                raise InputError(f"{unit.source}: Environment= {word!r} is not NAME=value")
            env[key] = value
    return env


def _exec_start(unit: UnitFile, specifiers: Mapping[str, str], env: Mapping[str, str]) -> Command:
    lines = unit.values("Service", "ExecStart")
    if not lines:
        raise InputError(f"{unit.source}: no ExecStart= in [Service]")
    if len(lines) > 1:
        raise InputError(f"{unit.source}: {len(lines)} ExecStart= lines: a server unit runs one command")
    line = lines[0]
    prefix = line[: len(line) - len(line.lstrip("@-:+!"))]  # systemd.service(5)'s special prefixes
    line = line[len(prefix) :]
    expand = ":" not in prefix  # ':' turns off variable expansion
    argv0_next = "@" in prefix
    where = f"{unit.source}: ExecStart="
    words = split_words(line, where=where, specifiers=specifiers, env=env if expand else None)
    if argv0_next and len(words) > 1:
        words = [words[0], *words[2:]]  # @PATH ARGV0 …: the second word is only argv[0]
    command = parse_command(words, where=where, facts=_facts())
    return Command(command.family, command.python, command.module, command.args, (), command.notes)


def _name_from(command: Command) -> str:
    model = dict(command.args).get("model-path") or dict(command.args).get("model") or command.family
    stem = str(model).rstrip("/").rsplit("/", 1)[-1].lower()
    cleaned = "".join(ch if ch.isalnum() or ch in "._-" else "-" for ch in stem).strip("-.")
    return cleaned or command.family


def _base(
    command: Command,
    *,
    source: str,
    name: str,
    host: str,
    unit: str,
    conflicts: list[str],
    cwd: str | None,
    env_files: list[str],
    notes: list[str],
) -> Imported:
    plain_env = {k: v for k, v in command.env if not secret_env_name(k)}
    secret_env = [k for k, _ in command.env if secret_env_name(k)]
    if secret_env:
        ours = f"-{secret_env_file(unit)}"
        if not {ours, ours[1:]} & set(env_files):
            env_files.append(ours)
        names = ", ".join(f"{k}=…" for k in secret_env)
        notes.append(f"kept out of the YAML: put {names} in {ours[1:]} on the host (mode 0600)")
    secret_flags = sorted({f for f, v in command.args if v is not True and _secret_flag(f)})
    if secret_flags:
        shown = ", ".join(f"--{f}" for f in secret_flags)
        notes.append(
            f"{shown}: a secret the command had in the clear; the YAML holds it (mode 0600), no store or export will"
        )
    launch: dict[str, object] = {"python": command.python, "module": command.module}
    if cwd:
        launch["cwd"] = cwd
    launch["args"] = {flag: _yaml_value(value) for flag, value in command.args}
    launch["env"] = plain_env
    if env_files:
        launch["env_files"] = env_files
    data: dict[str, object] = {
        "name": name,
        "target": command.family,
        "host": host,
        "service": {"manager": "systemd", "unit": unit, "conflicts": conflicts},
        "launch": launch,
    }
    header = (
        f"# Imported by autofix init from {_comment(source)}.\n"
        "# Gates and search budget are autofix's defaults (README: Base config); pin what must not change.\n"
    )
    body = yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1 << 30)
    return Imported(header + body, tuple(notes), bool(secret_flags))


def _secret_flag(flag: str) -> bool:
    bare = flag.lstrip("- ").replace("_", "-")
    return bare in known_secret_flags() or secret_flag_name(bare)


def _yaml_value(value: object) -> object:
    if isinstance(value, list):
        return [yaml_scalar(v) for v in value]
    return yaml_scalar(value)


def _comment(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text)


@lru_cache(maxsize=1)
def _facts() -> dict[str, FlagFacts]:
    """How many words each flag takes, from strategies/<family>.flags.json (the parsers'
    facts as shipped: a packaged data file, read once)."""
    from ..resources import data_path

    out: dict[str, FlagFacts] = {}
    for family in ("sglang", "vllm"):
        try:
            data = json.loads((data_path("strategies") / f"{family}.flags.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        kinds = {str(f): str(i.get("kind")) for f, i in (data.get("flags") or {}).items() if isinstance(i, dict)}
        out[family] = FlagFacts(kinds, {str(a): str(f) for a, f in (data.get("aliases") or {}).items()})
    return out
