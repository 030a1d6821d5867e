"""(Candidate, Diagnosis) -> child candidates: curated moves first, then inferred ones. Pure.

Curated moves come from the failure class in the catalogue. Inferred moves are read off
the failure itself, for failures nobody catalogued: flags and values the message names
(``requires --speculative-eagle-topk=1``, ``incompatible with --x``), argparse's own
error (``invalid choice: 'fp8' (choose from …)`` -> the closest valid choice), and the
fields the failing assert compares (``cfg.speculative_eagle_topk is None`` -> drop it).
Pinned flags (the user's intent) are never touched.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .catalog import Catalog, EditSpec, MoveSpec, ValueSpec
from .classify import Diagnosis, Subject
from .model import ArgValue, Candidate, Edit, EditOp, Move, normalize_value


@dataclass(frozen=True)
class Proposal:
    move: Move
    child: Candidate
    rank: int


class Flags:
    """Flag-name helper bound to one candidate: aliases, field names, pinned flags."""

    def __init__(
        self,
        candidate: Candidate,
        catalog: Catalog,
        pinned: Iterable[str] = (),
        *,
        assume_present: bool = False,
    ) -> None:
        self.candidate = candidate
        self.catalog = catalog
        self.pinned = {catalog.canonical(p) for p in pinned}
        # Offline classification has no candidate: treat every named flag as set.
        self.assume_present = assume_present

    def spelling(self, flag: str) -> str | None:
        """How the candidate writes this flag (``tp`` for ``tp-size``), None if absent."""
        for name in self.catalog.spellings(flag):
            if self.candidate.has(name):
                return name
        return flag if self.assume_present else None

    def target(self, flag: str) -> str:
        """The spelling to edit: the candidate's own, else the flag as given."""
        return self.spelling(flag) or flag

    def value(self, flag: str, resolved: Mapping[str, object]) -> object:
        spelling = self.spelling(flag)
        if spelling is not None:
            return self.candidate.arg(spelling)
        return resolved.get(field_name(self.catalog.canonical(flag)))

    def is_pinned(self, flag: str) -> bool:
        return self.catalog.canonical(flag) in self.pinned


def field_name(flag: str) -> str:
    return flag.replace("-", "_")


def flag_name(field: str) -> str:
    return field.replace("_", "-")


# --- applying ------------------------------------------------------------------------------


def apply(candidate: Candidate, move: Move) -> Candidate:
    out = candidate
    for edit in move.edits:
        if edit.op is EditOp.DROP:
            out = out.without_arg(edit.target)
        elif edit.op in (EditOp.SET, EditOp.SCALE):
            value = normalize_value(edit.value)
            out = out.with_arg(edit.target, value) if value is not None else out.without_arg(edit.target)
        elif edit.op is EditOp.SET_ENV:
            out = out.with_env(edit.target, str(edit.value))
        elif edit.op is EditOp.UNSET_ENV:
            out = out.without_env(edit.target)
    return out


def propose(
    candidate: Candidate,
    diagnosis: Diagnosis,
    catalog: Catalog,
    *,
    pinned: Iterable[str] = (),
    resolved: Mapping[str, object] | None = None,
    extra: Sequence[Move] = (),
) -> list[Proposal]:
    """Every child worth trying, best first: curated, then inferred (``extra`` last)."""
    flags = Flags(candidate, catalog, pinned)
    resolved = resolved or {}
    moves: list[Move] = []
    cls = diagnosis.failure_class
    if cls is not None:
        for spec in cls.moves:
            move = realize(spec, flags, resolved, diagnosis.groups, origin=cls.id)
            if move is not None:
                moves.append(move)
    moves.extend(infer(diagnosis.subject, flags, resolved))
    moves.extend(extra)

    proposals: list[Proposal] = []
    seen: set[str] = {candidate.key}
    for move in moves:
        if any(not e.op.on_env and flags.is_pinned(e.target) for e in move.edits):
            continue
        child = apply(candidate, move)
        if child.key in seen:
            continue
        seen.add(child.key)
        proposals.append(Proposal(move, child, len(proposals)))
    return proposals


