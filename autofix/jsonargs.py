"""Moves for flags that take a JSON value (``--cuda-graph-config``, ``--json-model-override-
args``, ``--preferred-sampling-params`` …), read as an operator fixes them. Pure.

* A value that is no JSON (bare keys, single quotes, Python's True/None, trailing commas,
  ``k=v,k2=v2``) is written as the JSON it evidently meant: the parse error names no flag,
  so the flag is the one whose value does not parse and can be mended.
* A key the check does not know (``unknown phase 'max_bs', expected one of ('decode',
  'prefill')``) is renamed to the nearest key the message lists, else the object is placed
  under the section it lists (first listed first); a key no list names is dropped. Every
  other key the user wrote is kept.
* An inner part a template rendered with the wrong type (an object serialized on its own, a
  number written as a string) is what it evidently meant, when the failure is the server
  finding a string there ("'str' object has no attribute 'get'", "'<=' not supported between
  instances of 'str' and 'int'").
* Typographic quotes (a wiki's “key”) are JSON's straight ones; a one-item list holding the
  object meant (a YAML list item rendered with toJson), where the server reads an object
  ("'list' object has no attribute 'items'"), is that object.
* A value the user wrote that a check refuses by name (``Unknown quantization method:
  slimquant_w4a8``) takes the object's section that holds it out.

The whole value is set in one edit, so nested keys are handled like top-level ones.
"""

from __future__ import annotations

import ast
import difflib
import functools
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import yaml

from .classify import Subject
from .model import Edit, EditOp, Move, json_object, json_text
from .renames import same_state

# A JSON parse failure, as json raises it or as a check reports it.
_MALFORMED = re.compile(
    r"JSONDecodeError|Expecting (?:value|property name|',' delimiter|':' delimiter)|must be (?:a )?(?:valid )?JSON"
    r"|is not (?:valid|parseable) JSON|not parseable|Invalid JSON|Extra data: line"
    # argparse's words when the flag's type is json.loads: "invalid loads value: '...'"
    r"|invalid loads value"
    # a JSON string where an object was read (an object serialized twice)
    r"|'str' object has no attribute '(?:items|get|keys)'",
)
# A key refused by name: "unknown phase 'max_bs'", "unexpected key \"x\"", "Unknown field: 'y'".
_UNKNOWN_KEY = re.compile(
    r"(?i)\b(?:unknown|unexpected|unsupported|unrecognized|invalid|not an? (?:valid|allowed))"
    r"(?:\s+[\w-]+){0,2}?\s*[:=]?\s*['\"`](?P<key>[^'\"`\n]{1,80})['\"`]"
)
# The names a message allows after it: "expected one of ('decode', 'prefill')".
_ALLOWED = re.compile(
    r"(?i)(?:expected one of|must be one of|one of|valid (?:keys|names|options|fields) are"
    r"|allowed(?: \w+)?(?: are)?:?|choose from)"
    r"\s*[:(\[{]?\s*(?P<names>(?:['\"`][^'\"`\n]{1,60}['\"`]\s*,?\s*(?:or\s+)?){1,20})"
)
_QUOTED = re.compile(r"['\"`]([^'\"`\n]{1,60})['\"`]")
# Keys a check requires: "does not contain 'lora_name' and 'lora_path' keys", "missing keys: 'a', 'b'".
_MISSING_KEYS = re.compile(
    r"(?i)(?:does not contain|doesn't contain|must contain|missing(?: required)?(?: keys?)?:?|requires? (?:the )?keys?)"
    r"\s+(?P<names>(?:['\"`][\w.-]{1,60}['\"`]\s*(?:,|and|or)?\s*){1,10})"
)
# Words in a flag's name that say its value is a structure.
_STRUCTURED = re.compile(r"(?:^|-)(?:config|args|params|kwargs|overrides?|extra)(?:-|$)")
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_][\w.-]*)\s*:")
# A quote after a backslash, in a value that is no JSON: the value's own quotes, escaped.
_ESCAPED_QUOTE = re.compile(r"\\(['\"])")
_TYPOGRAPHIC_QUOTES = re.compile("[\u201c\u201d\u2018\u2019]")
_STRAIGHT_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_PAIRS = re.compile(r"^\s*[A-Za-z_][\w.-]*\s*=[^=]*(?:,\s*[A-Za-z_][\w.-]*\s*=[^=]*)*$")
# One key given an object or a list the way launchers take overrides: key={...}, key=[...].
_KEY_EQUALS_STRUCTURE = re.compile(r"^\s*(?P<key>[A-Za-z_][\w.-]*)\s*=\s*(?P<value>[\[{].*)$", re.DOTALL)
MIN_KEY_SIMILARITY = 0.6


