"""Moves read off a config-validation error, the way vLLM reports them. Pure.

vLLM builds its engine config from pydantic config classes, so most argument failures are
a ``ValidationError`` that names the class, the field and the constraint::

    1 validation error for SpeculativeConfig
    num_speculative_token
      Unexpected keyword argument [type=unexpected_keyword_argument, input_value=3, input_type=int]

or, from a model-level validator, a sentence relating two sizes (``max_num_batched_tokens
(2048) is smaller than max_model_len (8192)``, ``... (32) must be divisible by tensor
parallel size (3)``). Each field is placed where the candidate holds it: a flag
(``max_num_seqs`` -> ``--max-num-seqs``) or one key of a JSON-valued flag (a field of
SpeculativeConfig -> a key of ``--speculative-config``), and the constraint says which
value satisfies it: the nearest valid key or choice, the bound, a divisor, the other side
of a violated relation. A value quoted in a message without its field's name (``KeyError:
'FULL-AND-PIECEWISE'``) is placed by the candidate value that holds it. Every move here is
inferred; pinned flags and keys are refused later by repair.propose.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .choices import closest_choices
from .classify import Subject
from .meant import as_number
from .model import Edit, EditOp, Move, json_object
from .repair import Flags, _key_value

_HEADER = re.compile(r"^\s*(?P<count>\d+) validation errors? for (?P<config>\w+)\s*$")
_DETAIL = re.compile(
    r"^\s+(?:Value error, )?(?P<text>.*?)\s*\[type=(?P<kind>\w+)"
    r"(?:, input_value=(?P<value>.*?), input_type=(?P<type>\w+))?\]\s*$"
)
_QUOTED = re.compile(r"'([^'\n]{1,200})'")
_CHOICE_LIST = re.compile(
    r"(?:must be one of|valid (?:\w+ )?(?:values|modes|options|choices) are|supported (?:\w+ ){0,3}(?:are|is)"
    r"|choose from|one of)\s*:?\s*(?:\[(?P<items>[^\]]*)\]|(?P<bare>[\w.+-]+(?:,\s*[\w.+-]+)+))",
    re.IGNORECASE,
)
_SHOULD_BE = re.compile(r"^Input should be (?P<items>.+?)$")
_BOUND = re.compile(
    r"^Input should be (?P<rel>greater than or equal to|greater than|less than or equal to|less than) "
    r"(?P<bound>-?[\d.]+(?:e-?\d+)?)"
)
_NAMED_NUMBER = r"(?P<{0}>[A-Za-z_][\w.]*)\s*(?:=\s*|\(\s*(?:\w+=)?)(?P<{1}>-?\d+(?:\.\d+)?)"
_AT_MOST = re.compile(
    _NAMED_NUMBER.format("a", "x")
    + r"\)?\s*(?:must be <=|must be less than or equal to|must not exceed|cannot be (?:greater|larger) than"
    r"|is greater than|is larger than|exceeds)\s+(?:the\s+)?(?:\w+\s+){0,2}?" + _NAMED_NUMBER.format("b", "y")
)
_AT_LEAST = re.compile(
    _NAMED_NUMBER.format("a", "x")
    + r"\)?\s*(?:must be >=|must be greater than or equal to|must be at least|is smaller than|is less than"
    r"|cannot be (?:smaller|less) than)\s+(?:the\s+)?(?:\w+\s+){0,2}?" + _NAMED_NUMBER.format("b", "y")
)
_DIVISIBLE = re.compile(
    r"(?P<what>[A-Za-z_][\w ]*?)\s*\((?P<n>\d+)\)\s*(?:must be|is not|should be) (?:evenly )?divisible by "
    r"(?P<by>[A-Za-z_][\w ]*?)\s*\((?P<d>\d+)\)"
)
_PROVIDED_WITHOUT = re.compile(r"(?P<a>[a-z_][\w]*) (?:was|is) (?:provided|set|given) but without")
_DOES_NOT_MATCH = re.compile(r"\((?P<want>[\w.-]+)\) does not match .*?`(?P<name>[\w-]+)`[^(]*\((?P<given>[\w.-]+)\)")
_BACKTICKED = re.compile(r"`(?P<name>[a-z_][\w-]*)`")
_ASSIGNED = re.compile(r"(?P<name>[a-z_][\w]*)=(?P<value>[^\s,;]+)")
_NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
    )
}


@dataclass(frozen=True)
class FieldError:
    """One error of a pydantic ValidationError."""

    config: str  # the config class (SpeculativeConfig)
    field: str | None  # its loc; None for a model-level validator
    text: str  # "Input should be greater than 0"
    kind: str  # greater_than, unexpected_keyword_argument, value_error ...
    given: str | None = None  # the input value, as pydantic printed it


@dataclass(frozen=True)
class Place:
    """Where the candidate holds a field: a flag, or one key of a JSON-valued flag."""

    flag: str
    key: str | None = None

    def drop(self) -> Edit:
        return Edit(EditOp.DROP_KEY, self.flag, key=self.key) if self.key else Edit(EditOp.DROP, self.flag)

    def set(self, value: Any) -> Edit:
        if self.key:
            return Edit(EditOp.SET_KEY, self.flag, _frozen(_key_value(value)), key=self.key)
        return Edit(EditOp.SET, self.flag, _argv_text(value))


def parse_errors(message: str) -> list[FieldError]:
    """The errors of a pydantic ValidationError's text (empty when it is none)."""
    out: list[FieldError] = []
    config = ""
    loc: str | None = None
    for line in message.splitlines():
        header = _HEADER.match(line)
        if header:
            config, loc = header.group("config"), None
            continue
        if not config or not line.strip() or line.strip().startswith("For further information"):
            continue
        detail = _DETAIL.match(line)
        if detail:
            out.append(FieldError(config, loc, detail.group("text"), detail.group("kind"), detail.group("value")))
            loc = None
        elif not line[:1].isspace():
            loc = line.strip()
    return out


