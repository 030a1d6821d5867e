"""The failure-class catalogue: strategies/*.yaml -> FailureClass values (data, no behaviour).

A class says how to recognise a failure (``match``) and what to try, in order of
preference (``moves``). Adding a class needs no code. :func:`parse_catalog` is pure and
checks everything ``autofix strategies --check`` promises: unknown keys, bad regexes,
malformed moves, duplicate ids.

Move grammar (each list item is one move; several ops in one item apply together)::

    - set: {speculative-eagle-topk: 1}
    - set: {speculative-num-steps: {from: speculative-num-draft-tokens, add: -1, min: 1}}
    - drop: [speculative-eagle-topk, speculative-num-draft-tokens]
    - scale: {mem-fraction-static: 0.9}          # of the candidate's or the resolved value
    - set_env: {NCCL_PROTO: Simple}
    - unset_env: {match: var}                    # a named group of the class's regexes
    - set_key: {speculative-config.num_speculative_tokens: 3}   # one key of a JSON-valued flag
    - drop_key: [speculative-config.draft_tensor_parallel_size]
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from .errors import CatalogError
from .model import EditOp, normalize_value
from .resources import data_path

MATCH_KEYS = ("exception", "function", "file", "message", "source", "gate", "signal", "evidence")
CLASS_KEYS = ("id", "title", "match", "moves", "note", "examples", "suspects_tuning", "part_first")
FILE_KEYS = (
    "target",
    "aliases",
    "domains",
    "names",
    "also_called",
    "env_domains",
    "host_facts",
    "intent",
    "primary",
    "roles",
    "gpu_counts",
    "gpu_shares",
    "words",
    "folds",
    "splits",
    "portable",
    "components",
    "optional",
    "classes",
)
VALUE_KEYS = ("from", "add", "mul", "min", "max", "default", "match", "round", "round_up_to", "divisor_of", "replace")
FLAG_KINDS = ("bool", "bool_false", "value", "list")
GATES = ("preflight", "start", "ready", "smoke", "bench")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*\Z")
_FLAG = re.compile(r"^[a-z0-9][a-z0-9-]*\Z")
# A key inside a JSON-valued flag (set_key / drop_key, and computed values' from:).
_FLAG_KEY = re.compile(r"^[a-z0-9][a-z0-9-]*\.[A-Za-z_][A-Za-z0-9_]*\Z")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class ValueSpec:
    """A value to compute when the move is applied (from another flag or a regex group)."""

    source: str | None = None  # flag to read (candidate value, else resolved value)
    group: str | None = None  # named group of the class's match regexes
    add: float = 0.0
    mul: float = 1.0
    minimum: float | None = None
    maximum: float | None = None
    default: Any = None
    round_to: int | None = None
    round_up_to: str | None = None  # flag: round the value up to a multiple of its value
    divisor_of: str | None = None  # flag: the largest divisor of its value not above ours
    replace: tuple[str, str] | None = None  # text substitution (key.pem -> cert.pem)


@dataclass(frozen=True)
class EditSpec:
    op: EditOp
    target: str | ValueSpec  # a flag/env name, or (unset_env) a name taken from the failure
    value: Any = None  # literal, ValueSpec, or the scale factor


@dataclass(frozen=True)
class MoveSpec:
    edits: tuple[EditSpec, ...]
    # The move applies only when the command itself sets these flags, or ``flag.key``s of
    # JSON-valued ones (a value the user wrote gives way before one they did not: pages
    # they chose, not the backend's own).
    when_set: tuple[str, ...] = ()


@dataclass(frozen=True)
class MatchRule:
    exception: re.Pattern[str] | None = None
    function: re.Pattern[str] | None = None
    file: re.Pattern[str] | None = None
    message: re.Pattern[str] | None = None
    source: re.Pattern[str] | None = None
    evidence: re.Pattern[str] | None = None
    gate: str | None = None
    signal: str | None = None

    @property
    def specificity(self) -> int:
        return sum(getattr(self, k) is not None for k in MATCH_KEYS)


@dataclass(frozen=True)
class FailureClass:
    id: str
    title: str
    match: MatchRule
    moves: tuple[MoveSpec, ...]
    note: str = ""
    target: str = ""
    origin: str = ""  # file it came from
    order: int = 0
    # A hang or timeout, not a refused value: env tuning the user set is a suspect even when
    # its value is one the variable accepts (env_domains guard the other classes).
    suspects_tuning: bool = False
    # A fault of whatever kernel ran (an illegal memory access): switching off the part of
    # the server it died in (its frames' component) costs less than the class's wider moves.
    part_first: bool = False


@dataclass(frozen=True)
class Component:
    """A part of the server a flag can switch off, found by the files of its frames (CUDA
    graph capture, torch.compile …): a failure inside it suggests its moves (inferred)."""

    id: str
    where: re.Pattern[str]  # searched in a frame's file path
    moves: tuple[MoveSpec, ...]
    # How a log names the part in words or by its module when no frame shows it
    # ("`piecewise_cuda_graph_runner.warmup_compile`", "Piecewise CUDA Graph failed").
    named: re.Pattern[str] | None = None


@dataclass(frozen=True)
class FlagInfo:
    """What the target's own parser says about a flag (from strategies/<target>.flags.json)."""

    kind: str  # bool | bool_false | value | list
    type: str | None = None
    choices: tuple[Any, ...] = ()
    default: Any = None
    # A flag whose value is a JSON object of a config class: the keys the class accepts.
    keys: tuple[str, ...] = ()
    # What the target resolves the flag to when it is left unset and its default is None
    # (SGLang 0.5.x declares these as field fallbacks): the value SGLang itself would use.
    fallback: Any = None
    # The parser's help for a number flag: the unit it counts in, the number that stands for
    # no limit or off (read by autofix/meant.py). Empty where the facts carry none.
    help: str = ""


