"""Base config: the user's YAML -> a validated, frozen :class:`BaseConfig`.

Pure: :func:`parse_base` takes the text and the name to blame in errors; only
:func:`load_base` reads a file. Every key has a default except ``launch.args``; unknown
keys, wrong types, flag names that could not reach argv as the user's words and values that could not reach a
process as one argument are refused with one line naming the file and the key path.
So is YAML that would break the loader itself: more than 1 MB, nesting deeper than 64
levels, an integer past Python's 4,300-digit limit, a lone surrogate (``"\ud800"``) or a
Unicode noncharacter (systemd refuses a unit line that holds one). Merge keys (``<<:``)
work, as operators use them for shared blocks.

The config's secrets (autofix/secrets.py) are found on the parsed data, and
:attr:`BaseConfig.stored_text` is the config written out again from that data with them
replaced: the only text of it the store ever sees.
"""

from __future__ import annotations

import difflib
import json
import re
import sys
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn

import yaml

from .catalog import SWITCH_VERBS, Equivalent, normal_form, parse_equivalents, wrapped_name
from .errors import CatalogError, ConfigError
from .meant import has_reading, port_in
from .model import REDACTED, Candidate
from .secrets import Secrets, known_secret_flags, known_untexted_flags, secret_env_name, secret_flag_name

FLAG_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*\Z")
# A flag as the user's command spelled it (``reasoning_parser``, ``---page-size``,
# ``Trust-Remote-Code``, ``a--b``, a split ``- -flag``): the repair maps it to what the
# target's parser knows. One or two words of letters, digits, ``_ . -``; nothing a shell,
# a unit file or argv would read otherwise (no '=', quotes, control characters). Every
# name pattern ends in \Z: $ would also match before a final newline.
FLAG_SPELLING = re.compile(r"^-*[A-Za-z0-9_][A-Za-z0-9_.-]*\Z|^-+ -+[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")
UNIT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9:_.@-]*\Z")
ENV_FILE = re.compile(r"^-?/[A-Za-z0-9_./@:+-]*\Z")
MODULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
HOST_SPEC = re.compile(r"^(?:[A-Za-z0-9._-]+@)?(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?\Z")
NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\Z")
DURATION = re.compile(r"^\s*(?:(\d+(?:\.\d+)?)h)?\s*(?:(\d+(?:\.\d+)?)m)?\s*(?:(\d+(?:\.\d+)?)s?)?\s*$")

MANAGERS = ("systemd", "process")
MAX_BASE_BYTES = 1 << 20
MAX_DEPTH = 64
SECRET_ARGS_FLAG = "config"  # SGLang's --config FILE: how secret flags reach the server
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
PINNED_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[A-Za-z_][A-Za-z0-9_]*)?\Z")


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
    # Files on the host read at every launch as systemd reads EnvironmentFile= (a leading
    # "-": may be missing): where the operator's unit keeps its secrets. autofix never reads
    # them on the controller, so their values reach no store, log or export.
    env_files: tuple[str, ...] = ()

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
    secrets: tuple[str, ...] = ()  # the user's own secret env/flag names


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
    text: str = ""  # as the user wrote it, secrets included: kept in memory only
    target: str = "sglang"  # the engine: sglang | vllm
    secrets: Secrets = field(default_factory=Secrets)
    stored_text: str = ""  # the config written again with its secrets redacted (what the store keeps)

    @property
    def unit(self) -> str:
        return self.service.unit or f"{self.target}-{self.name}"


# --- the schema: key -> checker; nested dicts are sections -------------------------------

_SCHEMA: dict[str, Any] = {
    "name": "unit_name",
    "target": "family",
    "host": "host",
    "service": {"manager": "manager", "unit": "unit_name", "conflicts": "unit_list"},
    "launch": {
        "python": "command",
        "module": "module",
        "args": "args",
        "env": "env",
        "env_files": "env_file_list",
        "cwd": "path",
    },
    "gates": {
        "preflight": {"timeout": "seconds"},
        "start": {"settle": "seconds"},
        "ready": {"timeout": "seconds"},
        "smoke": {"max_tokens": "count", "prompt": "text"},
        "bench": {"min_tokens_per_s": "number", "concurrency": "count", "max_tokens": "count"},
    },
    "search": {"max_attempts": "count", "max_time": "duration", "pinned": "flag_list", "secrets": "name_list"},
}