def validation_moves(subject: Subject, flags: Flags) -> list[Move]:
    """Inferred moves for a vLLM validation failure (none for other engines' failures)."""
    if not _is_vllm(subject):
        return []
    message = subject.said or ""
    moves: list[Move] = []
    errors = parse_errors(message)
    combined: list[Edit] = []
    for error in errors:
        found = list(_field_moves(error, flags))
        moves.extend(found)
        if found:
            combined.append(found[0].edits[0])
    if len(errors) > 1 and len(combined) > 1:
        moves.insert(0, _inferred(combined))  # several fields wrong at once: fix them together
    texts = [e.text for e in errors if e.field is None or e.kind == "value_error"] or [message]
    for text in texts:
        config = next((e.config for e in errors if e.text == text), "")
        moves.extend(_text_moves(text, config, subject.exception, flags))
    return moves


def _is_vllm(subject: Subject) -> bool:
    frames = subject.traceback.frames if subject.traceback is not None else ()
    if any("/vllm/" in f.file.replace("\\", "/") for f in frames):
        return True
    return bool(subject.said) and any(_HEADER.match(ln) for ln in subject.said.splitlines()[:3])


def _inferred(edits: Sequence[Edit]) -> Move:
    return Move(tuple(edits), inferred=True, origin="validation")


# --- where a field lives -----------------------------------------------------------------


def _kebab(config: str) -> str:
    """SpeculativeConfig -> speculative-config."""
    return re.sub(r"(?<!^)(?=[A-Z])", "-", config).lower()


