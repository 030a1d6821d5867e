"""What a value the parser refused for how it is written means. Pure.

Users write numbers the way configs, shells and dashboards do: ``2m``, ``50MB``, ``90%``,
``16,384``, ``'32'``, ``10.0.0.2:29500``, ``9000/tcp``, ``1:4``. The parser takes none of
them; an operator reads each by the flag's own name and type (facts of the parser) and
writes the plain number. Each reader here does one such reading and says None when it does
not apply; :func:`as_meant` tries them in order.
"""

from __future__ import annotations

import math
import re

from .catalog import Catalog, FlagInfo

_SIZE = re.compile(r"^\s*(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[kKmMgGtT])(?P<iec>i?)[bB]?\s*$")
_UNIT_POWER = {"k": 1, "m": 2, "g": 3, "t": 4}
_DURATION = re.compile(r"^(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[a-z]+)$")
_SECONDS_PER = {
    **dict.fromkeys(("ms", "msec", "msecs"), 0.001),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1.0),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 60.0),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 3600.0),
}
# The unit a flag's name says it takes: milliseconds, else seconds for a time-like name.
_IN_MS = re.compile(r"(?:^|-)(?:ms|millis\w*)$")
_IN_SECONDS = re.compile(r"(?:^|-)(?:secs?|seconds|timeout|interval|delay|wait|ttl|period)(?:-|$)")
# The unit a flag's name carries for a size (cpu-offload-gb, media-url-max-file-size-mb).
_UNIT_IN_NAME = re.compile(r"-(?P<unit>[kmgt])i?b$")
_PERCENT = re.compile(r"^\s*(?P<number>\d+(?:\.\d+)?)\s*%\s*$")
_PART_OF_WHOLE = re.compile(r"(?:^|-)(?:ratio|fraction|frac)(?:-|$)")
_THOUSANDS = re.compile(r"^\s*\d{1,3}(?:(?P<sep>[,_ ])\d{3})(?:(?P=sep)\d{3})*\s*$")
_QUOTED = re.compile(r"""^\s*(?P<q>['"`])(?P<inner>.*)(?P=q)\s*$""")
# A port as a Dockerfile or a URL writes it: 9000/tcp, host:9000.
_PORT = re.compile(r"^\s*(?:\[?[\w.:-]*?\]?:)?(?P<port>\d{1,5})(?:/(?:tcp|udp))?\s*$")
_A_TO_B = re.compile(r"^\s*(?P<a>\d+(?:\.\d+)?)\s*:\s*(?P<b>\d+(?:\.\d+)?)\s*$")


def tidy(value: float) -> str:
    """A number as a user writes it: 2 for 2.0, six decimals at most."""
    value = round(value, 6)
    return str(int(value) if float(value).is_integer() else value)


def as_number(value: object) -> float | None:
    """The number a value is (a bool is none), None if it is no number."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def plain_size(text: str) -> str | None:
    """The plain integer a size with a unit means ('16K' -> '16384'), None if it has none."""
    found = _SIZE.match(text)
    if found is None:
        return None
    unit = found.group("unit")
    binary = bool(found.group("iec")) or unit == "K"
    value = float(found.group("number")) * (1024 if binary else 1000) ** _UNIT_POWER[unit.lower()]
    return str(int(value)) if value.is_integer() else None


def as_meant(text: str, flag: str, catalog: Catalog) -> str | None:
    """The plain number ``text`` means for ``flag`` (its parser name or alias), read by the
    flag's name and type; None when no reading applies. Quotes a shell never stripped go
    first; then a time, a size in the unit the name carries, a port, a part of a whole, a
    thousands separator, a fraction given to an int flag, else a size with a unit."""
    quoted = _QUOTED.match(text)
    if quoted is not None:
        inner = quoted.group("inner")
        return as_meant(inner, flag, catalog) or (inner if as_number(inner) is not None else None)
    name = catalog.canonical(flag)
    info = catalog.flag(name)
    whole = _number_type(info) == "int"
    for reader in (_duration, _size_in_named_unit, _port, _part_of_whole, _thousands, _whole_number):
        meant = reader(text, name, info, whole)
        if meant is not None:
            return meant
    return plain_size(text)


def _duration(text: str, name: str, _info: FlagInfo | None, whole: bool) -> str | None:
    found = _DURATION.match(text.strip().lower())
    if found is None or not (_IN_MS.search(name) or _IN_SECONDS.search(name)):
        return None
    per = _SECONDS_PER.get(found.group("unit"))
    if per is None:
        return None
    seconds = float(found.group("number")) * per
    value = seconds * 1000 if _IN_MS.search(name) else seconds
    return None if whole and not round(value, 6).is_integer() else tidy(value)


def _size_in_named_unit(text: str, name: str, _info: FlagInfo | None, whole: bool) -> str | None:
    named = _UNIT_IN_NAME.search(name)
    found = _SIZE.match(text)
    if named is None or found is None:
        return None
    binary = bool(found.group("iec")) or found.group("unit") == "K"
    steps = _UNIT_POWER[found.group("unit").lower()] - _UNIT_POWER[named.group("unit")]
    value = float(found.group("number")) * (1024 if binary else 1000) ** steps
    return None if whole and not round(value, 6).is_integer() else tidy(value)


def _port(text: str, name: str, _info: FlagInfo | None, whole: bool) -> str | None:
    if not (whole and name.endswith("port")):
        return None
    found = _PORT.match(text)
    return str(int(found.group("port"))) if found is not None and found.group("port") != text.strip() else None


def _part_of_whole(text: str, name: str, info: FlagInfo | None, whole: bool) -> str | None:
    """A percentage (90% -> 0.9) or a ratio a:b (1:4 -> 0.25) of a flag that is a part of
    a whole: its name says so, or its parser default is a fraction."""
    default = info.default if info is not None else None
    fraction = isinstance(default, (int, float)) and not isinstance(default, bool) and 0 < default <= 1
    if whole or not (_PART_OF_WHOLE.search(name) or (fraction and _number_type(info) == "float")):
        return None
    percent = _PERCENT.match(text)
    if percent is not None:
        return tidy(float(percent.group("number")) / 100)
    ratio = _A_TO_B.match(text)
    if ratio is not None and float(ratio.group("b")) > 0:
        return tidy(float(ratio.group("a")) / float(ratio.group("b")))
    return None


def _thousands(text: str, _name: str, info: FlagInfo | None, _whole: bool) -> str | None:
    if info is None or info.kind != "value" or _number_type(info) is None or not _THOUSANDS.match(text):
        return None
    return re.sub(r"[,_ ]", "", text.strip())


def _whole_number(text: str, _name: str, _info: FlagInfo | None, whole: bool) -> str | None:
    """A fraction given to an int flag: the whole number at or below it (8.5 -> 8)."""
    return str(math.floor(float(text))) if whole and re.fullmatch(r"\s*\d+\.\d+\s*", text) else None


def _number_type(info: FlagInfo | None) -> str | None:
    """'int' or 'float' for a flag the parser reads as one (SGLang's human_readable_int is
    an int), else None."""
    kind = info.type if info is not None else None
    if kind == "int" or (kind or "").endswith("_int"):
        return "int"
    return "float" if kind == "float" else None