def json_moves(
    subject: Subject, candidate_args: tuple[tuple[str, Any], ...], list_flags: frozenset[str] = frozenset()
) -> list[Move]:
    """Moves on the JSON-valued flags of ``candidate_args`` that ``subject`` refuses.
    ``list_flags``: those of them that take several values (one given is held bare)."""
    message = subject.said or ""
    text = f"{subject.exception}: {message}"
    moves: list[Move] = []
    if _MALFORMED.search(text):
        moves.extend(_mended(message, candidate_args))
    refused = _UNKNOWN_KEY.search(message)
    if refused is not None:
        moves.extend(_rekeyed(refused.group("key"), _allowed(message, refused.end()), message, candidate_args))
    if _WANTS_ARRAY.search(message):
        moves.extend(_as_pairs(message, candidate_args))
    refused_value = _REFUSED_IN_JSON.search(message)
    if refused_value is not None:
        moves.extend(_revalued(refused_value, candidate_args))
    looked_up = _KEY_ERROR.match(text)
    if looked_up is not None:
        moves.extend(_key_looked_up(looked_up.group("key"), candidate_args))
    if _NUMBER_AS_TEXT.search(text):
        moves.extend(_numbers_unquoted(candidate_args))
    for typed in _EXPECTED_TYPE.finditer(message):
        moves.extend(_each_changed(candidate_args, functools.partial(_typed_deep, **typed.groupdict())))
    if _LIST_FOR_OBJECT.search(text):
        moves.extend(_each_changed(candidate_args, _lone_object))
    missing = _MISSING_KEYS.search(message)
    if missing is not None:
        moves.extend(_given_keys(_QUOTED.findall(missing.group("names")), message, candidate_args, list_flags))
    if _REFUSES.search(message):
        moves.extend(_without_refused_value(message, candidate_args))
    return moves


# --- a key the server looked up and did not find ------------------------------------------------

# "KeyError: 'factor'": the code read that key of an object the user gave (an identifier, not
# a weight's dotted name).
_KEY_ERROR = re.compile(r"^KeyError: ['\"](?P<key>[A-Za-z_]\w{0,60})['\"]$")


def _key_looked_up(key: str, args: tuple[tuple[str, Any], ...]) -> Iterator[Move]:
    """Each JSON-valued flag with an object (at any depth) that lacks ``key`` and holds a key
    sharing a word with it ("rope_factor" for "factor"): that key renamed to it."""
    return _each_changed(args, lambda data: _required_deep(data, key))


def _each_changed(args: tuple[tuple[str, Any], ...], change: Callable[[Any], Any]) -> Iterator[Move]:
    """Each flag holding a JSON object or list that ``change`` changes, set to what it gives."""
    for name, value in args:
        if not isinstance(value, str) or not value.lstrip().startswith(("{", "[")):
            continue
        data = _json_of(value)
        if not isinstance(data, dict | list):
            continue
        written = json.dumps(change(data), ensure_ascii=False)
        # (compared as written: 131072 == 131072.0 in Python, not in a strict config)
        if written != json.dumps(data, ensure_ascii=False):
            yield _set(name, written)


def _leaves_mapped(data: Any, leaf: Callable[[Any], Any]) -> Any:
    """``data`` with every value that is no object or list replaced by ``leaf`` of it."""
    if isinstance(data, dict):
        return {k: _leaves_mapped(v, leaf) for k, v in data.items()}
    if isinstance(data, list):
        return [_leaves_mapped(v, leaf) for v in data]
    return leaf(data)


def _required_deep(data: Any, key: str) -> Any:
    """``data`` with the first object that lacks ``key`` and holds a key of its words renamed
    (a key holding a value; one holding an object or a list is a section, not the value read)."""
    if not isinstance(data, dict):
        return data
    if key not in data:
        values = {k: v for k, v in data.items() if not isinstance(v, dict | list)}
        renamed = _with_required(values, [key])
        if renamed != values:
            old = next(k for k in values if k not in renamed)
            return {key if k == old else k: v for k, v in data.items()}
    for k, v in data.items():
        inner = _required_deep(v, key)
        if inner != v:
            return {**data, k: inner}
    return data


# --- a field given a value of the wrong type -----------------------------------------------------