def load_base(path: str | Path) -> BaseConfig:
    """Read and validate a base config file."""
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            data = fh.read(MAX_BASE_BYTES + 1)  # never more: a base may be /dev/zero
            if len(data) > MAX_BASE_BYTES:
                size = max(fh.seek(0, 2), len(data))
                raise ConfigError(str(path), "", _too_big(size))
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(str(path), "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), "", f"cannot read: {exc}") from None
    return parse_base(text, source=str(path), default_name=p.stem)


def _too_big(size: int) -> str:
    return f"{size / (1 << 20):.1f} MB: a base config is at most 1 MB (is it the right file?)"


def parse_base(
    text: str,
    *,
    source: str = "<config>",
    default_name: str = "sglang",
    secret_flags: Collection[str] | None = None,
) -> BaseConfig:
    """Validate base-config YAML text; ``source`` is what errors name. ``secret_flags``:
    the flags the target's parser documents as secrets (default: strategies' facts)."""
    if len(text) > MAX_BASE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BASE_BYTES:
        raise ConfigError(source, "", _too_big(len(text.encode("utf-8", "surrogatepass"))))
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
    _check_value_types(args, family, source)
    default_pinned = VLLM_PINNED if family == "vllm" else DEFAULT_PINNED
    base = Candidate.build(args, env)
    own = tuple(_opt(search, "secrets", source, "search", []))
    secrets = _find_secrets(base, own, known_secret_flags() if secret_flags is None else secret_flags)
    _check_secret_args(base, secrets, source)
    return BaseConfig(
        name=name,
        base=base,
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
            env_files=tuple(_opt(launch, "env_files", source, "launch", [])),
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
            secrets=own,
        ),
        source=source,
        text=text,
        target=family,
        secrets=secrets,
        stored_text=_stored_text(data, secrets, source),
    )


# The parser types whose values autofix can check at load, as argparse would convert them.
_NUMBER_TYPES = {"int": "an integer", "float": "a number"}


@lru_cache(maxsize=4)
def _flag_types(family: str) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """flag -> its parser type, alias -> flag, and flag -> its kind (value, bool, list),
    from strategies/<family>.flags.json (the target's own parser as dumped: facts). Empty
    when the table is missing."""
    try:
        data = json.loads(_strategy_text(f"{family}.flags.json"))
    except (OSError, ValueError):
        return {}, {}, {}
    entries = {str(f): i for f, i in (data.get("flags") or {}).items() if isinstance(i, dict)}
    flags = {f: str(i.get("type")) for f, i in entries.items()}
    kinds = {f: str(i.get("kind")) for f, i in entries.items()}
    aliases = {str(a): str(f) for a, f in (data.get("aliases") or {}).items()}
    return flags, aliases, kinds


@lru_cache(maxsize=4)
def _hardware_counts(family: str) -> frozenset[str]:
    """The sizes that count the hardware one server takes (the strategies' ``gpu_counts``:
    tp, pp, dp, nodes); empty when the family has none."""
    try:
        data = yaml.safe_load(_strategy_text(f"{family}.yaml")) or {}
    except (OSError, yaml.YAMLError):
        return frozenset()
    return frozenset(str(f) for f in data.get("gpu_counts") or ())


def _foreign_switch(
    spelling: str, flag: str, flags: Mapping[str, str], aliases: Mapping[str, str], family: str
) -> bool:
    """Whether ``spelling``, which the parser reads as a prefix of ``flag``, is another
    engine's flag for another SGLang flag's job (strategies/<family>.equivalents.json)."""
    if spelling in flags or spelling in aliases:
        return False
    reading = _equivalents(family).get(normal_form(spelling))
    return reading is not None and reading.flag != flag


