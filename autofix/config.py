"""Base config: the user's YAML -> a validated, frozen :class:`BaseConfig`.

Pure: :func:`parse_base` takes the text and the name to blame in errors; only
:func:`load_base` reads a file. Every key has a default except ``launch.args``; unknown
keys, wrong types, flag names that could not reach argv as the user's words and values that could not reach a
process as one argument are refused with one line naming the file and the key path.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import yaml

from .errors import ConfigError
from .model import Candidate

FLAG_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# A flag as the user's command spelled it (``reasoning_parser``, ``---page-size``,
# ``Trust-Remote-Code``, ``a--b``, a split ``- -flag``): the repair maps it to what the
# target's parser knows. One or two words of letters, digits, ``_ . -``; nothing a shell,
# a unit file or argv would read otherwise (no '=', quotes, control characters).
FLAG_SPELLING = re.compile(r"^-*[A-Za-z0-9_][A-Za-z0-9_.-]*$|^-+ -+[A-Za-z0-9_][A-Za-z0-9_.-]*$")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
UNIT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9:_.@-]*$")
MODULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
HOST_SPEC = re.compile(r"^(?:[A-Za-z0-9._-]+@)?(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$")
NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
DURATION = re.compile(r"^\s*(?:(\d+(?:\.\d+)?)h)?\s*(?:(\d+(?:\.\d+)?)m)?\s*(?:(\d+(?:\.\d+)?)s?)?\s*$")

MANAGERS = ("systemd", "process")
DEFAULT_PINNED = ("model-path", "tp", "tp-size", "speculative-algorithm", "speculative-draft-model-path")
# The engines autofix drives; a base names one (``target:``) or its launch.module tells.
FAMILIES = ("sglang", "vllm")
DEFAULT_MODULES = {"sglang": "sglang.launch_server", "vllm": "vllm.entrypoints.cli.main"}
# vLLM: the model, its parallel layout and the speculative method and draft model (keys of
# --speculative-config) are the user's intent.
VLLM_PINNED = (
    "model",
    "tensor-parallel-size",
    "pipeline-parallel-size",
    "speculative-config.method",
    "speculative-config.model",
)
# A flag, or one key of a JSON-valued flag (speculative-config.method).
PINNED_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[A-Za-z_][A-Za-z0-9_]*)?$")


@dataclass(frozen=True)
class ServiceConfig:
    manager: str = "systemd"
    unit: str = ""
    conflicts: tuple[str, ...] = ()


@dataclass(frozen=True)
class LaunchConfig:
    python: str = "python3"
    module: str = "sglang.launch_server"
    cwd: str | None = None

    @property
    def subcommand(self) -> tuple[str, ...]:
        """Words before the flags: ``vllm serve`` is ``python -m vllm.entrypoints.cli.main serve``."""
        return ("serve",) if self.module == "vllm.entrypoints.cli.main" else ()


@dataclass(frozen=True)
class GatesConfig:
    preflight_timeout: float = 120.0
    start_settle: float = 20.0
    ready_timeout: float = 900.0
    smoke_max_tokens: int = 16
    smoke_prompt: str = "Say hello in one short sentence."
    bench_min_tokens_per_s: float | None = None
    bench_concurrency: int = 8
    bench_max_tokens: int = 64


@dataclass(frozen=True)
class SearchConfig:
    max_attempts: int = 12
    max_time: float = 7200.0
    pinned: tuple[str, ...] = DEFAULT_PINNED


@dataclass(frozen=True)
class BaseConfig:
    name: str
    base: Candidate
    host: str = "local"
    service: ServiceConfig = field(default_factory=ServiceConfig)
    launch: LaunchConfig = field(default_factory=LaunchConfig)
    gates: GatesConfig = field(default_factory=GatesConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    source: str = "<config>"
    text: str = ""
    target: str = "sglang"  # the engine: sglang | vllm

    @property
    def unit(self) -> str:
        return self.service.unit or f"{self.target}-{self.name}"


# --- the schema: key -> checker; nested dicts are sections -------------------------------

_SCHEMA: dict[str, Any] = {
    "name": "unit_name",
    "target": "family",
    "host": "host",
    "service": {"manager": "manager", "unit": "unit_name", "conflicts": "unit_list"},
    "launch": {"python": "command", "module": "module", "args": "args", "env": "env", "cwd": "path"},
    "gates": {
        "preflight": {"timeout": "seconds"},
        "start": {"settle": "seconds"},
        "ready": {"timeout": "seconds"},
        "smoke": {"max_tokens": "count", "prompt": "text"},
        "bench": {"min_tokens_per_s": "number", "concurrency": "count", "max_tokens": "count"},
    },
    "search": {"max_attempts": "count", "max_time": "duration", "pinned": "flag_list"},
}


def load_base(path: str | Path) -> BaseConfig:
    """Read and validate a base config file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(str(path), "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), "", f"cannot read: {exc}") from None
    return parse_base(text, source=str(path), default_name=p.stem)


def parse_base(text: str, *, source: str = "<config>", default_name: str = "sglang") -> BaseConfig:
    """Validate base-config YAML text; ``source`` is what errors name."""
    data = _load_yaml(text, source)
    if not isinstance(data, Mapping):
        raise ConfigError(source, "", "the top level must be a mapping of keys (name, host, launch …)")
    _check_keys(data, _SCHEMA, source, "")
    launch = _section(data, "launch", source)
    if "args" not in launch or launch["args"] is None:
        raise ConfigError(source, "launch.args", "required: the flags of the launch")

    args = _check_args(launch["args"], source)
    env = _check_env(launch.get("env") or {}, source)
    service = _section(data, "service", source)
    gates = _section(data, "gates", source)
    search = _section(data, "search", source)

    name = _opt(data, "name", source, "", default_name)
    if not UNIT_NAME.match(name):
        name = re.sub(r"[^A-Za-z0-9:_.@-]", "-", name).strip("-") or "sglang"
    manager = _opt(service, "manager", source, "service", "systemd")
    family = _family(data.get("target"), launch.get("module"), source)
    default_pinned = VLLM_PINNED if family == "vllm" else DEFAULT_PINNED
    return BaseConfig(
        name=name,
        base=Candidate.build(args, env),
        host=_opt(data, "host", source, "", "local"),
        service=ServiceConfig(
            manager=manager,
            unit=_opt(service, "unit", source, "service", ""),
            conflicts=tuple(_opt(service, "conflicts", source, "service", [])),
        ),
        launch=LaunchConfig(
            python=_opt(launch, "python", source, "launch", "python3"),
            module=_opt(launch, "module", source, "launch", DEFAULT_MODULES[family]),
            cwd=_opt(launch, "cwd", source, "launch", None),
        ),
        gates=GatesConfig(
            preflight_timeout=_gate(gates, "preflight", "timeout", source, 120.0),
            start_settle=_gate(gates, "start", "settle", source, 20.0),
            ready_timeout=_gate(gates, "ready", "timeout", source, 900.0),
            smoke_max_tokens=int(_gate(gates, "smoke", "max_tokens", source, 16)),
            smoke_prompt=str(_gate(gates, "smoke", "prompt", source, GatesConfig.smoke_prompt)),
            bench_min_tokens_per_s=_gate(gates, "bench", "min_tokens_per_s", source, None),
            bench_concurrency=int(_gate(gates, "bench", "concurrency", source, 8)),
            bench_max_tokens=int(_gate(gates, "bench", "max_tokens", source, 64)),
        ),
        search=SearchConfig(
            max_attempts=_opt(search, "max_attempts", source, "search", 12),
            max_time=_opt(search, "max_time", source, "search", 7200.0),
            pinned=tuple(_opt(search, "pinned", source, "search", list(default_pinned))),
        ),
        source=source,
        text=text,
        target=family,
    )


def _family(declared: object, module: object, source: str) -> str:
    """The engine a base drives: its ``target:``, else what launch.module names."""
    detected = "vllm" if isinstance(module, str) and module.split(".")[0] == "vllm" else "sglang"
    if declared is None:
        return detected
    if declared != detected and module is not None:
        raise ConfigError(source, "target", f"{declared} does not run launch.module {module}")
    return str(declared)


# --- YAML with duplicate keys refused ------------------------------------------------------


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key written twice (PyYAML silently keeps the last)."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"key {key!r} appears twice", key_node.start_mark)
        seen.add(key)
    return dict(loader.construct_mapping(node, deep=deep))


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _load_yaml(text: str, source: str) -> Any:
    if "\x00" in text:
        raise ConfigError(source, "", "the file contains a NUL byte")
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(source, "", f"not valid YAML{where}: {problem}") from None


# --- checks --------------------------------------------------------------------------------


def _check_keys(data: Mapping[Any, Any], schema: Mapping[str, Any], source: str, prefix: str) -> None:
    for key, value in data.items():
        path = f"{prefix}{key}"
        if not isinstance(key, str) or key not in schema:
            hint = difflib.get_close_matches(str(key), list(schema), n=1)
            more = f" (did you mean {prefix}{hint[0]}?)" if hint else f" (known: {', '.join(schema)})"
            raise ConfigError(source, path, f"unknown key{more}")
        rule = schema[key]
        if isinstance(rule, dict):
            if value is None:
                continue
            if not isinstance(value, Mapping):
                raise ConfigError(source, path, "must be a mapping")
            _check_keys(value, rule, source, f"{path}.")
        else:
            _CHECKS[rule](value, source, path)


def _section(data: Mapping[str, Any], key: str, source: str) -> Mapping[str, Any]:
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


def _opt(section: Mapping[str, Any], key: str, source: str, prefix: str, default: Any) -> Any:
    value = section.get(key)
    if value is None:
        return default
    if key == "max_time":
        return _duration(value, source, f"{prefix}.{key}")
    return value


def _gate(gates: Mapping[str, Any], gate: str, key: str, source: str, default: Any) -> Any:
    section = gates.get(gate)
    if not isinstance(section, Mapping) or section.get(key) is None:
        return default
    value = section[key]
    return float(value) if isinstance(value, int | float) and key not in ("max_tokens", "concurrency") else value


def _fail(source: str, path: str, problem: str) -> NoReturn:
    raise ConfigError(source, path, problem)


def _text_value(value: object, source: str, path: str) -> None:
    if not isinstance(value, str):
        _fail(source, path, f"must be text, got {type(value).__name__}")
    if "\n" in value or "\r" in value or "\x00" in value:
        _fail(source, path, "must be one line (no newline or NUL)")


def _check_scalar_arg(value: object, source: str, path: str) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int | float):
        if value != value or value in (float("inf"), float("-inf")):
            _fail(source, path, "must be a finite number")
        return
    if not isinstance(value, str):
        _fail(source, path, f"must be a string, number or true/false, got {type(value).__name__}")
    if "\n" in value or "\r" in value or "\x00" in value:
        _fail(source, path, "must be one line (no newline or NUL): it must reach the server as one argument")
    if value.startswith("-") and not NUMBER.match(value):
        _fail(source, path, f"value {value!r} starts with '-' and would be read as a flag")


