"""Reading the failing code: which assert or raise failed, and under which ``if``. Pure.

A traceback shows one line of the failing statement (for the seed: ``and
cfg.speculative_num_draft_tokens is None``, a fragment). The host's installed source file
holds the whole statement and the branches around it; :func:`failing_site` finds them
with :mod:`ast`, and :func:`alternatives` turns "make this true" / "make this false" into
sets of conditions on ``cfg.<field>`` that repair moves can satisfy::

    if not cfg.speculative_adaptive and cfg.speculative_num_steps is None:
        assert (
            cfg.speculative_eagle_topk is None
            and cfg.speculative_num_draft_tokens is None
        )

    assert holds    -> {topk is None, draft_tokens is None}          (both)
    branch not taken -> {speculative_adaptive} | {num_steps is not None}  (either)
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from .meant import as_number

MAX_PRODUCT = 16
# A condition's field may be a product of fields (``attn_dp_size*attn_cp_size``).
PRODUCT = "*"

# A condition on one field (or a product of fields, joined by PRODUCT): (field, relation,
# constant). Relations: is, is not, ==, !=, in, not in, <, <=, >, >=, truthy, falsy, and
# divides (the field divides the product of the fields in the constant). A conjunction is a
# tuple of them.
Condition = tuple[str, str, object]
Conjunction = tuple[Condition, ...]

_OPS: dict[type, str] = {
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
}
_NEGATED = {
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
}
_FLIPPED = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "==", "!=": "!="}


@dataclass(frozen=True)
class Site:
    """The failing statement and the branches that led to it (innermost first)."""

    kind: str  # assert | raise | other
    test: ast.expr | None  # the assert's test
    branches: tuple[tuple[ast.expr, bool], ...]  # (if-test, True when in its body)


def failing_site(source: str, line: int) -> Site | None:
    """The innermost statement that spans ``line``, and its enclosing ``if`` tests."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    path: list[tuple[ast.AST, str]] = []
    found = _descend(tree, line, path)
    if found is None:
        return None
    branches: list[tuple[ast.expr, bool]] = []
    for node, field in reversed(path):
        if isinstance(node, ast.If):
            branches.append((node.test, field == "body"))
    if isinstance(found, ast.Assert):
        return Site("assert", found.test, tuple(branches))
    if isinstance(found, ast.Raise):
        return Site("raise", None, tuple(branches))
    return Site("other", None, tuple(branches))


def _descend(node: ast.AST, line: int, path: list[tuple[ast.AST, str]]) -> ast.stmt | None:
    for field in ("body", "orelse", "finalbody", "handlers"):
        for child in getattr(node, field, None) or []:
            if not isinstance(child, ast.stmt | ast.excepthandler):
                continue
            start, end = child.lineno, getattr(child, "end_lineno", child.lineno) or child.lineno
            if start <= line <= end:
                path.append((node, field))
                deeper = _descend(child, line, path)
                if deeper is not None:
                    return deeper
                if isinstance(child, ast.stmt):
                    return child
                path.pop()
    return None


def field_of(node: ast.expr) -> str | None:
    """``cfg.x``, ``self.x``, ``server_args.x``, ``resolved_view(server_args).x`` -> ``x``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name | ast.Call | ast.Attribute):
        return node.attr
    return None


@dataclass(frozen=True)
class FieldRef:
    """Another field of the record in a condition (``cfg.tp_size`` in ``in (None, 1, cfg.tp_size)``):
    its value is the candidate's, or what the parser defaults it to."""

    name: str


@dataclass(frozen=True)
class CountOf:
    """``len(cfg.x)`` in a condition: how many items the record's field x holds (the
    candidate's list: three LoRA paths are 3)."""

    name: str