def _snake(name: str) -> str:
    """numSpeculativeTokens -> num_speculative_tokens; spaces and dashes too."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).replace("-", "_").replace(" ", "_").lower()


def _json_flags(flags: Flags) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name, value in flags.candidate.args:
        data = json_object(value)
        if data is not None:
            out.append((name, data))
    return out


def _keys_of(flag: str, flags: Flags) -> tuple[str, ...]:
    info = flags.catalog.flag(flag)
    return info.keys if info is not None else ()


def place(field: str, config: str, flags: Flags) -> Place | None:
    """The candidate's flag (or JSON key) that holds ``field`` of ``config``."""
    field = field.split(".")[0]
    owner = flags.spelling(_kebab(config)) if config else None
    if owner is not None and json_object(flags.candidate.arg(owner)) is not None:
        key = _key_for(field, owner, flags)
        if key is not None:
            return Place(owner, key)
    for name, data in _json_flags(flags):  # a field of a class the message did not name
        if field in data:
            return Place(name, field)
    flag = field.replace("_", "-")
    if flags.spelling(flag) is not None:
        return Place(flags.target(flag))
    return None


def _key_for(field: str, owner: str, flags: Flags) -> str | None:
    data = json_object(flags.candidate.arg(owner)) or {}
    if field in data:
        return field
    known = set(data) | set(_keys_of(owner, flags))
    if field in known:
        return field
    # speculative_draft_tensor_parallel_size -> draft_tensor_parallel_size
    for key in sorted(known, key=len, reverse=True):
        if field.endswith("_" + key):
            return key
    return None


# --- one field's error ---------------------------------------------------------------------


def _field_moves(error: FieldError, flags: Flags) -> Iterator[Move]:
    if error.field is None:
        return
    where = place(error.field, error.config, flags)
    if where is None:
        return
    kind = error.kind
    if kind in ("unexpected_keyword_argument", "extra_forbidden") and where.key is not None:
        yield from _renames(where, flags)
        yield _inferred([where.drop()])
        return
    current = _current(where, flags)
    if kind in ("literal_error", "enum"):
        found = _SHOULD_BE.match(error.text)
        if found:
            for value in _closest(str(current), _items(found.group("items"))):
                yield _inferred([where.set(value)])
        yield _inferred([where.drop()])
        return
    bound = _BOUND.match(error.text)
    if bound:
        yield from _bounded(where, current, bound.group("rel"), float(bound.group("bound")), error)
        return
    listed = _CHOICE_LIST.search(error.text) if kind == "value_error" else None
    if listed is not None:  # "Invalid compilation mode: x. Valid modes are: A, B"
        for value in _closest(str(current), _listed(listed)):
            yield _inferred([where.set(value)])
        yield _inferred([where.drop()])
        return
    if kind.endswith("_parsing") or kind.endswith("_type"):
        word = str(current).strip().lower()
        if word in _NUMBER_WORDS:
            yield _inferred([where.set(_NUMBER_WORDS[word])])
        yield _inferred([where.drop()])
        return
    if kind == "missing":
        return


def _renames(where: Place, flags: Flags) -> Iterator[Move]:
    """A key the config class does not know: the nearest one it does, keeping the value."""
    data = json_object(flags.candidate.arg(where.flag)) or {}
    assert where.key is not None
    valid = [k for k in _keys_of(where.flag, flags) if k not in data]
    wanted = _snake(where.key)
    names = ([wanted] if wanted in valid else []) + difflib.get_close_matches(wanted, valid, n=2, cutoff=0.6)
    for name in dict.fromkeys(names):
        yield _inferred([where.drop(), Place(where.flag, name).set(data[where.key])])


def _bounded(where: Place, current: Any, rel: str, bound: float, error: FieldError) -> Iterator[Move]:
    whole = (error.given or "").lstrip("-").isdigit() or isinstance(current, int)
    number = as_number(current)
    if rel.startswith("less") and bound == 1 and number is not None and 1 < number <= 100:
        yield _inferred([where.set(_tidy(number / 100))])  # a fraction written as a percentage
    if rel == "greater than":
        value: float | None = bound + 1 if whole else None
    elif rel == "less than":
        value = bound - 1 if whole else None
    else:
        value = bound
    if value is not None:
        yield _inferred([where.set(_tidy(value))])
    yield _inferred([where.drop()])  # back to the default, which satisfies it