def _check_args(value: object, source: str) -> dict[str, object]:
    if not isinstance(value, Mapping):
        raise ConfigError(source, "launch.args", "must be a mapping of flag: value (flags without '--')")
    for flag, v in value.items():
        path = f"launch.args.{flag}"
        if not isinstance(flag, str) or not FLAG_SPELLING.match(flag):
            hint = " (write 'flag: value', not 'flag=value')" if "=" in str(flag) else ""
            raise ConfigError(
                source, path, f"flag names are letters, digits, '_', '.' and '-' (one word, no spaces){hint}"
            )
        if isinstance(v, list):
            if not v:
                _fail(source, path, "an empty list: write null or false to leave the flag out")
            for i, item in enumerate(v):
                if isinstance(item, bool) or item is None or isinstance(item, list | dict):
                    _fail(source, f"{path}[{i}]", "list items must be strings or numbers")
                _check_scalar_arg(item, source, f"{path}[{i}]")
        elif isinstance(v, Mapping):
            _check_json_object(v, source, path)
        else:
            _check_scalar_arg(v, source, path)
    if value.get("port") is not None and value["port"] is not False:
        _check_port(value["port"], source, "launch.args.port")
    return dict(value)


def _check_json_object(value: Mapping[Any, Any], source: str, path: str, depth: int = 0) -> None:
    """A flag written as a mapping reaches the server as one JSON argument
    (``speculative-config: {method: eagle3, num_speculative_tokens: 3}``)."""
    if depth > 8:
        _fail(source, path, "nested too deep for a JSON-valued flag")
    for key, item in value.items():
        where = f"{path}.{key}"
        if not isinstance(key, str):
            _fail(source, where, "keys of a JSON-valued flag must be text")
        if isinstance(item, Mapping):
            _check_json_object(item, source, where, depth + 1)
        elif isinstance(item, list):
            for i, element in enumerate(item):
                if isinstance(element, Mapping):
                    _check_json_object(element, source, f"{where}[{i}]", depth + 1)
                elif not (element is None or isinstance(element, bool | int | float | str)):
                    _fail(source, f"{where}[{i}]", "must be text, a number, true/false or null")
        elif not (item is None or isinstance(item, bool | int | float | str)):
            _fail(source, where, "must be text, a number, true/false, null, a list or a mapping")
        if isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
            _fail(source, where, "must be a finite number")
        if isinstance(item, str) and ("\x00" in item):
            _fail(source, where, "must not contain a NUL byte")