# A config class naming the type a field expected: "Field 'max_position_embeddings' expected
# int, got str (value: '65536')", "Field 'architectures' expected a list, got str".
_EXPECTED_TYPE = re.compile(r"Field '(?P<key>[A-Za-z_]\w{0,60})' expected (?:an? )?(?P<wanted>int|float|list|str)\b")


def _typed_deep(data: Any, key: str, wanted: str) -> Any:
    """``data`` with every value under ``key`` (at any depth) written as ``wanted``, where
    it evidently can be; other values as they are."""
    if isinstance(data, list):
        return [_typed_deep(v, key, wanted) for v in data]
    if not isinstance(data, dict):
        return data
    return {k: _as_type(v, wanted) if k == key else _typed_deep(v, key, wanted) for k, v in data.items()}


def _as_type(value: Any, wanted: str) -> Any:
    """``value`` as the type a field expected: a number's string as the number, a whole
    float as an int, a lone value as a one-item list, a number as its string."""
    number = _number_of(value) if isinstance(value, str) else value
    if wanted == "int" and isinstance(number, int | float) and not isinstance(number, bool):
        return int(number) if float(number).is_integer() else value
    if wanted == "float" and isinstance(number, int | float) and not isinstance(number, bool):
        return float(number)
    if wanted == "list" and not isinstance(value, list | dict):
        return [value]
    if wanted == "str" and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value


# --- an object a template wrapped in a list -----------------------------------------------------

# Python's words when a list stands where an object is read.
_LIST_FOR_OBJECT = re.compile(r"'list' object has no attribute '(?:items|get|keys)'")


def _lone_object(data: Any) -> Any:
    """The one object a one-item list holds (a YAML list item rendered with toJson); any
    other value as it is."""
    return data[0] if isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict) else data


# --- a number a template wrote as a string ----------------------------------------------------

# Python's words when a string stands where a number is computed with: "'<=' not supported
# between instances of 'str' and 'int'", "can't multiply sequence by non-int of type
# 'float'", "must be real number, not str", "unsupported operand type(s) for *: 'str' and ...".
_NUMBER_AS_TEXT = re.compile(
    r"between instances of '(?:str' and '(?:int|float)|(?:int|float)' and 'str)'"
    r"|can't multiply sequence by non-int|must be real number, not str"
    r"|unsupported operand type\(s\) for [^:]{1,3}: '(?:str' and '(?:int|float)|(?:int|float)' and 'str)'"
    # a number's string multiplied by an int: the string repeated, then read as a number
    r"|invalid literal for int\(\) with base 10: '(?P<unit>\d+(?:\.\d+)?)(?P=unit){2}"
    r"|Exceeds the limit \(\d+ digits\) for integer string conversion"
)
_NUMBER_TEXT = re.compile(r"^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$")


def _numbers_unquoted(args: tuple[tuple[str, Any], ...]) -> Iterator[Move]:
    """Each JSON-valued flag whose value holds numbers written as strings, with the numbers."""
    return _each_changed(args, lambda data: _leaves_mapped(data, _number_of))


def _number_of(leaf: Any) -> Any:
    """A string that is a number written out, as that number; anything else as it is."""
    if not isinstance(leaf, str) or not _NUMBER_TEXT.match(leaf):
        return leaf
    number = float(leaf)
    return int(number) if number.is_integer() and "." not in leaf and "e" not in leaf.lower() else number


# --- a value of the user's inside the JSON that a check refuses by name ---------------------

_REFUSES = re.compile(r"(?i)\b(?:unknown|unsupported|not supported|invalid|unrecognized|does not match)\b")
MIN_NAMED_VALUE = 4  # shorter values ("fp8", "1") are named by too many messages


def _without_refused_value(message: str, args: tuple[tuple[str, Any], ...]) -> Iterator[Move]:
    """The top-level section of a JSON object that holds a value the message names
    ("Unknown quantization method: slimquant_w4a8" and a quantization_config holding it)
    taken out; the flag dropped when that section was all it held."""
    for name, value in args:
        data = json_object(value)
        if not data:
            continue
        for section, inner in data.items():
            if any(_names_value(message, leaf) for leaf in _leaves(inner) if len(leaf) >= MIN_NAMED_VALUE):
                yield _set_or_drop(name, _without(data, (section,)))
                break


def _names_value(message: str, value: str) -> bool:
    """``value`` stands in the message as a word of its own (a sentence's full stop aside)."""
    return re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w-]|\.\w)", message, re.IGNORECASE) is not None