# --- curated moves: specs -> concrete edits ------------------------------------------------


def realize(
    spec: MoveSpec,
    flags: Flags,
    resolved: Mapping[str, object],
    groups: Mapping[str, str],
    *,
    origin: str,
) -> Move | None:
    """A move spec made concrete for this candidate; None when it cannot apply."""
    edits: list[Edit] = []
    for edit in spec.edits:
        concrete = _realize_edit(edit, flags, resolved, groups)
        if concrete is None:
            return None
        if not flags.assume_present and _is_noop(concrete, flags.candidate):
            continue
        edits.append(concrete)
    return Move(tuple(edits), inferred=False, origin=origin) if edits else None


def _realize_edit(
    spec: EditSpec, flags: Flags, resolved: Mapping[str, object], groups: Mapping[str, str]
) -> Edit | None:
    target = spec.target
    if isinstance(target, ValueSpec):
        name = _compute(target, flags, resolved, groups)
        if name is None:
            return None
        target = str(name)
    if spec.op is EditOp.DROP:
        return Edit(EditOp.DROP, flags.target(target))
    if spec.op is EditOp.UNSET_ENV:
        return Edit(EditOp.UNSET_ENV, target)
    if spec.op is EditOp.SCALE:
        base = flags.value(target, resolved)
        number = _number(base)
        if number is None:
            return None
        factor = float(spec.value)
        return Edit(EditOp.SCALE, flags.target(target), _tidy(round(number * factor, 3)))
    value = spec.value
    if isinstance(value, ValueSpec):
        value = _compute(value, flags, resolved, groups)
        if value is None:
            return None
    if spec.op is EditOp.SET_ENV:
        return Edit(EditOp.SET_ENV, target, str(value))
    normalized = normalize_value(value)
    if normalized is None:
        return Edit(EditOp.DROP, flags.target(target))
    return Edit(EditOp.SET, flags.target(target), normalized)


def _compute(spec: ValueSpec, flags: Flags, resolved: Mapping[str, object], groups: Mapping[str, str]) -> Any:
    base: object = None
    if spec.group is not None:
        base = groups.get(spec.group)
    elif spec.source is not None:
        base = flags.value(spec.source, resolved)
    if base is None or base is True:
        base = spec.default
    if base is None:
        return None
    if spec.add == 0 and spec.mul == 1 and spec.minimum is None and spec.maximum is None:
        return base
    number = _number(base)
    if number is None:
        return None
    result = number * spec.mul + spec.add
    if spec.minimum is not None:
        result = max(result, float(spec.minimum))
    if spec.maximum is not None:
        result = min(result, float(spec.maximum))
    if spec.round_to is not None:
        result = round(result, spec.round_to)
    return _tidy(result)