def _switch_meant(
    spelling: str, flags: Mapping[str, str], aliases: Mapping[str, str], kinds: Mapping[str, str]
) -> bool:
    """Whether ``spelling``, no flag or alias itself, is a switch's name without its verb
    (torch-compile of --enable-torch-compile)."""
    if spelling in flags or spelling in aliases:
        return False
    return any(kinds.get(f"{verb}-{spelling}", "").startswith("bool") for verb in SWITCH_VERBS)


@lru_cache(maxsize=4)
def _equivalents(family: str) -> Mapping[str, Equivalent]:
    """Other engines' flags read as the family's (facts); empty when there is no table."""
    name = f"{family}.equivalents.json"
    try:
        return parse_equivalents(name, _strategy_text(name))
    except (OSError, CatalogError):
        return {}


def _strategy_text(name: str) -> str:
    """A file of strategies/ (the installed copy, or the checkout's); OSError when missing."""
    from .resources import data_path

    return (data_path("strategies") / name).read_text(encoding="utf-8")


def _known_flag(spelling: str, flags: Mapping[str, str], aliases: Mapping[str, str]) -> str | None:
    """The flag a spelling names as the parser reads it: itself, an alias, or a prefix that
    names one flag only (argparse's abbreviations: --tp is --tp-size)."""
    if spelling in flags:
        return spelling
    if spelling in aliases:
        return aliases[spelling]
    named = {aliases.get(n, n) for n in (*flags, *aliases) if n.startswith(spelling)}
    return named.pop() if len(named) == 1 else None


def _check_value_types(args: Mapping[str, object], family: str, source: str) -> None:
    """A value that is no number in any spelling (``tp: eight``) for a flag the target's
    parser reads as a number is bad input found at load, naming the key, not a search that
    dies in argparse. A number spelled the parser's way or not (``2.0`` for an int,
    ``0,85``), or a word a reading knows (``auto``, ``unlimited``), is left to the search,
    whose repair reads what the user meant."""
    flags, aliases, kinds = _flag_types(family)

    def parser_has(name: str) -> bool:
        return name in flags or name in aliases

    for spelling, value in args.items():
        flag = _known_flag(str(spelling), flags, aliases)
        what = _NUMBER_TYPES.get(flags.get(flag, "")) if flag else None
        if what is None or value is None or value is False:
            continue
        # Given no value (True: an unset variable's place, an old switch's spelling): argparse
        # says "expected one argument" and the search gives it the value the command means;
        # not a size that counts the hardware (GPUs, nodes), which no search should guess.
        if value is True and flag not in _hardware_counts(family):
            continue
        # A switch under a prefix that is another engine's switch for another job
        # (llama.cpp's --swa-full, SGLang's --swa-full-tokens-ratio); words after a value
        # that takes one are a paste's positional arguments: both the search's to read.
        if value is True and _foreign_switch(str(spelling), str(flag), flags, aliases, family):
            continue
        # A switch whose name stands inside another switch's (--torch-compile, a prefix of
        # --torch-compile-max-bs to argparse, means --enable-torch-compile): the search's.
        if value is True and _switch_meant(str(spelling), flags, aliases, kinds):
            continue
        items = value if isinstance(value, list) else [value]
        # A name wrapped onto the next line of a pasted command (--node-r / ank 0): the
        # first word is the name's rest, not a value; the rename joins them.
        if wrapped_name(str(spelling), items[0], parser_has) is not None:
            continue
        for item in items if kinds.get(str(flag)) == "list" else items[:1]:
            # A word with a reading (auto, None, unlimited, off) is the search's to read.
            if isinstance(item, bool) or not (any(ch.isdigit() for ch in str(item)) or has_reading(str(item))):
                engine = "vLLM" if family == "vllm" else "SGLang"
                # A command copied from a script keeps its $VARS: no value to repair toward.
                unset = ": an unexpanded shell variable, write the value it holds" if str(item).startswith("$") else ""
                _fail(
                    source,
                    f"launch.args.{spelling}",
                    f"must be {what} ({engine}'s --{flag} takes one), got {item!r}{unset}",
                )