def constant(node: ast.expr) -> object:
    """A literal, a field of the record, a count of one, or a tuple of those; else ``...``."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1:
        counted = field_of(node.args[0])
        return CountOf(counted) if counted is not None else ...
    field = field_of(node)
    if field is not None:
        return FieldRef(field)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        values = [constant(e) for e in node.elts]
        if all(v is not ... for v in values):
            return tuple(values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        if isinstance(value, int | float):
            return -value
    return ...


def _product(node: ast.expr) -> tuple[str, ...] | None:
    """``cfg.tp_size * cfg.pp_size`` -> (tp_size, pp_size); a single field -> (field,)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        left, right = _product(node.left), _product(node.right)
        return left + right if left is not None and right is not None else None
    field = field_of(node)
    return (field,) if field is not None else None


def _atom(node: ast.expr) -> Condition | None:
    # `a % b == 0` (a a field or a product of fields): b divides a.
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Eq)
        and isinstance(node.left, ast.BinOp)
        and isinstance(node.left.op, ast.Mod)
        and constant(node.comparators[0]) == 0
    ):
        dividend, divisors = _product(node.left.left), _product(node.left.right)
        if dividend is not None and divisors is not None:
            return (PRODUCT.join(divisors), "divides", dividend)
        return None
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        relation = _OPS.get(type(node.ops[0]))
        if relation is None:
            return None
        left, right = node.left, node.comparators[0]
        field = field_of(left)
        factors = _product(left)
        if field is None and factors is not None and len(factors) > 1:
            field = PRODUCT.join(factors)  # `cfg.ep_size * cfg.moe_dp_size <= cfg.tp_size`
        value = constant(right)
        if field is None:  # `1 < cfg.x` -> `cfg.x > 1`
            field, value = field_of(right), constant(left)
            if relation not in _FLIPPED:
                return None
            relation = _FLIPPED[relation]
        if field is None or value is ...:
            return None
        return (field, relation, value)
    field = field_of(node)
    return (field, "truthy", None) if field is not None else None


def alternatives(expr: ast.expr, want: bool) -> list[Conjunction] | None:
    """Ways to make ``expr`` evaluate to ``want``: a list of conjunctions (any one will
    do). None when nothing can be said about the expression (it is left as it is)."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return alternatives(expr.operand, not want)
    if isinstance(expr, ast.BoolOp):
        parts = [alternatives(v, want) for v in expr.values]
        every = isinstance(expr.op, ast.And) == want  # and->true, or->false: all must hold
        if every:
            known = [p for p in parts if p is not None]
            if not known:
                return None
            combos: list[Conjunction] = []
            for choice in itertools.islice(itertools.product(*known), MAX_PRODUCT):
                combos.append(tuple(c for conj in choice for c in conj))
            return combos
        merged = [conj for p in parts if p is not None for conj in p]
        return merged or None
    atom = _atom(expr)
    if atom is None:
        return None
    field, relation, value = atom
    if relation not in _NEGATED:
        return [((field, relation, value),)] if want else None
    return [((field, relation if want else _NEGATED[relation], value),)]


# --- the checks a value must pass: what an operator reads before choosing it -----------------

# A field whose value is not known (not a flag: derived or resolved at start).
UNKNOWN = object()


@dataclass(frozen=True)
class Requirement:
    """A check whose message names a value: its ``test`` must come out ``want`` whenever
    the ``if`` tests around it (innermost first) come out as ``guards`` say."""

    test: ast.expr
    want: bool
    guards: tuple[tuple[ast.expr, bool], ...]

    def fields(self) -> set[str]:
        return {f for node in ast.walk(self.test) if (f := field_of(node)) is not None}  # type: ignore[arg-type]


@functools.lru_cache(maxsize=8)
def _tree(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def requirements_naming(source: str, value: str) -> list[Requirement]:
    """The asserts, and the ``if ...: raise`` checks, whose message names ``value`` (as a
    word of its own): what the host's code asks of a server that runs with it."""
    tree = _tree(source)
    if tree is None:
        return []
    named = re.compile(rf"(?<![\w-]){re.escape(value)}(?![\w-])")
    out: list[Requirement] = []
    _collect(tree.body, (), named, out)
    # A check that tests the value itself lists it among a flag's allowed ones ("... one of
    # deepep, mooncake or mori"): it is about that flag, not about what the value needs.
    return [r for r in out if value not in _constants(r.test)]