def _number(value: object) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _tidy(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def offline_moves(diagnosis: Diagnosis, catalog: Catalog) -> list[Move]:
    """Moves for a failure seen without its candidate (``autofix classify``).

    Computed values that need the candidate's flags are left out; every flag the
    failure names is assumed set, so the inferred moves show what would be tried.
    """
    flags = Flags(Candidate(()), catalog, assume_present=True)
    moves: list[Move] = []
    cls = diagnosis.failure_class
    if cls is not None:
        for spec in cls.moves:
            move = realize(spec, flags, {}, diagnosis.groups, origin=cls.id)
            if move is not None:
                moves.append(move)
    moves.extend(infer(diagnosis.subject, flags, {}))
    unique: dict[str, Move] = {}
    for move in moves:
        unique.setdefault(move.label(), move)
    return list(unique.values())


def _is_noop(edit: Edit, candidate: Candidate) -> bool:
    if edit.op is EditOp.DROP:
        return not candidate.has(edit.target)
    if edit.op is EditOp.UNSET_ENV:
        return candidate.env_value(edit.target) is None
    if edit.op is EditOp.SET_ENV:
        return candidate.env_value(edit.target) == edit.value
    return candidate.arg(edit.target) == normalize_value(edit.value)


# --- inferred moves ------------------------------------------------------------------------

_FLAG_IN_TEXT = re.compile(r"--([a-z0-9][a-z0-9-]*)")
_REQUIRES_VALUE = re.compile(
    r"(?:requires|use|set|pass|only supports|must be|needs?)\s+--([a-z0-9][a-z0-9-]*)(?:\s*=\s*|\s+)'?\"?([\w.:/-]+)"
)
_REQUIRES_FLAG = re.compile(
    r"requires\s+--([a-z0-9][a-z0-9-]*)(?:\s+(?:to be (?:set|specified|enabled)|as well|and --([a-z0-9][a-z0-9-]*)))?"
)
_DROP_HINT = re.compile(
    r"(?:incompatible with|conflicts? with|cannot be combined with|not supported (?:together )?with"
    r"|does not support|drop)\s+--([a-z0-9][a-z0-9-]*)"
)
_INVALID_CHOICE = re.compile(
    r"argument (?:--)?([a-z0-9][a-z0-9-]*)(?:/[^:]*)?: invalid choice: '?([^'(]*?)'? \(choose from (.*)\)"
)
_UNRECOGNIZED = re.compile(r"unrecognized arguments: (.*)")
_BAD_VALUE = re.compile(r"argument (?:--)?([a-z0-9][a-z0-9-]*)(?:/[^:]*)?: (?:expected|invalid \w+ value)")


def infer(subject: Subject, flags: Flags, resolved: Mapping[str, object]) -> list[Move]:
    """Moves read off the failure text and the failing assert; all labelled inferred."""
    moves: list[Move] = []
    message = subject.message or ""
    moves.extend(_from_argparse(message, flags))
    moves.extend(_from_message(message, flags))
    if subject.frame is not None and subject.frame.source:
        moves.extend(_from_source(subject.frame.source, flags))
    return moves


def _inferred(edits: Sequence[Edit], origin: str) -> Move:
    return Move(tuple(edits), inferred=True, origin=origin)


def _from_argparse(message: str, flags: Flags) -> list[Move]:
    out: list[Move] = []
    choice = _INVALID_CHOICE.search(message)
    if choice:
        flag, given, listed = choice.group(1), choice.group(2), choice.group(3)
        choices = [c.strip().strip("'\"") for c in listed.split(",") if c.strip()]
        for best in closest_choices(given, choices)[:2]:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), best)], "argparse"))
        if flags.spelling(flag):
            out.append(_inferred([Edit(EditOp.DROP, flags.target(flag))], "argparse"))
    unknown = _UNRECOGNIZED.search(message)
    if unknown:
        drops = [Edit(EditOp.DROP, f) for f in _FLAG_IN_TEXT.findall(unknown.group(1)) if flags.candidate.has(f)]
        if drops:
            out.append(_inferred(drops, "argparse"))
    bad = _BAD_VALUE.search(message)
    if bad and flags.spelling(bad.group(1)):
        out.append(_inferred([Edit(EditOp.DROP, flags.target(bad.group(1)))], "argparse"))
    return out


def closest_choices(given: str, choices: Sequence[str]) -> list[str]:
    """Valid choices nearest to what was given: prefix matches first, then by similarity."""
    given_l = given.lower()
    prefixed = [c for c in choices if c.lower().startswith(given_l) and given_l]
    similar = difflib.get_close_matches(given, choices, n=len(choices), cutoff=0.0)
    return list(dict.fromkeys([*prefixed, *similar]))


def _domain_first(flag: str, flags: Flags) -> ArgValue | None:
    values = flags.catalog.domains.get(flags.catalog.canonical(flag))
    return normalize_value(values[0]) if values else None


def _from_message(message: str, flags: Flags) -> list[Move]:
    out: list[Move] = []
    for flag, value in _REQUIRES_VALUE.findall(message):
        value = value.rstrip(".,;)")
        if value and not value.startswith("-") and value.lower() not in ("to", "be", "and", "or", "is"):
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), value)], "message"))
    for match in _REQUIRES_FLAG.finditer(message):
        for flag in filter(None, match.groups()):
            if flags.spelling(flag) is None:
                value = _domain_first(flag, flags)
                if value is not None:
                    out.append(_inferred([Edit(EditOp.SET, flag, value)], "message"))
    for flag in _DROP_HINT.findall(message):
        if flags.spelling(flag):
            out.append(_inferred([Edit(EditOp.DROP, flags.target(flag))], "message"))
    # Last resort: a flag the message names and the candidate sets goes back to its default.
    for flag in dict.fromkeys(_FLAG_IN_TEXT.findall(message)):
        if flags.spelling(flag):
            out.append(_inferred([Edit(EditOp.DROP, flags.target(flag))], "message"))
    return out