# --- a sentence of a model-level validator (or any message) -------------------------------------


def _text_moves(text: str, config: str, exception: str, flags: Flags) -> Iterator[Move]:
    for pattern, larger in ((_AT_MOST, False), (_AT_LEAST, True)):
        for found in pattern.finditer(text):
            yield from _relation(found, larger, config, flags)
    for found in _DIVISIBLE.finditer(text):
        yield from _divisible(found, config, flags)
    for found in _DOES_NOT_MATCH.finditer(text):
        where = _named(found.group("name"), config, flags)
        if where is not None:
            yield _inferred([where.set(found.group("want"))])
            yield _inferred([where.drop()])
    for found in _PROVIDED_WITHOUT.finditer(text):
        where = _named(found.group("a"), config, flags)
        if where is not None:
            yield _inferred([where.drop()])
    yield from _choices(text, flags)
    yield from _held_values(text, exception, flags)
    for found in _ASSIGNED.finditer(text):
        where = _named(found.group("name"), config, flags)
        if where is not None:
            yield _inferred([where.drop()])
    for found in _BACKTICKED.finditer(text):
        where = _named(found.group("name"), config, flags)
        if where is not None:
            yield _inferred([where.drop()])


def _named(name: str, config: str, flags: Flags) -> Place | None:
    return place(_snake(name), config, flags)


def _relation(found: re.Match[str], larger: bool, config: str, flags: Flags) -> Iterator[Move]:
    """``a (x) ... b (y)`` where a must be <= b (or >= when ``larger``): move either side."""
    a, b = _named(found.group("a"), config, flags), _named(found.group("b"), config, flags)
    x, y = _tidy(float(found.group("x"))), _tidy(float(found.group("y")))
    if a is not None:
        yield _inferred([a.set(y)])
    if b is not None and b != a:
        yield _inferred([b.set(x)])
    if a is not None and not larger:
        yield _inferred([a.drop()])


def _divisible(found: re.Match[str], config: str, flags: Flags) -> Iterator[Move]:
    n, d = int(found.group("n")), int(found.group("d"))
    by = _named(found.group("by").strip(), config, flags)
    if by is not None and n > 0:
        divisors = [k for k in range(1, n + 1) if n % k == 0]
        below = [k for k in divisors if k <= d]
        above = [k for k in divisors if k > d]
        for value in ([below[-1]] if below else []) + ([above[0]] if above else []):
            yield _inferred([by.set(value)])
    what = _named(found.group("what").strip(), config, flags)
    if what is not None and d > 0 and n >= d:
        yield _inferred([what.set(n - n % d)])


def _choices(text: str, flags: Flags) -> Iterator[Move]:
    """``Must be one of [...]`` with a value of the candidate's in the text: the nearest."""
    listed = _CHOICE_LIST.search(text)
    if listed is None:
        return
    head = text[: listed.start()]
    for where, value in _holders(head, flags):
        for best in _closest(str(value), _listed(listed))[:1]:
            yield _inferred([where.set(best)])
        yield _inferred([where.drop()])  # the nearest name may need what the model lacks


def _listed(found: re.Match[str]) -> list[str]:
    items = found.group("items") if found.group("items") is not None else found.group("bare")
    return [c.strip().strip("'\"") for c in items.split(",") if c.strip()]