@dataclass(frozen=True)
class Replacement:
    """What a past release's deprecation named as a flag's replacement (a fact)."""

    flag: str
    value: Any = None  # the value the replacement takes (``--moe-a2a-backend deepep``)
    value_from: str | None = None  # or the value of another flag (ep-size = tp-size)
    release: str = ""  # the release whose parser said so


# What each value of another engine's flag stands for: (value, ((flag, value), ...)), values
# lower-cased; and, for a flag taking one JSON object, per key: (key, the flag its value is
# carried to, or None and what each of its values stands for).
PerValue = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
PerKey = tuple[tuple[str, str | None, PerValue], ...]


@dataclass(frozen=True)
class Equivalent:
    """Another engine's launch flag read as SGLang's (a fact of both engines' docs): the
    SGLang flag that does its job (the user's value carried, or ``value`` set), or None
    when SGLang has no equivalent or does it by default."""

    engines: tuple[str, ...]  # the engines whose flag of that name it is
    flag: str | None
    value: Any
    why: str
    # The key of ``flag``'s JSON object that takes the user's value (a sampling default
    # of another engine is one key of --preferred-sampling-params); None: the flag itself.
    key: str | None = None
    # The SGLang flag whose value ``flag`` takes (vLLM's --enable-expert-parallel: ep-size
    # of the tp size), read from the command when the move is made.
    value_from: str | None = None
    # Per value the user gives, the SGLang flags and values it stands for (empty: SGLang's
    # default); a value not listed has no equivalent. None: the entry is not per value.
    values: PerValue | None = None
    # For a flag that takes one JSON object of settings (vLLM's --kv-transfer-config), per
    # key: the SGLang flag its value is carried to, or what each of its values stands for.
    keys: PerKey | None = None

    def reading_of(self, given: object) -> tuple[tuple[str, str], ...] | None:
        """The flags a per-value entry gives for the user's value (None: not listed); for a
        per-key entry, what the keys of the user's object give (None: no JSON object)."""
        if self.keys is not None:
            return _keys_reading(self.keys, given)
        return _value_reading(self.values or (), given)


def _value_reading(values: PerValue, given: object) -> tuple[tuple[str, str], ...] | None:
    """The flags ``given`` stands for in a per-value table (None: not listed)."""
    return dict(values).get(str(given).strip().lower())


def _keys_reading(keys: PerKey, given: object) -> tuple[tuple[str, str], ...] | None:
    """The SGLang flags the keys of ``given`` (a JSON object's text) stand for, in the
    table's order; a key the table lacks, or a value it does not list, gives nothing."""
    try:
        settings = json.loads(str(given))
    except ValueError:
        return None
    if not isinstance(settings, Mapping):
        return None
    out: list[tuple[str, str]] = []
    for key, carried_to, per_value in keys:
        if key not in settings or isinstance(settings[key], bool | dict | list):
            continue
        if carried_to is not None:
            out.append((carried_to, str(settings[key])))
        else:
            out.extend(_value_reading(per_value, settings[key]) or ())
    return tuple(out)


@dataclass(frozen=True)
class FlagHistory:
    """Flags of past releases' parsers (strategies/<target>.flag-history.json)."""

    seen: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # flag -> (first, last release)
    replacements: Mapping[str, Replacement] = field(default_factory=dict)
    releases: tuple[str, ...] = ()

    def alive_in(self, index: int, prefix: str = "") -> list[str]:
        """The flags (beginning with ``prefix``) the parser of the release at ``index`` had."""
        at = {release: i for i, release in enumerate(self.releases)}
        return [
            flag
            for flag, (first, last) in self.seen.items()
            if flag.startswith(prefix) and at.get(first, len(self.releases)) <= index <= at.get(last, -1)
        ]

    def first_seen(self, flag: str) -> int:
        """Index of the release that first had the flag (unknown: after every release)."""
        seen = self.seen.get(flag)
        if seen is None or seen[0] not in self.releases:
            return len(self.releases)
        return self.releases.index(seen[0])


