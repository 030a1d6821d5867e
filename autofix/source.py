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
import itertools
from dataclasses import dataclass

MAX_PRODUCT = 16

# A condition on one field: (field, relation, constant). Relations: is, is not, ==, !=,
# in, not in, <, <=, >, >=, truthy, falsy. A conjunction is a tuple of them.
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


def constant(node: ast.expr) -> object:
    """A literal, a field of the record, or a tuple of those; else ``...``."""
    if isinstance(node, ast.Constant):
        return node.value
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
        dividend, divisor = _product(node.left.left), field_of(node.left.right)
        if dividend is not None and divisor is not None:
            return (divisor, "divides", dividend)
        return None
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        relation = _OPS.get(type(node.ops[0]))
        if relation is None:
            return None
        left, right = node.left, node.comparators[0]
        field = field_of(left)
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