def _leaves(data: Any) -> Iterator[str]:
    """The text values of a JSON value, however deep."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for inner in data.values():
            yield from _leaves(inner)
    elif isinstance(data, list):
        for inner in data:
            yield from _leaves(inner)


# --- a value inside the JSON that the check refuses, with the values it allows ------------

# "--cuda-graph-config[decode].backend='piecewise' not allowed; allowed: ('full', 'breakable')"
_REFUSED_IN_JSON = re.compile(
    r"--(?P<flag>[a-z0-9][a-z0-9-]*)(?P<path>(?:\[[\w.-]{1,60}\])*)\.(?P<key>[\w-]{1,60})=['\"](?P<value>[^'\"\n]{0,80})['\"]"
    r"[^\n]{0,40}?(?:not allowed|invalid|not supported|unsupported)[^\n]{0,20}?(?:allowed|choices|one of)[:\s]*"
    r"[(\[{]?(?P<names>(?:\s*['\"][^'\"\n]{1,60}['\"]\s*,?){1,20})"
)


def _revalued(found: re.Match[str], args: tuple[tuple[str, Any], ...]) -> Iterator[Move]:
    """The refused value replaced by the allowed one nearest to it that keeps the feature
    as the value had it (on or off), the rest of the object kept."""
    allowed = _QUOTED.findall(found.group("names"))
    value = found.group("value")
    same = same_state(value, allowed) or allowed
    ranked = difflib.get_close_matches(value, same, n=len(same), cutoff=0.0) or same
    path = (*re.findall(r"\[([^\]]+)\]", found.group("path")), found.group("key"))
    for name, current in args:
        if name != found.group("flag"):
            continue
        data = json_object(current)
        if data is None or _at(data, path) != value:
            continue
        for choice in ranked[:2]:
            yield _set(name, json_text(_put(data, path, choice)))


def _at(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _put(data: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    if len(path) == 1:
        return {**data, path[0]: value}
    return {**data, path[0]: _put(data[path[0]], path[1:], value)}


# --- an object where the check wants an array ---------------------------------------------

_WANTS_ARRAY = re.compile(r"(?i)must be (?:a |an )?(?:JSON )?(?:array|list)\b")


def _as_pairs(message: str, args: tuple[tuple[str, Any], ...]) -> Iterator[Move]:
    """A JSON object given to a flag whose check wants an array (of argv words): its keys
    and values in order, a key whose value is true alone, one whose value is false or null
    left out ({"--workers": 4, "--verbose": true} -> ["--workers", "4", "--verbose"])."""
    for name in _named(args, message):
        data = json_object(dict(args).get(name))
        if not data:
            continue
        words: list[str] = []
        for key, value in data.items():
            if value is False or value is None:
                continue
            words.append(str(key))
            if value is not True:
                words.append(value if isinstance(value, str) else json.dumps(value))
        yield _set(name, json.dumps(words))


# --- keys the check names that the value lacks ---------------------------------------------


def _given_keys(
    required: list[str], message: str, args: tuple[tuple[str, Any], ...], list_flags: frozenset[str]
) -> Iterator[Move]:
    """Each JSON object of a flag (or of a list flag's members) with the keys the check
    requires: a key of the user's that shares a word with a missing one is renamed to it
    ("name" -> "lora_name"); nothing else changes."""
    named = _named(args, message)
    for name, value in args:
        if named and name not in named:
            continue
        members = value if isinstance(value, tuple) else (value,)
        objects = [json_object(m) for m in members]
        if not objects or any(o is None for o in objects):
            continue
        fixed = [_with_required(o, required) for o in objects if o is not None]
        several = isinstance(value, tuple) or name in list_flags
        if several:
            # A list flag's member written as a mapping of names to values: one record each.
            fixed = [record for o in fixed for record in (_as_records(o, required) or [o])]
        if fixed == objects:
            continue
        texts = tuple(json_text(o) for o in fixed)
        yield Move((Edit(EditOp.SET, name, texts if several else texts[0]),), inferred=True, origin="json")


def _as_records(data: dict[str, Any], required: list[str]) -> list[dict[str, Any]] | None:
    """A mapping that holds none of the two keys a record needs ({"a": "/x", "b": "/y"}
    for records of a name and a path), as one record per entry: the entry's key under the
    first required key, its value under the second. None for anything else."""
    if len(required) != 2 or not data or any(k in data for k in required):
        return None
    if not all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in data.values()):
        return None
    name, held = required
    return [{name: k, held: v} for k, v in data.items()]


def _with_required(data: dict[str, Any], required: list[str]) -> dict[str, Any]:
    out = dict(data)
    for key in required:
        if key in out:
            continue
        words = set(re.split(r"[_.-]", key))
        spare = [k for k in out if k not in required and words & set(re.split(r"[_.-]", k))]
        if spare:
            best = max(spare, key=lambda k: difflib.SequenceMatcher(None, k, key).ratio())
            out = {key if k == best else k: v for k, v in out.items()}
    return out


# --- a value that is no JSON -----------------------------------------------------------------


def mend(value: str) -> Any | None:
    """The JSON object or list ``value`` meant (None: already JSON, or not mendable)."""
    text = value.strip()
    try:
        data = json.loads(text)
    except ValueError:
        pass
    else:
        # An object serialized twice (a JSON string holding it): the object, unwrapped once;
        # the same for an object or list inside it that a template serialized on its own.
        inner = _json_of(data) if isinstance(data, str) else None
        if isinstance(inner, dict | list):
            return inner
        unwrapped = _inner_unwrapped(data)
        return unwrapped if unwrapped != data else None
    balanced = _json_of(_brackets_balanced(text)) if text.startswith(("{", "[")) else None
    if isinstance(balanced, dict | list):
        # A closing bracket typed once too often or too seldom (json: "Extra data", "Expecting
        # ',' delimiter" at the end): the JSON its brackets evidently meant.
        return balanced
    if len(text) > 2 and text[0] == text[-1] and text[0] in "'\"":
        # A shell's quotes kept around the value (a command moved into an args list).
        inner = text[1:-1]
        try:
            data = json.loads(inner)
        except ValueError:
            data = mend(inner)
        if isinstance(data, dict | list):
            return data
    keyed = _KEY_EQUALS_STRUCTURE.match(text)
    if keyed is not None:
        return _under_key(keyed.group("key"), keyed.group("value"))
    if _PAIRS.match(text) and "{" not in text:
        return {k.strip(): _scalar(v.strip()) for k, v in (p.split("=", 1) for p in text.split(","))}
    if not text.startswith(("{", "[")):
        return None
    if _TYPOGRAPHIC_QUOTES.search(text):
        # Copied from a wiki or a word processor: its curly quotes are JSON's straight ones.
        straight = text.translate(_STRAIGHT_QUOTES)
        data = _json_of(straight)
        return data if isinstance(data, dict | list) else mend(straight)
    if _ESCAPED_QUOTE.search(text):
        # Escaped once more than the shell undid (copied out of a JSON or YAML string): the
        # escapes go first, else they end up inside the keys.
        unescaped = _ESCAPED_QUOTE.sub(r"\1", text)
        data = _json_of(unescaped)
        return data if isinstance(data, dict | list) else mend(unescaped)
    quoted = _TRAILING_COMMA.sub(r"\1", _BARE_KEY.sub(r'\1"\2":', text))
    for attempt in (quoted, quoted.replace("'", '"')):
        try:
            data = json.loads(attempt)
        except ValueError:
            continue
        return data if isinstance(data, dict | list) else None
    pythonic = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", quoted)))
    try:
        data = ast.literal_eval(pythonic)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        data = _yaml_flow(text)  # {endpoint: tcp://*:5557}: YAML's flow style, unquoted values
    try:
        json.dumps(data)
    except (TypeError, ValueError):
        return None
    return data if isinstance(data, dict | list) else None


_CLOSER = {"{": "}", "[": "]"}


def _brackets_balanced(text: str) -> str:
    """``text`` with its brackets paired: a closer that closes nothing open is dropped, one
    that closes an outer bracket first closes the inner ones left open, and what is still
    open at the end is closed. Brackets inside quoted strings are text."""
    out: list[str] = []
    open_closers: list[str] = []
    quote = ""
    escaped = False
    for char in text:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in _CLOSER:
            open_closers.append(_CLOSER[char])
        elif char in "}]":
            if char not in open_closers:
                continue  # a stray closer
            while open_closers[-1] != char:
                out.append(open_closers.pop())
            open_closers.pop()
        out.append(char)
    if quote:
        return text  # a string left open: where it was meant to end is anyone's guess
    return "".join(out) + "".join(reversed(open_closers))


def _inner_unwrapped(data: Any) -> Any:
    """``data`` with every string inside it that holds a JSON object or list replaced by it."""
    return _leaves_mapped(data, _unwrapped_leaf)


def _unwrapped_leaf(leaf: Any) -> Any:
    if not isinstance(leaf, str) or not leaf.lstrip().startswith(("{", "[")):
        return leaf
    inner = _json_of(leaf)
    return _inner_unwrapped(inner) if isinstance(inner, dict | list) else leaf


def _json_of(text: str) -> Any | None:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _under_key(key: str, written: str) -> dict[str, Any] | None:
    """``key=<object or list>`` (a launcher's ``-o key=value``): the object holding it."""
    try:
        data = json.loads(written)
    except ValueError:
        data = mend(written)
    return {key: data} if isinstance(data, dict | list) else None


def _yaml_flow(text: str) -> Any | None:
    """``text`` read as a YAML flow mapping or sequence (None if it is not one)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    return data if isinstance(data, dict | list) else None


def _scalar(text: str) -> Any:
    """A ``k=v`` value as JSON would hold it: a number, a bool, else the text."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        number = float(text)
    except ValueError:
        return text.strip("'\"")
    return int(number) if number.is_integer() and "." not in text else number


def _mended(message: str, args: tuple[tuple[str, Any], ...]) -> Iterator[Move]:
    named = _named(args, message)
    for name, value in args:
        if not isinstance(value, str) or (named and name not in named):
            continue
        if not named and not (value.lstrip().startswith(("{", "[")) or _STRUCTURED.search(name)):
            continue
        meant = mend(value)
        if meant is not None:
            yield _set(name, json.dumps(meant, ensure_ascii=False))


# --- a key the check does not know -----------------------------------------------------------


def _allowed(message: str, after: int) -> list[str]:
    found = _ALLOWED.search(message, after)
    return _QUOTED.findall(found.group("names")) if found is not None else []


def _rekeyed(key: str, allowed: list[str], message: str, args: tuple[tuple[str, Any], ...]) -> Iterator[Move]:
    named = _named(args, message)
    for name, value in args:
        data = json_object(value)
        if data is None or (named and name not in named):
            continue
        path = _path_of(data, key)
        if path is None:
            continue
        near = difflib.get_close_matches(key, allowed, n=1, cutoff=MIN_KEY_SIMILARITY) if allowed else []
        if near:
            renamed = _renamed(data, path, near[0])
            # The other keys of that level the list does not allow would be refused next.
            for other in list(_at(renamed, path[:-1]) or {}):
                closest = difflib.get_close_matches(other, allowed, n=1, cutoff=MIN_KEY_SIMILARITY)
                if other not in allowed and closest and closest[0] not in (_at(renamed, path[:-1]) or {}):
                    renamed = _renamed(renamed, (*path[:-1], other), closest[0])
            yield _set(name, json_text(renamed))
        elif allowed and len(path) == 1:
            for section in allowed[:2]:  # the settings belong in a section the check lists
                yield _set(name, json_text({section: data}))
        if not near:
            yield _set_or_drop(name, _without(data, path))


def _path_of(data: dict[str, Any], key: str) -> tuple[str, ...] | None:
    """Where ``key`` is: at the top, else one level down (the first section holding it)."""
    if key in data:
        return (key,)
    for section, inner in data.items():
        if isinstance(inner, dict) and key in inner:
            return (section, key)
    return None


def _renamed(data: dict[str, Any], path: tuple[str, ...], new: str) -> dict[str, Any]:
    if len(path) == 1:
        out = {k: v for k, v in data.items() if k != path[0]}
        out[new] = data[path[0]]
        return out
    return {**data, path[0]: _renamed(data[path[0]], path[1:], new)}


def _without(data: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    if len(path) == 1:
        return {k: v for k, v in data.items() if k != path[0]}
    return {**data, path[0]: _without(data[path[0]], path[1:])}


def _named(args: tuple[tuple[str, Any], ...], message: str) -> list[str]:
    """The candidate's flags the message names (``--x``): when it names any, the move is on them."""
    return [name for name, _ in args if f"--{name}" in message]


def _set(flag: str, value: str) -> Move:
    return Move((Edit(EditOp.SET, flag, value),), inferred=True, origin="json")


def _set_or_drop(flag: str, data: dict[str, Any]) -> Move:
    """The flag set to what is left of its object, or dropped when nothing is."""
    return _set(flag, json_text(data)) if data else Move((Edit(EditOp.DROP, flag),), inferred=True, origin="json")