def _family(declared: object, module: object, source: str) -> str:
    """The engine a base drives: its ``target:``, else what launch.module names."""
    detected = "vllm" if isinstance(module, str) and module.split(".")[0] == "vllm" else "sglang"
    if declared is None:
        return detected
    if declared != detected and module is not None:
        raise ConfigError(source, "target", f"{declared} does not run launch.module {module}")
    return str(declared)


# --- secrets, found on the parsed config ---------------------------------------------------


def _find_secrets(base: Candidate, own: tuple[str, ...], documented: Collection[str]) -> Secrets:
    """Env names that look like secrets, flags the parser documents as secrets (or whose
    name says so, unless the parser says they take a number or a switch), the user's own."""
    documented_keys = {f.lower().replace("_", "-") for f in documented}
    untexted = known_untexted_flags()
    env = {n for n, _ in base.env if secret_env_name(n)} | set(own)
    flags = set(own) | {f for f, _ in base.args if f.lower().replace("_", "-") in documented_keys}
    flags |= {f for f, _ in base.args if secret_flag_name(f) and f.lower().replace("_", "-") not in untexted}
    return Secrets(frozenset(env), frozenset(flags) | frozenset(documented)).covering(base)


def _check_secret_args(base: Candidate, secrets: Secrets, source: str) -> None:
    """Secret flags reach SGLang in a --config file of autofix's own, and SGLang reads one
    --config only: the user's own ``config`` flag and a secret flag cannot go together."""
    if not base.has(SECRET_ARGS_FLAG):
        return
    _, secret_args = secrets.split(base)
    if secret_args:
        names = ", ".join(secret_args)
        raise ConfigError(
            source,
            f"launch.args.{SECRET_ARGS_FLAG}",
            f"autofix passes the secret flags ({names}) to SGLang in a --config file of its own and SGLang "
            f"reads only one: move them into your config file, or leave {SECRET_ARGS_FLAG} out",
        )


def _stored_text(data: Mapping[str, Any], secrets: Secrets, source: str) -> str:
    """The config written again from the parsed data, secret values replaced: every YAML
    spelling of a secret (quoted keys, block scalars, escapes, merge keys) is gone because
    the text is new, not edited. It reads back as the same config, secrets redacted."""
    clean = _redact_data(data, secrets)
    body = yaml.safe_dump(clean, sort_keys=False, allow_unicode=True, width=1 << 30)
    return f"# {_printable(source)} as autofix stored it: rewritten from the parsed config, secrets <redacted>\n{body}"


def _redact_data(data: Any, secrets: Secrets, path: tuple[str, ...] = ()) -> Any:
    if isinstance(data, Mapping):
        out: dict[Any, Any] = {}
        for key, value in data.items():
            where = (*path, str(key))
            if where[:2] == ("launch", "args") and len(where) == 3 and secrets.flag_is_secret(str(key)):
                out[key] = _redacted_value(value)
            elif where[:2] == ("launch", "env") and len(where) == 3 and secrets.env_is_secret(str(key)):
                out[key] = value if value is None else REDACTED
            else:
                out[key] = _redact_data(value, secrets, where)
        return out
    if isinstance(data, list):
        return [_redact_data(v, secrets, path) for v in data]
    if isinstance(data, str):
        return secrets.scrub(data)
    return data


def _redacted_value(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value  # absent, or a bare flag: nothing secret in it
    if isinstance(value, list):
        return [REDACTED for _ in value]
    return REDACTED


# --- YAML with duplicate keys refused, merge keys followed, nesting bounded -----------------

_MERGE_TAG = "tag:yaml.org,2002:merge"


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key written twice (PyYAML silently keeps the last), follows
    merge keys, and stops at MAX_DEPTH levels of nesting (PyYAML recurses per level: a
    deep enough document exhausts the stack) and at integers Python will not read."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep", mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _refuse_twice(loader: _StrictLoader, node: yaml.MappingNode, deep: bool) -> None:
    seen: set[Any] = set()
    for key_node, value_node in node.value:
        if key_node.tag == _MERGE_TAG:
            merged = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
            for sub in merged:
                if isinstance(sub, yaml.MappingNode):
                    _refuse_twice(loader, sub, deep)
            continue
        key = loader.construct_object(key_node, deep=deep)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a key must be text (a list or mapping was given)", key_node.start_mark
            ) from None
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"key {key!r} appears twice", key_node.start_mark)
        seen.add(key)


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    _refuse_twice(loader, node, deep)
    return dict(loader.construct_mapping(node, deep=deep))  # flattens merge keys first