@dataclass(frozen=True)
class Catalog:
    classes: tuple[FailureClass, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)  # spelling -> canonical flag
    domains: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    flags: Mapping[str, FlagInfo] = field(default_factory=dict)
    # Flags that describe the host, not a choice (device): no move ever changes them.
    host_facts: frozenset[str] = frozenset()
    # Env vars with a known set of valid values (NCCL_PROTO …): a valid one is never unset.
    env_domains: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    history: FlagHistory = field(default_factory=FlagHistory)
    # Flags that say what the operator asked for (the speculative algorithm and its
    # drafter, the expert-parallel backend, quantization, parallel sizes): a move that
    # drops one ranks after every rename and value change.
    # flag -> flags it serves ([]: any); a move that leaves the flag off while one it serves
    # stays on (or, for [], at all) orphans what the user asked for.
    intent: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Sizes that count the hardware a server takes (tp, pp, dp: GPUs; nnodes: machines):
    # raising one asks the operator for hardware, so a move that does comes after every
    # move that does not.
    gpu_counts: frozenset[str] = frozenset()
    # The operator's primary choices (the speculative algorithm and its drafter,
    # quantization, parallel and graph sizes, the disaggregation role): a move that changes
    # or drops one the user set, where the message does not name it, ranks after the moves
    # that keep them.
    primary: frozenset[str] = frozenset()
    # The deployment's shape among them (the disaggregation role): one the user set is kept
    # even where a message names the value a feature needs; the feature goes first.
    roles: frozenset[str] = frozenset()
    # How messages name a flag in prose (--pp-size: "pipeline parallel"; the parser's help
    # words), lower case: a message that says them names the flag.
    words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Names a flag's value may take that its parser does not list (the code checks them:
    # speculative algorithms): facts, read only to tell which one a misspelt name meant,
    # never values to try (a search never switches an algorithm by this list).
    names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Other names a choice goes by (lower case -> the choice): what a refused value that is
    # one of them meant ("MTP" is NEXTN).
    also_called: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # A size that can fold into another keeping the GPUs a server takes (pp into tp: both
    # split one model over GPUs): the move for a message that refuses the first.
    folds: Mapping[str, str] = field(default_factory=dict)
    # A size that divides another's GPUs into groups (attention DP inside TP): a message that
    # asks for it without a value gets the whole, its widest split.
    splits: Mapping[str, str] = field(default_factory=dict)
    # The implementation of a flag's choices that runs on every GPU (a Triton kernel): what a
    # running server's crash in the one the user picked is tried with before the default.
    portable: Mapping[str, str] = field(default_factory=dict)
    # Parts of the server a flag switches off, by the files their frames run in: a failure
    # no class names is read by where it happened (inference, kept when classes are removed).
    components: tuple[Component, ...] = ()
    # A size that splits another's GPUs instead of adding its own while a switch is on
    # (dp-size under DP attention): raising it asks the operator for no hardware.
    gpu_shares: Mapping[str, str] = field(default_factory=dict)
    # Flags that turn on an optional feature or pick an implementation (patterns on the
    # flag's name): what an operator relaunches without, one at a time, when a running
    # server's failure names no cause.
    optional: tuple[re.Pattern[str], ...] = ()
    # Where ``flags`` came from: the static table's version, or the host's parser.
    flags_from: str = ""
    # Other engines' flags (normal form) -> what SGLang calls them (strategies/*.equivalents.json).
    equivalents: Mapping[str, Equivalent] = field(default_factory=dict)
    # Other names a later release than the host's gave a flag the host has (with_parser):
    # the host's parser refuses them, a rename gives the host's name.
    later_aliases: Mapping[str, str] = field(default_factory=dict)

    def knows(self, spelling: str) -> bool:
        """Whether the target's parser has this exact flag (or spelling of one)."""
        return spelling in self.flags or spelling in self.aliases

    def with_parser(self, facts: Mapping[str, Any], version: str = "") -> Catalog:
        """The same catalogue with the flag facts of the host's own parser (the probe's
        ``parser``), so choices, defaults and renames follow the version the host runs.
        Unchanged when the probe could not read them."""
        raw_flags = facts.get("flags")
        if not isinstance(raw_flags, Mapping) or not raw_flags:
            return self
        flags: dict[str, FlagInfo] = {}
        for name, info in raw_flags.items():
            if not isinstance(info, Mapping) or info.get("kind") not in FLAG_KINDS:
                continue
            choices = info.get("choices")
            keys = info.get("keys")
            flags[str(name)] = FlagInfo(
                str(info["kind"]),
                info.get("type"),
                tuple(choices) if isinstance(choices, list) else (),
                info.get("default"),
                tuple(str(k) for k in keys) if isinstance(keys, list) else (),
                fallback=info.get("fallback"),
                help=str(info.get("help") or ""),
            )
        aliases = {str(k): str(v) for k, v in (facts.get("aliases") or {}).items() if str(v) in flags}
        # The catalogue's own short names (tp -> tp-size) stay where the host's parser takes
        # them (its own alias, or a prefix argparse expands to that one flag); another name
        # of a later release (--enable-hicache) is no name the host takes: it is renamed.
        later: dict[str, str] = {}
        for spelling, canonical in self.aliases.items():
            if canonical in flags and spelling not in flags and spelling not in aliases:
                if _abbreviates(spelling, canonical, flags, aliases):
                    aliases[spelling] = canonical
                elif spelling != f"no-{canonical}":  # a negation is no other name of the flag
                    later[spelling] = canonical
        # The catalogue's own table is one more release's parser: a flag it has that the
        # host lacks was added after the host's release (not a typo of a near name).
        history = self.history
        table = self.flags_from.removeprefix("table ").strip()
        if table and not self.flags_from.startswith("host parser"):
            seen = dict(history.seen)
            for name in self.flags:
                seen[name] = (seen.get(name, (table, table))[0], table)
            releases = history.releases if table in history.releases else (*history.releases, table)
            history = replace(history, seen=seen, releases=releases)
        return replace(
            self,
            flags=flags,
            aliases=aliases,
            flags_from=f"host parser {version}".strip(),
            history=history,
            later_aliases=later,
        )

    def older_names(self, flag: str) -> list[str]:
        """The host's flags a later release renamed to ``flag``, the value kept (the flag
        history read backwards: 0.5.11's --cuda-graph-max-bs for --cuda-graph-max-bs-decode)."""
        return [
            self.canonical(old)
            for old, r in self.history.replacements.items()
            if r.flag == flag and r.value is None and r.value_from is None and self.knows(old)
        ]

    def flag(self, name: str) -> FlagInfo | None:
        return self.flags.get(self.canonical(name))

    def takes_list(self, flag: str) -> bool:
        """Whether the parser takes several values for the flag (nargs: space-separated)."""
        info = self.flag(flag)
        return info is not None and info.kind == "list"

    def holds_default(self, flag: str, value: object) -> bool:
        """Whether ``value`` (as a candidate holds it) is the parser's default for a flag
        that takes a value: writing it launches what leaving the flag out would. A switch
        is never at its default when given (a store_false switch given is off)."""
        info = self.flag(flag)
        if info is None or info.default is None or info.kind not in ("value", "list"):
            return False
        return normalize_value(info.default) == value

    def get(self, class_id: str) -> FailureClass | None:
        return next((c for c in self.classes if c.id == class_id), None)

    def canonical(self, flag: str) -> str:
        return self.aliases.get(flag, flag)

    def spellings(self, flag: str) -> tuple[str, ...]:
        """Every spelling of a flag: ``tp`` -> (tp-size, tp)."""
        canonical = self.canonical(flag)
        return (canonical, *sorted(k for k, v in self.aliases.items() if v == canonical))

    def gpu_count_spellings(self) -> list[tuple[str, ...]]:
        """Every spelling of each size that counts hardware (``gpu_counts``)."""
        return [self.spellings(flag) for flag in sorted(self.gpu_counts)]

    def gpu_share_spellings(self) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """(the size's spellings, the switch's spellings) of each size that splits other
        sizes' GPUs instead of adding its own while the switch is on (``gpu_shares``), and
        with no switch (``()``: always) each size that always does (``splits``)."""
        switched = [(self.spellings(size), self.spellings(switch)) for size, switch in sorted(self.gpu_shares.items())]
        always = [(self.spellings(size), ()) for size in sorted(self.splits) if size not in self.gpu_shares]
        return switched + always

    def called(self, flag: str, value: str) -> str | None:
        """The choice of ``flag`` that ``value`` is another name for (``also_called``)."""
        return self.also_called.get(self.canonical(flag), {}).get(value.lower())

    def domain(self, flag: str) -> tuple[Any, ...]:
        """The values ``domains`` gives ``flag``; for a flag of one role of a setting that
        has none (speculative-draft-kv-cache-dtype, decode-attention-backend), those of the
        general flag its name ends with, among the values its own parser accepts."""
        name = self.canonical(flag)
        if name in self.domains:
            return self.domains[name]
        words = name.split("-")
        for start in range(1, len(words) - 1):
            general = "-".join(words[start:])
            if general in self.domains:
                info = self.flag(name)
                accepted = {str(c) for c in info.choices} if info is not None and info.choices else None
                return tuple(v for v in self.domains[general] if accepted is None or str(v) in accepted)
        return ()

    def without_classes(self) -> Catalog:
        """The same aliases, domains and flag facts with no curated classes (inference only)."""
        return replace(self, classes=())

    def without(self, class_ids: Sequence[str] = (), domains: Sequence[str] = ()) -> Catalog:
        """The catalogue less some classes and domains (scoring a family out of sample)."""
        kept = tuple(c for c in self.classes if c.id not in set(class_ids))
        return replace(self, classes=kept, domains={k: v for k, v in self.domains.items() if k not in set(domains)})