def _constants(test: ast.expr) -> set[object]:
    return {n.value for n in ast.walk(test) if isinstance(n, ast.Constant)}


Guards = tuple[tuple[ast.expr, bool], ...]


def _collect(body: list[ast.stmt], guards: Guards, named: re.Pattern[str], out: list[Requirement]) -> None:
    for node in body:
        if isinstance(node, ast.If) and not node.orelse and isinstance(node.body[-1], ast.Return):
            # `if size is None: return`: what follows runs only when the test is false.
            guards = ((node.test, False), *guards)
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            _collect(node.body, (), named, out)  # a function's checks hold whoever calls it
        elif isinstance(node, ast.Assert):
            if node.msg is not None and _names(node.msg, named):
                out.append(Requirement(node.test, True, guards))
        elif isinstance(node, ast.If):
            raises = [s for s in node.body if isinstance(s, ast.Raise) and s.exc is not None]
            if any(_names(s.exc, named) for s in raises):  # type: ignore[arg-type]
                out.append(Requirement(node.test, False, guards))
            _collect(node.body, ((node.test, True), *guards), named, out)
            _collect(node.orelse, ((node.test, False), *guards), named, out)
        elif isinstance(node, ast.With | ast.For | ast.While | ast.Try):
            _collect(node.body, guards, named, out)


def _names(node: ast.expr, named: re.Pattern[str]) -> bool:
    """Whether the message text written in ``node`` (its string parts) names the value."""
    text = " ".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))
    return named.search(text) is not None


def evaluate(expr: ast.expr, value_of: Callable[[str], object]) -> bool | None:
    """What a check's test comes out as, with each field's value from ``value_of``
    (UNKNOWN for one not known); None when that cannot be told."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        inner = evaluate(expr.operand, value_of)
        return None if inner is None else not inner
    if isinstance(expr, ast.BoolOp):
        parts = [evaluate(v, value_of) for v in expr.values]
        decisive = isinstance(expr.op, ast.Or)  # or: one True decides; and: one False
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and type(expr.ops[0]) in _OPS:
        left, right = _operand(expr.left, value_of), _operand(expr.comparators[0], value_of)
        if left is UNKNOWN or right is UNKNOWN:
            return None
        return _compare(left, _OPS[type(expr.ops[0])], right)
    field = field_of(expr)
    if field is None:
        return None
    got = value_of(field)
    return None if got is UNKNOWN else _truthy(got)


def _operand(node: ast.expr, value_of: Callable[[str], object]) -> object:
    field = field_of(node)
    if field is not None:
        return value_of(field)
    value = constant(node)
    if value is ...:
        return UNKNOWN
    if isinstance(value, CountOf):
        items = value_of(value.name)
        return len(items) if isinstance(items, tuple | list) else UNKNOWN
    if isinstance(value, tuple):
        values = tuple(value_of(v.name) if isinstance(v, FieldRef) else v for v in value)
        return UNKNOWN if UNKNOWN in values else values
    return value


def _compare(left: object, relation: str, right: object) -> bool | None:
    if relation in ("in", "not in"):
        if not isinstance(right, tuple):
            return None
        inside = any(_same(left, v) for v in right)
        return inside if relation == "in" else not inside
    if relation in ("is", "==", "is not", "!="):
        same = _same(left, right)
        return same if relation in ("is", "==") else not same
    a, b = as_number(left), as_number(right)
    if a is None or b is None:
        return None
    return {">": a > b, ">=": a >= b, "<": a < b, "<=": a <= b}[relation]


def _same(a: object, b: object) -> bool:
    if a is None or b is None:
        return a is None and b is None
    x, y = as_number(a), as_number(b)
    if x is not None and y is not None:
        return x == y
    return str(a).lower() == str(b).lower()


def _truthy(value: object) -> bool:
    if isinstance(value, str):
        return value.lower() not in ("", "0", "false", "none")
    return bool(value)