def _check_port(value: object, source: str, path: str) -> None:
    """autofix itself talks to the server on this port: it must be one."""
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit() or not 1 <= int(text) <= 65535:
        _fail(source, path, f"must be a TCP port number (1-65535), got {value!r}")


def _check_env(value: object, source: str) -> dict[str, object]:
    if not isinstance(value, Mapping):
        raise ConfigError(source, "launch.env", "must be a mapping of NAME: value")
    for name, v in value.items():
        path = f"launch.env.{name}"
        if not isinstance(name, str) or not ENV_NAME.match(name):
            raise ConfigError(
                source, path, "environment names are letters, digits and '_' and do not start with a digit"
            )
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            _fail(source, path, "must be a string or a number")
        _text_value(str(v), source, path)
    return dict(value)


def _duration(value: object, source: str, path: str) -> float:
    if isinstance(value, bool):
        _fail(source, path, "must be seconds or a duration like 2h, 90m, 1h30m")
    if isinstance(value, int | float):
        if value <= 0:
            _fail(source, path, "must be positive")
        return float(value)
    match = DURATION.match(str(value)) if isinstance(value, str) and value.strip() else None
    if not match or not any(match.groups()):
        _fail(source, path, "must be seconds or a duration like 2h, 90m, 1h30m")
    hours, minutes, seconds = (float(g) if g else 0.0 for g in match.groups())
    total = hours * 3600 + minutes * 60 + seconds
    if total <= 0:
        _fail(source, path, "must be positive")
    return total