def family_of(file_name: str) -> str:
    """The engine a strategies file is for: ``vllm*`` files are vLLM's, the rest SGLang's
    (sglang.yaml and the runtime classes written for SGLang's servers)."""
    return "vllm" if file_name.startswith("vllm") else "sglang"


def _abbreviates(spelling: str, canonical: str, flags: Mapping[str, FlagInfo], aliases: Mapping[str, str]) -> bool:
    """Whether argparse expands ``--spelling`` to ``canonical`` alone: every option the
    parser has that it begins is that flag."""
    begun = {aliases.get(name, name) for name in (*flags, *aliases) if name.startswith(spelling)}
    return begun == {canonical}


def load_catalog(directory: Path | None = None, family: str = "sglang") -> Catalog:
    """Read the strategies/*.yaml of one engine (the installed copy, or the checkout's):
    a vLLM failure is never sorted into an SGLang class, nor moved with SGLang's flags."""
    root = directory or data_path("strategies")
    texts = {p.name: _read(p) for p in sorted(root.glob("*.yaml")) if family_of(p.name) == family}
    if not texts:
        raise CatalogError(f"{root}: no strategies/*.yaml found")
    flag_texts = {p.name: _read(p) for p in sorted(root.glob("*.flags.json")) if family_of(p.name) == family}
    history = FlagHistory()
    for path in sorted(root.glob("*.flag-history.json")):
        history = parse_history(path.name, _read(path))
    equivalents: dict[str, Equivalent] = {}
    for path in sorted(p for p in root.glob("*.equivalents.json") if family_of(p.name) == family):
        equivalents.update(parse_equivalents(path.name, _read(path)))
    versions = sorted({str(json.loads(t).get("version", "")) for t in flag_texts.values()} - {""})
    table = f"table {versions[-1]}" if versions else ""
    catalog = parse_catalog(texts, flag_texts)
    return replace(catalog, history=history, flags_from=table, equivalents=equivalents)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read: {exc}") from None