def _held_values(text: str, exception: str, flags: Flags) -> Iterator[Move]:
    """A value the message quotes without naming its field, placed by who holds it."""
    short = exception.rsplit(".", 1)[-1]
    if short == "IndexError" and not _QUOTED.findall(text):
        # A parser that stumbles over a value written like an option (-0.5): such values.
        for name, value in flags.candidate.args:
            if isinstance(value, str) and value.startswith("-") and not flags.is_pinned(name):
                yield _inferred([Edit(EditOp.DROP, name)])
    if short == "JSONDecodeError":
        yield from _json_repairs(flags)
        return
    quoted = _QUOTED.findall(text) or ([text.strip()] if short == "KeyError" else [])
    for where, value in _holders(" ".join(f"'{q}'" for q in quoted), flags):
        if short == "KeyError":
            for key in _QUOTED.findall(text) or [text.strip().strip("'")]:
                spelled = re.sub(r"\W", "_", key)
                if spelled != value:
                    yield _inferred([where.set(spelled)])
        yield _inferred([where.drop()])


def _holders(text: str, flags: Flags) -> list[tuple[Place, Any]]:
    """Candidate values quoted in ``text`` (same letters, any case, - or _), and where."""
    quoted = {_norm(q) for q in _QUOTED.findall(text)}
    words = {_norm(w.strip(".-")) for w in re.findall(r"[\w.-]+", text)}
    out: list[tuple[Place, Any]] = []
    for name, value in flags.candidate.args:
        data = json_object(value)
        if data is not None:
            out += [(Place(name, k), v) for k, v in data.items() if isinstance(v, str) and _norm(v) in quoted]
        elif (
            isinstance(value, str)
            and (_norm(value) in quoted or (len(value) > 2 and _norm(value) in words))
            and not flags.is_pinned(name)
            and name not in ("model", "host")
        ):
            out.append((Place(name), value))
    return out


def _json_repairs(flags: Flags) -> Iterator[Move]:
    """A JSON-valued flag whose value is no JSON: written as a Python dict or k=v pairs."""
    for name, value in flags.candidate.args:
        info = flags.catalog.flag(name)
        if not isinstance(value, str) or info is None or not info.keys or json_object(value) is not None:
            continue
        repaired = _as_object(value)
        if repaired is not None:
            yield _inferred([Edit(EditOp.SET, name, _json_text(repaired))])
        yield _inferred([Edit(EditOp.DROP, name)])


def _as_object(text: str) -> dict[str, Any] | None:
    try:
        literal = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        literal = None
    if isinstance(literal, dict):
        return {str(k): v for k, v in literal.items()}
    pairs = [p.split("=", 1) for p in re.split(r"[,\s]+", text.strip()) if p]
    if pairs and all(len(p) == 2 and p[0] for p in pairs):
        return {k: _scalar(v) for k, v in pairs}
    return None


# --- values --------------------------------------------------------------------------------------


def _current(where: Place, flags: Flags) -> Any:
    if where.key is not None:
        return flags.candidate.json_key(where.flag, where.key)
    return flags.candidate.arg(where.flag)


def _items(text: str) -> list[str]:
    """``'a', 'b' or 'c'`` / ``0, 1, 2 or 3`` -> the items."""
    parts = re.split(r",\s*|\s+or\s+", text.strip().rstrip("."))
    return [p.strip().strip("'\"") for p in parts if p.strip()]


def _closest(given: str, choices: Sequence[str]) -> list[str]:
    number = as_number(given)
    numbers = [(as_number(c), c) for c in choices]
    if number is not None and numbers and all(n is not None for n, _ in numbers):
        return [min(numbers, key=lambda nc: abs(float(nc[0] or 0) - number))[1]]
    exact = [c for c in choices if _norm(c) == _norm(given)]
    return list(dict.fromkeys([*exact, *closest_choices(given.lower(), choices)[:2]]))


def _norm(text: str) -> str:
    return re.sub(r"[-_\s]", "", str(text)).lower()


def _tidy(value: float) -> int | float:
    return int(value) if float(value).is_integer() else round(value, 6)


def _scalar(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    number = as_number(text)
    if number is None:
        return text
    return _tidy(number) if "." not in text else number


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _argv_text(value: Any) -> str:
    if isinstance(value, float):
        return str(_tidy(value))
    return str(value)


def _json_text(data: dict[str, Any]) -> str:
    from .model import json_text

    return json_text(data)