def _construct_int(loader: _StrictLoader, node: yaml.ScalarNode) -> int:
    digits = sum(ch.isdigit() for ch in str(node.value))
    limit = sys.get_int_max_str_digits()
    if limit and digits > limit:
        raise yaml.constructor.ConstructorError(
            None, None, f"a number of {digits} digits: more than the {limit} Python reads", node.start_mark
        )
    return int(loader.construct_yaml_int(node))


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def _load_yaml(text: str, source: str) -> Any:
    if "\x00" in text:
        raise ConfigError(source, "", "the file contains a NUL byte")
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(source, "", f"not valid YAML{where}: {_printable(problem)}") from None
    except (ValueError, RecursionError) as exc:  # a constructor PyYAML has no check for
        raise ConfigError(source, "", f"not valid YAML: {_printable(str(exc))[:200]}") from None


def _printable(text: str) -> str:
    """A message fit for one line: control characters and surrogates escaped."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def _unicode_problem(text: str) -> str | None:
    """Characters no process argument or unit file can carry: a lone surrogate (YAML's
    "\\ud800" is not a character) or a noncharacter (systemd refuses the line: "not UTF-8
    clean")."""
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            return f"holds \\u{code:04x}, a lone surrogate: not a character"
        if 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE:
            return f"holds \\u{code:04x}, a Unicode noncharacter (systemd refuses a unit line with one)"
    return None


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
    if problem := _unicode_problem(value):
        _fail(source, path, problem)


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
    if problem := _unicode_problem(value):
        _fail(source, path, problem)
    if value.startswith("-") and not NUMBER.match(value):
        flag = path.removeprefix("launch.args.").split("[")[0]
        shown = "the value" if secret_flag_name(flag) or flag in known_secret_flags() else f"value {value!r}"
        _fail(source, path, f"{shown} starts with '-' and would be read as a flag")


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
    """autofix itself talks to the server on this port: it must spell one. Words after it (a
    positional argument of another engine's CLI, pasted along) are the search's to drop."""
    first = value[0] if isinstance(value, list) and value else value
    # (an address that ends in the port, "30000:30000", is the user's spelling of it: the
    # search renames it to the number, and the targets read that number)
    if isinstance(value, bool) or port_in(str(first)) is None:
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
        if "\ufeff" in str(v):
            _fail(source, path, "holds U+FEFF (a byte order mark): not valid in an EnvironmentFile=")
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


def _name_list(value: object, source: str, path: str) -> None:
    if not isinstance(value, list):
        _fail(source, path, "must be a list of env or flag names (without '--')")
    for i, item in enumerate(value):
        _text_value(item, source, f"{path}[{i}]")
        if not re.match(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$", str(item)):
            _fail(source, f"{path}[{i}]", "an env name (HF_TOKEN) or a flag name without '--' (api-key)")


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


def _env_file_list(value: object, source: str, path: str) -> None:
    if not isinstance(value, list):
        _fail(source, path, "must be a list of absolute paths on the host (a leading '-': may be missing)")
    for i, item in enumerate(value):
        _text_value(item, source, f"{path}[{i}]")
        if not ENV_FILE.match(str(item)):
            # Written into EnvironmentFile= as is, where systemd takes the rest of the line
            # verbatim (% starts a specifier): plain path characters only.
            _fail(
                source,
                f"{path}[{i}]",
                "must be an absolute path on the host of letters, digits and _./@:+- "
                f"(a leading '-': may be missing), got {item!r}",
            )


_CHECKS: dict[str, Any] = {
    "unit_name": _unit_name,
    "unit_list": _unit_list,
    "family": _family_name,
    "flag_list": _flag_list,
    "name_list": _name_list,
    "host": _host,
    "manager": _manager,
    "command": _command,
    "module": _module,
    "path": _path,
    "env_file_list": _env_file_list,
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