def parse_equivalents(name: str, text: str) -> dict[str, Equivalent]:
    """Other engines' flags: {"engines": {engine: {"flags": {flag: {flag, value | key |
    value_from, why} or {values: {value: {flag: value}}, why} or {none: why}}}}}, keyed by
    the flag's normal form (dashes, case and underscores are spelling). A spelling engines
    read as different SGLang flags is left out: nothing says which engine the user came from."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CatalogError(f"{name}: not valid JSON: {exc}") from None
    engines = data.get("engines") if isinstance(data, Mapping) else None
    if not isinstance(engines, Mapping):
        raise CatalogError(f"{name}: needs an engines object")
    found: dict[str, list[Equivalent]] = {}
    for engine, section in engines.items():
        entries = section.get("flags") if isinstance(section, Mapping) else None
        if not isinstance(entries, Mapping):
            raise CatalogError(f"{name}: engines.{engine}: needs a flags object")
        for spelling, entry in entries.items():
            where = f"{name}: engines.{engine}.flags.{spelling}"
            found.setdefault(normal_form(str(spelling)), []).append(_equivalent(where, str(engine), entry))
    agreed: dict[str, Equivalent] = {}
    for key, readings in found.items():
        # (a value is given to the parser as text: -1 and "-1" are one reading)
        if (
            len(
                {
                    (e.flag, None if e.value is None else str(e.value), e.key, e.value_from, e.values, e.keys)
                    for e in readings
                }
            )
            == 1
        ):
            agreed[key] = replace(readings[0], engines=tuple(e.engines[0] for e in readings))
    return agreed


_DASHES = re.compile(r"-{2,}")


def normal_form(spelling: str) -> str:
    """``- -Trust_Remote_Code`` -> ``trust-remote-code``; glued ``a--b`` keeps its ``--``
    (underscores, case, extra and split dashes are spelling)."""
    text = TYPOGRAPHIC_DASH.sub("-", "".join(spelling.split())).lstrip("-").lower().replace("_", "-")
    return _DASHES.sub("--", text).strip("-")


# Dashes an editor puts where a command had hyphens (em, en, figure dash, minus sign): a
# "smartened" --flag reads "\u2014flag".
TYPOGRAPHIC_DASH = re.compile("[\u2010-\u2015\u2212]")
_TYPOGRAPHIC_OPENING = re.compile(f"{TYPOGRAPHIC_DASH.pattern}+")
# The verbs a switch's name opens with (--enable-torch-compile): a name without one that a
# switch has after it (--torch-compile) means that switch.
SWITCH_VERBS = ("enable", "use", "disable")


def typed_as_flag(word: str) -> str | None:
    """``word`` with the typographic dashes it opens with read as a flag's two dashes
    ("\u2014context-length": "--context-length"); None when it opens with none."""
    found = _TYPOGRAPHIC_OPENING.match(word)
    return f"--{word[found.end() :]}" if found and word[found.end() :][:1].isalnum() else None


_NAME_REST = re.compile(r"[a-z0-9][a-z0-9-]*\Z")


def wrapped_name(spelling: str, word: object, knows: Callable[[str], bool]) -> str | None:
    """The flag ``spelling`` and ``word`` name written together (a pasted command wrapped
    inside a flag, ``--node-r`` / ``ank 0``, reaches argv as a prefix and a word), when
    ``knows`` has that name and not the spelling alone; None otherwise. The base loader and
    the rename read a wrapped name by this one rule."""
    if not isinstance(word, str) or not _NAME_REST.match(word) or knows(spelling):
        return None
    # (a name cut after a dash keeps it: normal_form drops a trailing one)
    joint = "-" if spelling.endswith("-") else ""
    name = normal_form(spelling) + joint + word
    return name if knows(name) else None


def _equivalent(where: str, engine: str, entry: object) -> Equivalent:
    if not isinstance(entry, Mapping):
        raise CatalogError(f"{where}: needs an object")
    if "none" in entry:
        return Equivalent((engine,), None, None, str(entry["none"]))
    why = str(entry.get("why", ""))
    if "values" in entry:
        return Equivalent((engine,), None, None, why, values=_per_value(where, entry["values"]))
    if "keys" in entry:
        return Equivalent((engine,), None, None, why, keys=_per_key(where, entry["keys"]))
    flag = str(entry.get("flag", ""))
    if not _FLAG.match(flag):
        raise CatalogError(f"{where}: needs a flag ([a-z0-9-]+), values, or none: <why>")
    key = entry.get("key")
    if key is not None and not (isinstance(key, str) and _JSON_KEY.match(key)):
        raise CatalogError(f"{where}: key must name a JSON object's key ([a-z0-9_]+)")
    value_from = entry.get("value_from")
    if value_from is not None and not (isinstance(value_from, str) and _FLAG.match(value_from)):
        raise CatalogError(f"{where}: value_from must name a flag ([a-z0-9-]+)")
    return Equivalent((engine,), flag, entry.get("value"), why, key, value_from)


_JSON_KEY = re.compile(r"^[a-z0-9_]+$")


def _per_value(where: str, raw: object) -> PerValue:
    """{"value": {"flag": "value", ...}, ...} as frozen pairs (values lower-cased)."""
    if not isinstance(raw, Mapping):
        raise CatalogError(f"{where}.values: needs an object of value -> {{flag: value}}")
    out: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for value, flags in raw.items():
        if not isinstance(flags, Mapping) or not all(isinstance(f, str) and _FLAG.match(f) for f in flags):
            raise CatalogError(f"{where}.values.{value}: needs an object of flag -> value")
        out.append((str(value).lower(), tuple((str(f), str(v)) for f, v in flags.items())))
    return tuple(out)


def _per_key(where: str, raw: object) -> PerKey:
    """{"key": {"flag": F} or {"values": {...}}, ...} as frozen triples."""
    if not isinstance(raw, Mapping):
        raise CatalogError(f"{where}.keys: needs an object of key -> {{flag}} or {{values}}")
    out: list[tuple[str, str | None, PerValue]] = []
    for key, entry in raw.items():
        if isinstance(entry, Mapping) and isinstance(entry.get("flag"), str) and _FLAG.match(entry["flag"]):
            out.append((str(key), str(entry["flag"]), ()))
        elif isinstance(entry, Mapping) and "values" in entry:
            out.append((str(key), None, _per_value(f"{where}.keys.{key}", entry["values"])))
        else:
            raise CatalogError(f"{where}.keys.{key}: needs a flag ([a-z0-9-]+) or values")
    return tuple(out)


def parse_history(name: str, text: str) -> FlagHistory:
    """A flag history: {"releases": [...], "flags": {flag: {first, last}}, "replacements": {...}}."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CatalogError(f"{name}: not valid JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise CatalogError(f"{name}: the top level must be an object")
    seen = {
        str(k): (str(v.get("first", "")), str(v.get("last", "")))
        for k, v in (data.get("flags") or {}).items()
        if isinstance(v, Mapping)
    }
    replacements: dict[str, Replacement] = {}
    for old, entry in (data.get("replacements") or {}).items():
        if not isinstance(entry, Mapping) or not _FLAG.match(str(entry.get("flag", ""))):
            raise CatalogError(f"{name}: replacements.{old}: needs a flag")
        replacements[str(old)] = Replacement(
            str(entry["flag"]), entry.get("value"), entry.get("value_from"), str(entry.get("release", ""))
        )
    return FlagHistory(seen, replacements, tuple(str(r) for r in data.get("releases") or ()))


