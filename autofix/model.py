"""Frozen values shared by every layer: candidates, moves, gates, failures, attempts, runs.

Nothing here does I/O. A :class:`Candidate` is one concrete launch (args + env) with a
canonical JSON form and a stable key (sha256 of that form), the way black's
``Mode.get_cache_key`` names a configuration.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from functools import cached_property
from typing import Any

# A flag's value in a candidate: True is a bare flag (``--trust-remote-code``), a str is
# one value, a tuple of str is a flag that takes several (``--x 2 16 29``). Absent flags
# are simply not in the candidate; values are kept as the strings that reach argv, so
# ``tp: 8`` and ``tp: "8"`` are the same launch and hash the same.
ArgValue = bool | str | tuple[str, ...]

REDACTED = "<redacted>"


def normalize_value(value: object) -> ArgValue | None:
    """Turn a YAML scalar or list into the value a candidate holds (None: absent)."""
    if value is None or value is False:
        return None
    if value is True:
        return True
    if isinstance(value, Mapping):
        # A JSON-valued flag written as a YAML mapping (vLLM's --speculative-config).
        return json_text(value)
    if isinstance(value, list | tuple):
        return tuple(_scalar_text(v) for v in value)
    return _scalar_text(value)


def _scalar_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        # 0.9 stays "0.9"; 2.0 from a scale move becomes "2", as an operator writes it.
        return str(int(value))
    return str(value)


def flag_tokens(flag: str) -> list[str]:
    """The argv words a flag's name stands for: ``page-size`` -> ``--page-size``.

    A name written with its own dashes is the user's spelling, kept as typed so the
    target's parser sees what the user's command had (``---page-size``); a name with a
    space is the words of a split flag (``- -trust-remote-code``).
    """
    if " " in flag:
        return flag.split()
    return [flag] if flag.startswith("-") else [f"--{flag}"]


@dataclass(frozen=True)
class Candidate:
    """One concrete launch: ordered flags and environment. Immutable; edits return copies."""

    args: tuple[tuple[str, ArgValue], ...]
    env: tuple[tuple[str, str], ...] = ()

    @classmethod
    def build(cls, args: Mapping[str, object], env: Mapping[str, object] | None = None) -> Candidate:
        """Build from YAML-like mappings, dropping absent (false/null) flags."""
        pairs: list[tuple[str, ArgValue]] = []
        for flag, raw in args.items():
            value = normalize_value(raw)
            if value is not None:
                pairs.append((flag, value))
        env_pairs = tuple((name, str(v)) for name, v in (env or {}).items() if v is not None)
        return cls(tuple(pairs), env_pairs)

    # -- reading -----------------------------------------------------------------------
    def arg(self, flag: str) -> ArgValue | None:
        for name, value in self.args:
            if name == flag:
                return value
        return None

    def has(self, flag: str) -> bool:
        return any(name == flag for name, _ in self.args)

    def env_value(self, name: str) -> str | None:
        return dict(self.env).get(name)

    def args_dict(self) -> dict[str, ArgValue]:
        return dict(self.args)

    def env_dict(self) -> dict[str, str]:
        return dict(self.env)

    def argv(self) -> list[str]:
        """The command-line arguments, in the order the flags were written."""
        out: list[str] = []
        for flag, value in self.args:
            out.extend(flag_tokens(flag))
            if value is True:
                continue
            if isinstance(value, tuple):
                out.extend(value)
            else:
                out.append(str(value))
        return out

    # -- editing -----------------------------------------------------------------------
    def with_arg(self, flag: str, value: ArgValue) -> Candidate:
        """Set a flag, in place when present (keeping the order), else appended."""
        if self.has(flag):
            pairs = tuple((n, value if n == flag else v) for n, v in self.args)
        else:
            pairs = (*self.args, (flag, value))
        return replace(self, args=pairs)

    def without_arg(self, flag: str) -> Candidate:
        return replace(self, args=tuple((n, v) for n, v in self.args if n != flag))

    def with_key(self, flag: str, key: str, value: KeyValue) -> Candidate:
        """Set one key of a JSON-object flag (the flag made ``{key: value}`` when absent);
        unchanged when the flag holds something that is not a JSON object."""
        current = self.arg(flag)
        data = {} if current is None else json_object(current)
        if data is None:
            return self
        return self.with_arg(flag, json_text({**data, key: value}))

    def without_key(self, flag: str, key: str) -> Candidate:
        """Remove one key of a JSON-object flag (the flag goes when it was the last key)."""
        data = json_object(self.arg(flag))
        if data is None or key not in data:
            return self
        rest = {k: v for k, v in data.items() if k != key}
        return self.with_arg(flag, json_text(rest)) if rest else self.without_arg(flag)

    def json_key(self, flag: str, key: str) -> Any:
        """The value of one key of a JSON-object flag (None when absent)."""
        data = json_object(self.arg(flag))
        return None if data is None else data.get(key)

    def renamed(self, old: str, new: str) -> Candidate:
        """``old`` spelled ``new`` in its place, value kept; if ``new`` is already set, ``old``
        just goes (the candidate's own value for ``new`` wins)."""
        if not self.has(old) or old == new:
            return self
        if self.has(new):
            return self.without_arg(old)
        return replace(self, args=tuple((new if n == old else n, v) for n, v in self.args))

    def with_env(self, name: str, value: str) -> Candidate:
        if name in self.env_dict():
            pairs = tuple((n, value if n == name else v) for n, v in self.env)
        else:
            pairs = (*self.env, (name, value))
        return replace(self, env=pairs)

    def without_env(self, name: str) -> Candidate:
        return replace(self, env=tuple((n, v) for n, v in self.env if n != name))

    # -- identity ----------------------------------------------------------------------
    def canonical(self) -> str:
        """Canonical JSON: sorted keys, no whitespace; order of flags does not matter."""
        return json.dumps(
            {
                "args": {k: list(v) if isinstance(v, tuple) else v for k, v in self.args},
                "env": dict(self.env),
            },
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )

    @cached_property
    def key(self) -> str:
        """sha256 of the canonical form: the candidate's identity everywhere."""
        return hashlib.sha256(self.canonical().encode()).hexdigest()

    @property
    def short(self) -> str:
        return self.key[:10]

    def redacted(self) -> Candidate:
        """The same candidate with the values of secret-looking env names replaced. The
        store redacts with the run's whole :class:`~autofix.secrets.Secrets` (flags too)."""
        from .secrets import Secrets  # secrets builds on this module

        return Secrets().redact(self)

    def to_json(self) -> dict[str, Any]:
        """Ordered JSON form (the canonical form sorts; this keeps the operator's order)."""
        return {
            "args": [[k, list(v) if isinstance(v, tuple) else v] for k, v in self.args],
            "env": [[k, v] for k, v in self.env],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Candidate:
        args: list[tuple[str, ArgValue]] = []
        for k, v in data["args"]:
            args.append((k, tuple(v) if isinstance(v, list) else v))
        return cls(tuple(args), tuple((k, v) for k, v in data["env"]))


def diff(old: Candidate, new: Candidate) -> list[tuple[str, str, object, object]]:
    """Differences as (kind, name, old, new) rows; kind is ``arg`` or ``env``."""
    rows: list[tuple[str, str, object, object]] = []
    for kind, a, b in (("arg", old.args_dict(), new.args_dict()), ("env", old.env_dict(), new.env_dict())):
        a_map: dict[str, object] = dict(a)
        b_map: dict[str, object] = dict(b)
        for name in list(a_map) + [n for n in b_map if n not in a_map]:
            if a_map.get(name) != b_map.get(name):
                rows.append((kind, name, a_map.get(name), b_map.get(name)))
    return rows


def _said(value: object) -> str:
    """A flag's value as the operator wrote it."""
    if value is True:
        return "on"
    if isinstance(value, tuple):
        return " ".join(value)
    return str(value)


def gave_up(base: Candidate, winner: Candidate, renamed: Mapping[str, str] | None = None) -> list[str]:
    """What the winner gave up from the base, in the operator's words: flags and env vars
    dropped, values changed. A flag only renamed (the spelling another release knows,
    ``renamed`` old -> new) with its value kept gives up nothing."""
    renamed = dict(renamed or {})
    new_args = winner.args_dict()
    out: list[str] = []
    for flag, value in base.args:
        now_as = renamed.get(flag, flag)
        now = new_args.get(now_as)
        where = f" (as {now_as})" if now_as != flag else ""
        if now is None:
            out.append(f"--{flag} {_said(value)}: dropped" if value is not True else f"--{flag}: dropped")
        elif now != value:
            out.append(f"--{flag}: {_said(value)} -> {_said(now)}{where}")
    new_env = winner.env_dict()
    for name, value in base.env:
        if name not in new_env:
            out.append(f"{name}={value}: unset")
        elif new_env[name] != value:
            out.append(f"{name}: {value} -> {new_env[name]}")
    return out


def renames(moves: Iterable[Move]) -> dict[str, str]:
    """The flags a path of moves (base first) respelled: the base's spelling -> the last."""
    out: dict[str, str] = {}
    for move in moves:
        for edit in move.edits:
            if edit.op is EditOp.RENAME and isinstance(edit.value, str):
                first = next((old for old, now in out.items() if now == edit.target), edit.target)
                out[first] = edit.value
    return out


def added(base: Candidate, winner: Candidate, renamed: Mapping[str, str] | None = None) -> list[str]:
    """What the winner adds to the base (flags and env vars the operator did not write)."""
    spelled = set(base.args_dict()) | set((renamed or {}).values())
    out = [f"--{flag} {_said(value)}" for flag, value in winner.args if flag not in spelled]
    base_env = base.env_dict()
    out += [f"{name}={value}" for name, value in winner.env if name not in base_env]
    return out


def distance(old: Candidate, new: Candidate) -> int:
    """How many flags and env vars differ: the search's 'how far from what the user asked'."""
    return len(diff(old, new))


# --- repair moves ---------------------------------------------------------------------------


class EditOp(StrEnum):
    DROP = "drop"
    SET = "set"
    SCALE = "scale"
    SET_ENV = "set_env"
    UNSET_ENV = "unset_env"
    # A flag the target's parser does not know, spelled as it knows it (value kept):
    # target is the user's spelling, value the name the parser knows.
    RENAME = "rename"
    # One key inside a flag whose value is a JSON object (vLLM's --speculative-config).
    SET_KEY = "set_key"
    DROP_KEY = "drop_key"

    @property
    def on_env(self) -> bool:
        return self in (EditOp.SET_ENV, EditOp.UNSET_ENV)

    @property
    def on_key(self) -> bool:
        return self in (EditOp.SET_KEY, EditOp.DROP_KEY)


# A JSON value a set_key move writes into a JSON-valued flag (a list from a tuple).
KeyValue = str | int | float | bool | list[Any] | None


def json_object(value: ArgValue | None) -> dict[str, Any] | None:
    """A flag's value read as a JSON object (None: absent, or not one)."""
    if not isinstance(value, str):
        return None
    try:
        data = json.loads(value)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def json_text(data: Mapping[str, Any]) -> str:
    """A JSON object as one argv value, keys in the order written."""
    return json.dumps(dict(data), ensure_ascii=False)


@dataclass(frozen=True)
class Edit:
    """One concrete change to a candidate: flag (or env name) and value where one applies;
    ``key`` names the field inside a JSON-valued flag for set_key / drop_key."""

    op: EditOp
    target: str
    value: ArgValue | float | None = None
    key: str | None = None

    @property
    def where(self) -> str:
        """``flag`` or, for an edit inside a JSON-valued flag, ``flag.key``."""
        return f"{self.target}.{self.key}" if self.key is not None else self.target

    def label(self) -> str:
        if self.op in (EditOp.DROP, EditOp.UNSET_ENV, EditOp.DROP_KEY):
            return f"{self.op.value} {self.where}"
        if self.op is EditOp.SET_KEY:
            return f"set_key {self.where}={json.dumps(self.value)}"
        if self.op is EditOp.RENAME:
            return f"rename {self.target} to {self.value}"
        if self.op is EditOp.SCALE:
            # A realized scale move holds the new value (the factor lives in the catalogue).
            return f"scale {self.target} to {self.value}"
        shown = " ".join(self.value) if isinstance(self.value, tuple) else self.value
        return f"{self.op.value} {self.target}={shown}"

    def to_json(self) -> dict[str, Any]:
        key = "name" if self.op.on_env else "flag"
        out: dict[str, Any] = {"op": self.op.value, key: self.target}
        if self.key is not None:
            out["key"] = self.key
        if self.value is not None or self.op is EditOp.SET_KEY:
            out["value"] = list(self.value) if isinstance(self.value, tuple) else self.value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Edit:
        raw = data.get("value")
        value: ArgValue | float | None = tuple(raw) if isinstance(raw, list) else raw
        key = data.get("key")
        return cls(EditOp(data["op"]), data.get("flag") or data["name"], value, str(key) if key is not None else None)


# The origin of a move that spells a value the user gave as the name they evidently meant
# (EAGLE-3 -> EAGLE3): like a rename, it keeps what they asked for (search weighs it so).
SPELLED_ORIGIN = "spelled"


@dataclass(frozen=True)
class Move:
    """A repair move: one or more edits applied together, and where it came from.

    ``origin`` is the failure class id for curated moves, or the inference that
    produced it (``message``, ``assert``, ``source``, ``argparse``) when ``inferred``.
    """

    edits: tuple[Edit, ...]
    inferred: bool = False
    origin: str = ""
    # Checks further down the line this move meets in advance (a value set with what the
    # host's checks ask of it): the search weighs it as that many fixes further on.
    ahead: int = 0

    def label(self) -> str:
        return "; ".join(e.label() for e in self.edits)

    def to_json(self) -> dict[str, Any]:
        """The DESIGN.md move shape (first edit), with further edits under ``with``."""
        first, *rest = self.edits
        out = {**first.to_json(), "inferred": self.inferred, "origin": self.origin}
        if rest:
            out["with"] = [e.to_json() for e in rest]
        if self.ahead:
            out["ahead"] = self.ahead
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Move:
        edits = [Edit.from_json(data), *(Edit.from_json(e) for e in data.get("with", []))]
        return cls(
            tuple(edits), bool(data.get("inferred", False)), str(data.get("origin", "")), int(data.get("ahead", 0))
        )


# --- gates, failures, attempts ---------------------------------------------------------------


class Gate(StrEnum):
    """The checks a candidate must pass, in this order."""

    PREFLIGHT = "preflight"
    START = "start"
    READY = "ready"
    SMOKE = "smoke"
    BENCH = "bench"

    @property
    def on_gpus(self) -> bool:
        """Gates after preflight need the candidate launched for real."""
        return self is not Gate.PREFLIGHT


GATE_ORDER: tuple[Gate, ...] = tuple(Gate)


# One gate as it ran: its name and the settings that decide its verdict (a ready timeout,
# a bench floor). Two attempts of one candidate are the same test only where these agree.
GateRun = tuple[Gate, tuple[tuple[str, object], ...]]


@dataclass(frozen=True)
class GatePlan:
    """The gates an attempt runs, in order, with the settings each is judged by.

    The candidate cache reuses an outcome only for a search that asks the same questions:
    a pass answers every gate it ran and no other (a preflight-only pass says nothing
    about loading the weights), a failure at gate g answers any search that runs the same
    gates up to and including g with the same settings.
    """

    runs: tuple[GateRun, ...]

    @property
    def gates(self) -> tuple[Gate, ...]:
        return tuple(gate for gate, _ in self.runs)

    def prefix(self, gate: Gate) -> tuple[GateRun, ...] | None:
        """The gates up to and including ``gate``; None when the plan does not run it."""
        for i, (name, _) in enumerate(self.runs):
            if name is gate:
                return self.runs[: i + 1]
        return None

    def answered_by(self, state: AttemptState, failed_gate: Gate | None, earlier: GatePlan) -> bool:
        """Whether an outcome recorded under ``earlier`` answers this plan's questions."""
        if state is AttemptState.PASSED:
            return set(self.runs) <= set(earlier.runs)
        if failed_gate is None:
            return False
        mine = self.prefix(failed_gate)
        return mine is not None and mine == earlier.prefix(failed_gate)

    def to_json(self) -> list[list[Any]]:
        return [[gate.value, [[k, v] for k, v in settings]] for gate, settings in self.runs]

    @classmethod
    def from_json(cls, data: Any) -> GatePlan:
        return cls(tuple((Gate(g), tuple((str(k), v) for k, v in settings)) for g, settings in data))


@dataclass(frozen=True)
class GateVerdict:
    gate: Gate
    ok: bool
    seconds: float
    detail: str = ""


@dataclass(frozen=True)
class Frame:
    file: str
    line: int
    function: str
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "function": self.function, "source": self.source}


@dataclass(frozen=True)
class Failure:
    """What a failed gate left behind, sorted into a failure class (or not)."""

    gate: Gate
    class_id: str | None
    fingerprint: str
    exception: str
    message: str
    frame: Frame | None = None
    evidence: str = ""
    # Whether the host, not the config, failed (host_lost): never fed to the classifier.
    host_fault: bool = False

    @property
    def title(self) -> str:
        return f"{self.exception}: {self.message}" if self.message else self.exception


class AttemptState(StrEnum):
    RUNNING = "running"
    PASSED = "passed"
    FAILED = "failed"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"
    HOST_LOST = "host_lost"
    # The host would not let the candidate be judged: its port is held by a process that
    # is not the candidate (before the launch or while it ran). Says nothing of the config.
    BLOCKED = "blocked"

    @property
    def is_finished(self) -> bool:
        return self is not AttemptState.RUNNING

    @property
    def judges_config(self) -> bool:
        """Outcomes that say something about the candidate itself (cacheable)."""
        return self in (AttemptState.PASSED, AttemptState.FAILED, AttemptState.TIMEOUT)


class RunStatus(StrEnum):
    RUNNING = "running"
    PASSED = "passed"
    EXHAUSTED = "exhausted"
    INTERRUPTED = "interrupted"
    ERROR = "error"

    @property
    def exit_code(self) -> int:
        return {RunStatus.PASSED: 0, RunStatus.EXHAUSTED: 1}.get(self, 1)


@dataclass(frozen=True)
class Attempt:
    id: int
    run_id: int
    seq: int
    candidate: Candidate
    parent_id: int | None
    move: Move | None
    state: AttemptState
    started_at: datetime
    ended_at: datetime | None = None
    verdicts: tuple[GateVerdict, ...] = ()
    failure: Failure | None = None
    # What the target resolved at preflight: flag -> value, including silent rewrites.
    resolved: tuple[tuple[str, object], ...] = ()
    launched: bool = False
    log_excerpt: str = ""
    cached_from: int | None = None
    # The gates (and their settings) the attempt was judged by; None for records written
    # before autofix kept it (never reused: what they answered is unknown).
    plan: GatePlan | None = None

    @property
    def seconds(self) -> float | None:
        if self.ended_at is None:
            return None
        return (self.ended_at - self.started_at).total_seconds()

    @property
    def failed_gate(self) -> Gate | None:
        return next((v.gate for v in self.verdicts if not v.ok), None)


@dataclass(frozen=True)
class Run:
    id: int
    name: str
    base_path: str
    base_text: str
    host: str
    target: str
    status: RunStatus
    started_at: datetime
    ended_at: datetime | None = None
    winner_id: int | None = None
    options: tuple[tuple[str, object], ...] = field(default=())


def pairs(mapping: Mapping[str, object] | Iterable[tuple[str, object]]) -> tuple[tuple[str, object], ...]:
    """A mapping as a tuple of pairs (frozen values hold no dicts)."""
    items = mapping.items() if isinstance(mapping, Mapping) else mapping
    return tuple((str(k), v) for k, v in items)