def _parse_fragment(source: str) -> ast.expr | None:
    """Parse an assert's (possibly partial) source line as an expression."""
    text = source.strip().rstrip(",").rstrip("(").strip()
    text = re.sub(r"^(assert|if|elif|and|or|return)\s+", "", text)
    text = re.sub(r":$", "", text)
    for attempt in (text, f"({text})", text.split(",")[0]):
        try:
            return ast.parse(attempt, mode="eval").body
        except SyntaxError:
            continue
    return None


def _field_of(node: ast.expr) -> str | None:
    """``cfg.speculative_eagle_topk`` / ``self.x`` / ``server_args.x`` -> ``speculative_eagle_topk``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name | ast.Call | ast.Attribute):
        return node.attr
    return None


def _const(node: ast.expr) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts and isinstance(node.elts[0], ast.Constant):
        return node.elts[0].value
    return None


def conditions(expr: ast.expr) -> list[tuple[str, str, Any]]:
    """Atomic conditions of a boolean expression as (field, relation, constant) triples."""
    out: list[tuple[str, str, Any]] = []
    if isinstance(expr, ast.BoolOp):
        for value in expr.values:
            out.extend(conditions(value))
    elif isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        out.extend((f, _negate(rel), c) for f, rel, c in conditions(expr.operand))
    elif isinstance(expr, ast.Compare) and len(expr.ops) == 1:
        left, op, right = expr.left, expr.ops[0], expr.comparators[0]
        field = _field_of(left)
        if field is None:
            return out
        relation = {
            ast.Is: "is",
            ast.IsNot: "is not",
            ast.Eq: "==",
            ast.NotEq: "!=",
            ast.In: "in",
            ast.NotIn: "not in",
            ast.Gt: ">",
            ast.GtE: ">=",
            ast.Lt: "<",
            ast.LtE: "<=",
        }.get(type(op))
        if relation is not None:
            out.append((field, relation, _const(right)))
    else:
        field = _field_of(expr)
        if field is not None:
            out.append((field, "truthy", None))
    return out


def _negate(relation: str) -> str:
    return {
        "is": "is not",
        "is not": "is",
        "==": "!=",
        "!=": "==",
        "in": "not in",
        "not in": "in",
        "truthy": "falsy",
        "falsy": "truthy",
        ">": "<=",
        "<=": ">",
        "<": ">=",
        ">=": "<",
    }[relation]


def moves_to_satisfy(field: str, relation: str, const: Any, flags: Flags, origin: str) -> list[Move]:
    """Moves that make ``field relation const`` hold for the candidate."""
    flag = flag_name(field)
    present = flags.spelling(flag) is not None
    target = flags.target(flag)
    edits: list[Edit] = []
    if relation in ("is", "falsy") and const is None and present:
        edits = [Edit(EditOp.DROP, target)]
    elif relation in ("==", "in") and const is not None and not isinstance(const, bool):
        edits = [Edit(EditOp.SET, target, str(const))]
    elif relation in ("!=", "not in") and present:
        edits = [Edit(EditOp.DROP, target)]
    elif relation in ("is not", "truthy") and not present:
        value = _domain_first(flag, flags)
        if value is not None:
            edits = [Edit(EditOp.SET, target, value)]
    return [_inferred(edits, origin)] if edits else []


def _from_source(source: str, flags: Flags) -> list[Move]:
    expr = _parse_fragment(source)
    if expr is None:
        return []
    out: list[Move] = []
    for field, relation, const in conditions(expr):
        out.extend(moves_to_satisfy(field, relation, const, flags, "assert"))
    return out