def parse_flags(name: str, text: str) -> tuple[dict[str, FlagInfo], dict[str, str]]:
    """A flags table: {"flags": {name: {kind, type, choices, default}}, "aliases": {...}}."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CatalogError(f"{name}: not valid JSON: {exc}") from None
    flags: dict[str, FlagInfo] = {}
    for flag, info in (data.get("flags") or {}).items():
        if not _FLAG.match(flag) or not isinstance(info, dict) or info.get("kind") not in FLAG_KINDS:
            raise CatalogError(f"{name}: flags.{flag}: needs a [a-z0-9-]+ name and a kind in {FLAG_KINDS}")
        keys = tuple(str(k) for k in info.get("keys") or ())
        flags[flag] = FlagInfo(
            info["kind"],
            info.get("type"),
            tuple(info.get("choices") or ()),
            info.get("default"),
            keys,
            fallback=info.get("fallback"),
            help=str(info.get("help") or ""),
        )
    aliases = {str(k): str(v) for k, v in (data.get("aliases") or {}).items()}
    return flags, aliases


def parse_catalog(texts: Mapping[str, str], flag_texts: Mapping[str, str] | None = None) -> Catalog:
    """Parse and check strategies files given as {file name: YAML text} (and flag tables)."""
    classes: list[FailureClass] = []
    aliases: dict[str, str] = {}
    domains: dict[str, tuple[Any, ...]] = {}
    flags: dict[str, FlagInfo] = {}
    host_facts: set[str] = set()
    intent: dict[str, tuple[str, ...]] = {}
    gpu_counts: set[str] = set()
    primary: set[str] = set()
    roles: set[str] = set()
    components: list[Component] = []
    optional: list[re.Pattern[str]] = []
    env_domains: dict[str, re.Pattern[str]] = {}
    words: dict[str, tuple[str, ...]] = {}
    names: dict[str, tuple[str, ...]] = {}
    also_called: dict[str, dict[str, str]] = {}
    folds: dict[str, str] = {}
    splits: dict[str, str] = {}
    portable: dict[str, str] = {}
    gpu_shares: dict[str, str] = {}
    for name, text in (flag_texts or {}).items():
        more_flags, more_aliases = parse_flags(name, text)
        flags.update(more_flags)
        aliases.update(more_aliases)
    seen: dict[str, str] = {}
    for name, text in texts.items():
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise CatalogError(f"{name}: not valid YAML{where}: {problem}") from None
        if not isinstance(data, Mapping):
            raise CatalogError(f"{name}: the top level must be a mapping")
        _unknown(data, FILE_KEYS, name, "")
        target = str(data.get("target", Path(name).stem))
        for spelling, canonical in (data.get("aliases") or {}).items():
            if not _FLAG.match(str(spelling)) or not _FLAG.match(str(canonical)):
                raise CatalogError(f"{name}: aliases.{spelling}: flag names are [a-z0-9-]+")
            aliases[str(spelling)] = str(canonical)
        for env_name, pattern in (data.get("env_domains") or {}).items():
            if not _ENV.match(str(env_name)) or not isinstance(pattern, str):
                raise CatalogError(f"{name}: env_domains.{env_name}: must map an env name to a regex")
            try:
                env_domains[str(env_name)] = re.compile(pattern)
            except re.error as exc:
                raise CatalogError(f"{name}: env_domains.{env_name}: bad regex: {exc}") from None
        for flag in data.get("host_facts") or []:
            if not isinstance(flag, str) or not _FLAG.match(flag):
                raise CatalogError(f"{name}: host_facts: {flag!r} is not a flag name")
            host_facts.add(flag)
        for flag, serves in (data.get("intent") or {}).items():
            if not _FLAG.match(str(flag)) or not isinstance(serves, list):
                raise CatalogError(f"{name}: intent.{flag}: must map a flag to the list of flags it serves")
            intent[str(flag)] = tuple(str(s) for s in serves)
        gpu_counts |= _flag_list(data, "gpu_counts", name)
        primary |= _flag_list(data, "primary", name)
        roles |= _flag_list(data, "roles", name)
        components.extend(_parse_component(raw, name, i) for i, raw in enumerate(data.get("components") or []))
        optional.extend(_patterns(data, "optional", name))
        for flag, known in (data.get("names") or {}).items():
            if not _FLAG.match(str(flag)) or not isinstance(known, list) or not all(isinstance(k, str) for k in known):
                raise CatalogError(f"{name}: names.{flag}: must map a flag to a list of names")
            names[str(flag)] = tuple(known)
        for flag, table in (data.get("also_called") or {}).items():
            if (
                not _FLAG.match(str(flag))
                or not isinstance(table, Mapping)
                or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items())
            ):
                raise CatalogError(f"{name}: also_called.{flag}: must map a flag to other names -> its choice")
            also_called[str(flag)] = {k.lower(): v for k, v in table.items()}
        for flag, phrases in (data.get("words") or {}).items():
            if (
                not _FLAG.match(str(flag))
                or not isinstance(phrases, list)
                or not all(isinstance(p, str) for p in phrases)
            ):
                raise CatalogError(f"{name}: words.{flag}: must map a flag to a list of phrases")
            words[str(flag)] = tuple(p.lower() for p in phrases)
        for flag, into in (data.get("folds") or {}).items():
            if not _FLAG.match(str(flag)) or not _FLAG.match(str(into)):
                raise CatalogError(f"{name}: folds.{flag}: must map a size flag to the size flag it folds into")
            folds[str(flag)] = str(into)
        for flag, whole in (data.get("splits") or {}).items():
            if not _FLAG.match(str(flag)) or not _FLAG.match(str(whole)):
                raise CatalogError(f"{name}: splits.{flag}: must map a size flag to the size flag whose GPUs it splits")
            splits[str(flag)] = str(whole)
        for flag, choice in (data.get("portable") or {}).items():
            if not _FLAG.match(str(flag)) or not isinstance(choice, str):
                raise CatalogError(f"{name}: portable.{flag}: must map a flag to one of its choices")
            portable[str(flag)] = choice
        for size, switch in (data.get("gpu_shares") or {}).items():
            if not _FLAG.match(str(size)) or not _FLAG.match(str(switch)):
                raise CatalogError(
                    f"{name}: gpu_shares.{size}: must map a size flag to the switch under which it shares"
                )
            gpu_shares[str(size)] = str(switch)
        for flag, values in (data.get("domains") or {}).items():
            if not (_FLAG.match(str(flag)) or _FLAG_KEY.match(str(flag))) or not isinstance(values, list) or not values:
                raise CatalogError(f"{name}: domains.{flag}: must map a flag to a non-empty list")
            domains[str(flag)] = tuple(values)
        raw_classes = data.get("classes") or []
        if not isinstance(raw_classes, list):
            raise CatalogError(f"{name}: classes must be a list")
        for i, raw in enumerate(raw_classes):
            cls = _parse_class(raw, name, f"classes[{i}]", target, len(classes))
            if cls.id in seen:
                raise CatalogError(f"{name}: {cls.id}: duplicate class id (also in {seen[cls.id]})")
            seen[cls.id] = name
            classes.append(cls)
    return Catalog(
        tuple(classes),
        aliases,
        domains,
        flags,
        frozenset(host_facts),
        env_domains,
        intent=intent,
        gpu_counts=frozenset(gpu_counts),
        primary=frozenset(primary),
        roles=frozenset(roles),
        words=words,
        names=names,
        also_called=also_called,
        folds=folds,
        splits=splits,
        portable=portable,
        components=tuple(components),
        gpu_shares=gpu_shares,
        optional=tuple(optional),
    )


def _parse_component(raw: Any, name: str, index: int) -> Component:
    where = f"components[{index}]"
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str) or not _ID.match(raw["id"]):
        raise CatalogError(f"{name}: {where}: a component needs an id ([a-z0-9-]+), where and moves")
    _unknown(raw, ("id", "where", "named", "moves", "note"), name, f"{where}.")
    pattern = _regex(raw, "where", name, f"{where}")
    named = _regex(raw, "named", name, f"{where}")
    moves = raw.get("moves")
    if pattern is None or not isinstance(moves, list) or not moves:
        raise CatalogError(f"{name}: {where}: where (a regex on frame files) and moves (a list) are required")
    specs = tuple(_parse_move(m, name, f"{where}.moves[{i}]", set()) for i, m in enumerate(moves))
    return Component(raw["id"], pattern, specs, named)


def _patterns(data: Mapping[str, Any], key: str, name: str) -> list[re.Pattern[str]]:
    out: list[re.Pattern[str]] = []
    for i, pattern in enumerate(data.get(key) or []):
        if not isinstance(pattern, str):
            raise CatalogError(f"{name}: {key}[{i}]: must be a regex string")
        try:
            out.append(re.compile(pattern))
        except re.error as exc:
            raise CatalogError(f"{name}: {key}[{i}]: bad regex: {exc}") from None
    return out


def _flag_list(data: Mapping[str, Any], key: str, name: str) -> set[str]:
    out: set[str] = set()
    for flag in data.get(key) or []:
        if not isinstance(flag, str) or not _FLAG.match(flag):
            raise CatalogError(f"{name}: {key}: {flag!r} is not a flag name")
        out.add(flag)
    return out


def _unknown(data: Mapping[str, Any], allowed: Sequence[str], name: str, where: str) -> None:
    for key in data:
        if key not in allowed:
            raise CatalogError(f"{name}: {where}{key}: unknown key (known: {', '.join(allowed)})")


def _parse_class(raw: Any, name: str, where: str, target: str, order: int) -> FailureClass:
    if not isinstance(raw, Mapping):
        raise CatalogError(f"{name}: {where}: a class must be a mapping")
    class_id = raw.get("id")
    if not isinstance(class_id, str) or not _ID.match(class_id):
        raise CatalogError(f"{name}: {where}.id: required, [a-z0-9-]+")
    where = class_id
    _unknown(raw, CLASS_KEYS, name, f"{where}.")
    match = raw.get("match")
    if not isinstance(match, Mapping) or not match:
        raise CatalogError(f"{name}: {where}.match: required, a mapping of rules")
    _unknown(match, MATCH_KEYS, name, f"{where}.match.")
    rule = MatchRule(
        exception=_regex(match, "exception", name, where),
        function=_regex(match, "function", name, where),
        file=_regex(match, "file", name, where),
        message=_regex(match, "message", name, where),
        source=_regex(match, "source", name, where),
        evidence=_regex(match, "evidence", name, where),
        gate=_choice(match, "gate", GATES, name, where),
        signal=_text(match, "signal", name, where),
    )
    moves = raw.get("moves") or []
    if not isinstance(moves, list):
        raise CatalogError(f"{name}: {where}.moves: must be a list")
    groups = _groups(rule)
    specs = tuple(_parse_move(m, name, f"{where}.moves[{i}]", groups) for i, m in enumerate(moves))
    return FailureClass(
        id=class_id,
        title=str(raw.get("title") or class_id),
        match=rule,
        moves=specs,
        note=str(raw.get("note") or ""),
        target=target,
        origin=name,
        order=order,
        suspects_tuning=_flag_bool(raw, "suspects_tuning", name, where),
        part_first=_flag_bool(raw, "part_first", name, where),
    )


def _flag_bool(raw: Mapping[str, Any], key: str, name: str, where: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise CatalogError(f"{name}: {where}.{key}: must be true or false")
    return value


def _regex(match: Mapping[str, Any], key: str, name: str, where: str) -> re.Pattern[str] | None:
    value = match.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise CatalogError(f"{name}: {where}.match.{key}: must be a regex string")
    try:
        return re.compile(value)
    except re.error as exc:
        raise CatalogError(f"{name}: {where}.match.{key}: bad regex: {exc}") from None


def _choice(match: Mapping[str, Any], key: str, allowed: Sequence[str], name: str, where: str) -> str | None:
    value = match.get(key)
    if value is None:
        return None
    if value not in allowed:
        raise CatalogError(f"{name}: {where}.match.{key}: must be one of {', '.join(allowed)}")
    return str(value)


def _text(match: Mapping[str, Any], key: str, name: str, where: str) -> str | None:
    value = match.get(key)
    return None if value is None else str(value)


def _groups(rule: MatchRule) -> set[str]:
    names: set[str] = set()
    for key in ("exception", "function", "file", "message", "source", "evidence"):
        pattern = getattr(rule, key)
        if pattern is not None:
            names.update(pattern.groupindex)
    return names


def _parse_move(raw: Any, name: str, where: str, groups: set[str]) -> MoveSpec:
    if not isinstance(raw, Mapping) or not raw:
        raise CatalogError(f"{name}: {where}: a move is a mapping like {{drop: flag}} or {{set: {{flag: value}}}}")
    edits: list[EditSpec] = []
    when_set = raw.get("when_set", [])
    when_set = [when_set] if isinstance(when_set, str) else when_set
    if not isinstance(when_set, list) or not all(
        isinstance(f, str) and (_FLAG.match(f) or _FLAG_KEY.match(f)) for f in when_set
    ):
        raise CatalogError(f"{name}: {where}.when_set: must be a flag name (or flag.key) or a list of them")
    for op_name, body in raw.items():
        if op_name == "when_set":
            continue
        try:
            op = EditOp(op_name)
        except ValueError:
            known = ", ".join(o.value for o in EditOp)
            raise CatalogError(f"{name}: {where}.{op_name}: unknown op (known: {known})") from None
        edits.extend(_parse_edits(op, body, name, f"{where}.{op_name}", groups))
    if not edits:
        raise CatalogError(f"{name}: {where}: a move needs an edit besides when_set")
    return MoveSpec(tuple(edits), tuple(when_set))


def _parse_edits(op: EditOp, body: Any, name: str, where: str, groups: set[str]) -> list[EditSpec]:
    names_pattern = _ENV if op.on_env else _FLAG_KEY if op.on_key else _FLAG
    if op in (EditOp.DROP, EditOp.UNSET_ENV, EditOp.DROP_KEY):
        if isinstance(body, Mapping):
            return [EditSpec(op, _value_spec(body, name, where, groups))]
        items = body if isinstance(body, list) else [body]
        for item in items:
            if not isinstance(item, str) or not names_pattern.match(item):
                raise CatalogError(f"{name}: {where}: {item!r} is not a valid name")
        return [EditSpec(op, str(item)) for item in items]
    if not isinstance(body, Mapping) or not body:
        raise CatalogError(f"{name}: {where}: must map names to values")
    out: list[EditSpec] = []
    for target, value in body.items():
        if not isinstance(target, str) or not names_pattern.match(target):
            raise CatalogError(f"{name}: {where}.{target}: not a valid name")
        if isinstance(value, Mapping):
            out.append(EditSpec(op, target, _value_spec(value, name, f"{where}.{target}", groups)))
        elif op is EditOp.SCALE:
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise CatalogError(f"{name}: {where}.{target}: a scale factor must be a positive number")
            out.append(EditSpec(op, target, float(value)))
        else:
            if value is None or isinstance(value, Mapping):
                raise CatalogError(f"{name}: {where}.{target}: needs a value")
            out.append(EditSpec(op, target, value))
    return out


def _value_spec(body: Mapping[str, Any], name: str, where: str, groups: set[str]) -> ValueSpec:
    _unknown(body, VALUE_KEYS, name, f"{where}.")
    source = body.get("from")
    group = body.get("match")
    if source is None and group is None and "default" not in body:
        raise CatalogError(f"{name}: {where}: a computed value needs from:, match: or default:")
    if source is not None and (not isinstance(source, str) or not (_FLAG.match(source) or _FLAG_KEY.match(source))):
        raise CatalogError(f"{name}: {where}.from: must be a flag name (or flag.key)")
    if group is not None and group not in groups:
        raise CatalogError(f"{name}: {where}.match: no named group {group!r} in the class's regexes")
    for key in ("add", "mul", "min", "max"):
        if key in body and (isinstance(body[key], bool) or not isinstance(body[key], int | float)):
            raise CatalogError(f"{name}: {where}.{key}: must be a number")
    for key in ("round_up_to", "divisor_of"):
        if key in body and (not isinstance(body[key], str) or not _FLAG.match(body[key])):
            raise CatalogError(f"{name}: {where}.{key}: must be a flag name")
    swap = body.get("replace")
    if swap is not None and (not isinstance(swap, list) or len(swap) != 2 or not all(isinstance(x, str) for x in swap)):
        raise CatalogError(f"{name}: {where}.replace: must be [old, new]")
    return ValueSpec(
        source=source,
        group=group,
        add=float(body.get("add", 0)),
        mul=float(body.get("mul", 1)),
        minimum=body.get("min"),
        maximum=body.get("max"),
        default=body.get("default"),
        round_to=body.get("round"),
        round_up_to=body.get("round_up_to"),
        divisor_of=body.get("divisor_of"),
        replace=(str(swap[0]), str(swap[1])) if swap else None,
    )