def _positive_number(value: object, source: str, path: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        _fail(source, path, "must be a positive number")


def _count(value: object, source: str, path: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        _fail(source, path, "must be a positive whole number")


def _unit_name(value: object, source: str, path: str) -> None:
    _text_value(value, source, path)
    if not UNIT_NAME.match(str(value)):
        _fail(source, path, "must be a unit name: letters, digits and :_.@- only")


def _unit_list(value: object, source: str, path: str) -> None:
    if not isinstance(value, list):
        _fail(source, path, "must be a list of unit names")
    for i, item in enumerate(value):
        _unit_name(item, source, f"{path}[{i}]")


def _flag_list(value: object, source: str, path: str) -> None:
    if not isinstance(value, list):
        _fail(source, path, "must be a list of flag names (without '--')")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not PINNED_NAME.match(item):
            _fail(
                source,
                f"{path}[{i}]",
                "flag names are lowercase letters, digits and dashes ([a-z0-9-]+), "
                "or flag.key for one key of a JSON-valued flag",
            )


def _family_name(value: object, source: str, path: str) -> None:
    if value not in FAMILIES:
        _fail(source, path, f"must be one of {', '.join(FAMILIES)}")


def _host(value: object, source: str, path: str) -> None:
    _text_value(value, source, path)
    if not HOST_SPEC.match(str(value)):
        _fail(source, path, "must be sim, local, or [user@]address[:port]")


def _manager(value: object, source: str, path: str) -> None:
    if value not in MANAGERS:
        _fail(source, path, f"must be one of {', '.join(MANAGERS)}")


def _command(value: object, source: str, path: str) -> None:
    _text_value(value, source, path)
    if not re.match(r"^[A-Za-z0-9_./+-]+$", str(value)):
        _fail(source, path, "must be a path to a Python interpreter (no spaces or shell characters)")


def _module(value: object, source: str, path: str) -> None:
    _text_value(value, source, path)
    if not MODULE_NAME.match(str(value)):
        _fail(source, path, "must be a dotted Python module name, like sglang.launch_server")


def _path(value: object, source: str, path: str) -> None:
    _text_value(value, source, path)
    if not str(value).startswith("/"):
        # On the host, relative to what? systemd's WorkingDirectory= takes absolute paths only.
        _fail(source, path, f"must be an absolute path on the host, got {value!r}")


_CHECKS: dict[str, Any] = {
    "unit_name": _unit_name,
    "unit_list": _unit_list,
    "family": _family_name,
    "flag_list": _flag_list,
    "host": _host,
    "manager": _manager,
    "command": _command,
    "module": _module,
    "path": _path,
    "text": _text_value,
    "args": lambda v, s, p: None,  # checked with the launch section
    "env": lambda v, s, p: None,
    "seconds": _positive_number,
    "number": _positive_number,
    "count": _count,
    "duration": _duration,
}


def parse_duration(value: str, *, source: str = "--max-time", key: str = "") -> float:
    """Parse a command-line duration (seconds or 2h / 90m / 1h30m)."""
    try:
        number = float(value)
    except ValueError:
        return _duration(value, source, key)
    return _duration(number, source, key)
