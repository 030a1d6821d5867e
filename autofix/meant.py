"""What a value the parser refused for how it is written means. Pure.

Users write numbers the way configs, shells and dashboards do: ``2m``, ``50MB``, ``90%``,
``16,384``, ``'32'``, ``10.0.0.2:29500``, ``9000/tcp``, ``1:4``, ``2x``, ``−1``,
``unlimited``. The parser takes none of them; an operator reads each by the flag's own
name, type and help (facts of the parser: "in gigabytes", "(ms)", "every N iterations",
"-1 means unlimited") and writes the plain number. Each reader here does one such reading
and says None when it does not apply; :func:`as_meant` tries them in order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

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
_NUMBER_LIST = re.compile(r"^\s*\d+(?:\.\d+)?(?:\s*[,;]\s*\d+(?:\.\d+)?)+\s*$")
_THOUSANDS = re.compile(r"^\s*\d{1,3}(?:(?P<sep>[,_ ])\d{3})(?:(?P=sep)\d{3})*\s*$")
_QUOTED = re.compile(r"""^\s*(?P<q>['"`])(?P<inner>.*)(?P=q)\s*$""")
# A port as a Dockerfile or a URL writes it: 9000/tcp, host:9000.
# A port as an address that ends in it: "30000:30000" (a compose mapping), "0.0.0.0:8000",
# "tcp://10.0.0.7:30000" (a Kubernetes service-link variable), "30000/tcp".
_PORT = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*://)?(?:\[?[\w.:-]*?\]?:)?(?P<port>\d{1,5})(?:/(?:tcp|udp))?\s*$", re.I)
# A multiple as people write one: 2x, 1.5×.
_TIMES = re.compile(r"^\s*(?P<number>\d+(?:\.\d+)?)\s*[x\u00d7]\s*$", re.I)
_A_TO_B = re.compile(r"^\s*(?P<a>\d+(?:\.\d+)?)\s*:\s*(?P<b>\d+(?:\.\d+)?)\s*$")

# What a number flag's help says (a fact of the host's parser): the unit it counts in ...
_HELP_SIZE_UNIT = re.compile(r"(?:\bin\s+|\(\s*)(?:(?P<abbr>[KMGT])i?B\b|(?P<word>(?i:kilo|mega|giga|tera))bytes?\b)")
_HELP_TIME_UNIT = re.compile(r"(?i)(?:\bin\s+|\(\s*)(?P<unit>milliseconds?|ms|seconds?|secs?|s|minutes?|mins?)\b(?!-)")
# ... that it counts passes of a loop rather than time ...
_HELP_COUNTS = re.compile(r"(?i)\b(?:iterations?|passes|steps|rounds|batches)\b")
# ... and the number that stands for no limit, or for off ("-1 means unlimited", "Set to 0
# to disable", "1 disables"). A number inside a word or a version (Qwen3, 0.5) is none.
_HELP_NUMBER_FOR = r"(?<![\w.])(?P<number>-?\d+)(?![\w.])[^.;()\[\]]{{0,40}}?\b(?:{})"
_HELP_NO_LIMIT = re.compile(_HELP_NUMBER_FOR.format(r"unlimited|infinite|infinity|no limit|unbounded"), re.I)
_HELP_OFF = re.compile(_HELP_NUMBER_FOR.format(r"disabl\w*|turns? (?:it )?off"), re.I)
# Numbers written as English words ("two", "thirty-two"): a number, read as written.
_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_NUMBER_WORD = re.compile(r"^\s*(?P<tens>[a-z]+?)(?:[- ](?P<unit>[a-z]+))?\s*$")
# Words users give a number flag, by what they mean.
DEFAULT_WORDS = frozenset({"auto", "default", "none", "null", "nil", "unset"})
NO_LIMIT_WORDS = frozenset({"unlimited", "infinite", "infinity", "inf", "no-limit", "nolimit", "no_limit", "unbounded"})
OFF_WORDS = frozenset({"off", "disable", "disabled"})
# Words for an end of a scale of levels (--log-requests-level 0..3): the top, the bottom.
TOP_WORDS = frozenset({"all", "max", "maximum", "full", "everything", "verbose", "highest", "most"})
BOTTOM_WORDS = frozenset({"min", "minimum", "minimal", "lowest", "least", "quiet"})
# Minus signs a word processor or a web page types for "-".
_MINUSES = str.maketrans(dict.fromkeys("\u2212\u2013\u2014\ufe63\uff0d", "-"))


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


def has_reading(word: str) -> bool:
    """Whether a word given to a number flag means something a reading can write as a
    number, or the flag's default: ``auto``, ``None``, ``unlimited``, ``off``, a number
    written in words (``two``), or nothing at all (an unset variable a script expanded)."""
    plain = word.strip().lower()
    known = DEFAULT_WORDS | NO_LIMIT_WORDS | OFF_WORDS | TOP_WORDS | BOTTOM_WORDS
    return not plain or plain in known or number_in_words(plain) is not None


def number_in_words(text: str) -> int | None:
    """'two' -> 2, 'thirty-two' -> 32, 'Eight' -> 8; None for any other word."""
    found = _NUMBER_WORD.match(text.lower())
    if found is None:
        return None
    tens, unit = found.group("tens"), found.group("unit")
    if unit is None:
        return _UNITS.index(tens) if tens in _UNITS else _TENS.get(tens)
    ones = _UNITS.index(unit) if unit in _UNITS[1:10] else None
    return _TENS[tens] + ones if tens in _TENS and ones is not None else None


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
    readers = (
        _typographic_minus,
        _duration,
        _size_in_named_unit,
        _device_index,
        _port,
        _part_of_whole,
        _thousands,
        _one_of_a_list,
        _times,
        _whole_number,
        _word_for_number,
        _written_in_words,
        _end_of_scale,
        _count_given_a_unit,
        _token_size,
    )
    for reader in readers:
        meant = reader(text, name, info, whole)
        if meant is not None:
            return meant
    return plain_size(text)


def _help(info: FlagInfo | None) -> str:
    return info.help if info is not None else ""


def _typographic_minus(text: str, _name: str, _info: FlagInfo | None, _whole: bool) -> str | None:
    plain = text.translate(_MINUSES).strip()
    return plain if plain != text.strip() and as_number(plain) is not None else None


def _seconds_per_unit(name: str, info: FlagInfo | None) -> float | None:
    """The seconds one unit of the flag is: its help's unit, else its name's; None for a
    flag that counts passes or says nothing of time."""
    help_text = _help(info)
    stated = _HELP_TIME_UNIT.search(help_text)
    if stated is not None:
        unit = stated.group("unit").lower()
        return 60.0 if unit.startswith("min") else 0.001 if unit.startswith("m") else 1.0
    if _HELP_COUNTS.search(help_text):
        return None
    if _IN_MS.search(name):
        return 0.001
    return 1.0 if _IN_SECONDS.search(name) else None


def _duration(text: str, name: str, info: FlagInfo | None, whole: bool) -> str | None:
    found = _DURATION.match(text.strip().lower())
    unit = _seconds_per_unit(name, info)
    if found is None or unit is None:
        return None
    per = _SECONDS_PER.get(found.group("unit"))
    if per is None:
        return None
    value = float(found.group("number")) * per / unit
    return None if whole and not round(value, 6).is_integer() else tidy(value)


def _size_unit(name: str, info: FlagInfo | None) -> str | None:
    """The power letter (k, m, g, t) of the size unit the flag counts in: its name's, else
    its help's."""
    named = _UNIT_IN_NAME.search(name)
    if named is not None:
        return named.group("unit")
    stated = _HELP_SIZE_UNIT.search(_help(info))
    if stated is None:
        return None
    return (stated.group("abbr") or stated.group("word"))[0].lower()


def _size_in_named_unit(text: str, name: str, info: FlagInfo | None, whole: bool) -> str | None:
    unit = _size_unit(name, info)
    found = _SIZE.match(text)
    if unit is None or found is None:
        return None
    binary = bool(found.group("iec")) or found.group("unit") == "K"
    steps = _UNIT_POWER[found.group("unit").lower()] - _UNIT_POWER[unit]
    value = float(found.group("number")) * (1024 if binary else 1000) ** steps
    return None if whole and not round(value, 6).is_integer() else tidy(value)


# A torch device string: 'cuda:4', 'npu:0'.
_DEVICE = re.compile(r"(?i)^\s*(?:cuda|gpu|npu|xpu|hip|musa|mps)\s*:\s*(?P<index>\d+)\s*$")
_GPU_WORDS = re.compile(r"(?i)\bgpus?\b|\bdevices?\b")


def _device_index(text: str, name: str, info: FlagInfo | None, whole: bool) -> str | None:
    """A device string given an int flag that counts GPUs by index (its name or help says
    GPU or device): the index ('cuda:4' for --base-gpu-id is 4)."""
    found = _DEVICE.match(text)
    if found is None or not whole or not (_GPU_WORDS.search(name.replace("-", " ")) or _GPU_WORDS.search(_help(info))):
        return None
    return str(int(found.group("index")))


def port_in(text: str) -> int | None:
    """The TCP port a value spells, plainly or as an address that ends in it; None if none."""
    found = _PORT.match(text)
    port = int(found.group("port")) if found is not None else 0
    return port if 1 <= port <= 65535 else None


def _port(text: str, name: str, _info: FlagInfo | None, whole: bool) -> str | None:
    if not (whole and name.endswith("port")):
        return None
    found = _PORT.match(text)
    return str(int(found.group("port"))) if found is not None and found.group("port") != text.strip() else None


def _part_of_whole(text: str, name: str, info: FlagInfo | None, whole: bool) -> str | None:
    """A percentage (90% -> 0.9) or a ratio a:b (1:4 -> 0.25) of a flag that is a part of
    a whole: its name says so, or its parser default is a fraction. A percentage given to a
    float the parser leaves without a default (SGLang picks it at start: a watermark, a
    ratio) is one too: to a float a percentage means nothing else."""
    default = info.default if info is not None else None
    fraction = isinstance(default, (int, float)) and not isinstance(default, bool) and 0 < default <= 1
    is_float = _number_type(info) == "float"
    part = _PART_OF_WHOLE.search(name) or (fraction and is_float)
    percent = _PERCENT.match(text)
    if whole or not (part or (percent is not None and default is None and is_float)):
        return None
    if percent is not None:
        return tidy(float(percent.group("number")) / 100)
    ratio = _A_TO_B.match(text)
    if ratio is not None and float(ratio.group("b")) > 0:
        return tidy(float(ratio.group("a")) / float(ratio.group("b")))
    return None


def _thousands(text: str, _name: str, info: FlagInfo | None, _whole: bool) -> str | None:
    if info is None or info.kind != "value" or _number_type(info) is None:
        return None
    return without_thousands(text)


def without_thousands(text: str) -> str | None:
    """A number written with thousands separators ("10,000", "1_000_000"), without them;
    None when ``text`` is not one."""
    return re.sub(r"[,_ ]", "", text.strip()) if _THOUSANDS.match(text) else None


def _one_of_a_list(text: str, name: str, info: FlagInfo | None, whole: bool) -> str | None:
    """Several numbers in one word (``4,5,6,7``: GPUs as CUDA_VISIBLE_DEVICES lists them)
    given to a flag that takes one whole number: a maximum's largest, a minimum's smallest,
    else the first (where a range starts). None for a word that is no such list, and for a
    float flag, where ``0,85`` is a decimal comma."""
    if info is None or info.kind != "value" or not whole or not _NUMBER_LIST.match(text):
        return None
    numbers = [part.strip() for part in re.split(r"[,;]", text)]
    return bound_of_sweep(name, numbers) or numbers[0]


def bound_of_sweep(name: str, values: Sequence[str]) -> str | None:
    """The largest of several numbers for a flag named a maximum, the smallest for one
    named a minimum; None for other flags, or when a value is no number."""
    words = set(name.split("-"))
    numbers = [(number, v) for v in values if (number := as_number(v)) is not None]
    if not words & {"max", "min"} or len(numbers) != len(values):
        return None
    pick = max if "max" in words else min
    return pick(numbers, key=lambda n: n[0])[1]


def _times(text: str, _name: str, info: FlagInfo | None, whole: bool) -> str | None:
    """A multiple written with an x (2x, 1.5×) given a number flag: the number."""
    found = _TIMES.match(text)
    if found is None or _number_type(info) is None:
        return None
    number = float(found.group("number"))
    return None if whole and not number.is_integer() else tidy(number)


def _whole_number(text: str, _name: str, _info: FlagInfo | None, whole: bool) -> str | None:
    """A fraction given to an int flag: the whole number at or below it (8.5 -> 8)."""
    return str(math.floor(float(text))) if whole and re.fullmatch(r"\s*\d+\.\d+\s*", text) else None


def _word_for_number(text: str, _name: str, info: FlagInfo | None, _whole: bool) -> str | None:
    """``unlimited`` or ``off`` given a number flag: the number its help says stands for
    it; None when the help gives none (the flag left to its default is the repair's)."""
    word = text.strip().lower()
    rule = _HELP_NO_LIMIT if word in NO_LIMIT_WORDS else _HELP_OFF if word in OFF_WORDS else None
    found = rule.search(_help(info)) if rule is not None else None
    return found.group("number") if found is not None else None


def _written_in_words(text: str, _name: str, info: FlagInfo | None, _whole: bool) -> str | None:
    """A number written in words given a number flag ('two'): that number."""
    number = number_in_words(text) if _number_type(info) is not None else None
    return None if number is None else str(number)


def _end_of_scale(text: str, _name: str, info: FlagInfo | None, _whole: bool) -> str | None:
    """A word for an end ('all', 'min') given a number flag whose choices are a scale of
    levels: that end of it; None for a flag without numeric choices (no end to read)."""
    levels = [n for c in (info.choices if info is not None else ()) if (n := as_number(str(c))) is not None]
    if not levels or _number_type(info) is None:
        return None
    word = text.strip().lower()
    end = max(levels) if word in TOP_WORDS else min(levels) if word in BOTTOM_WORDS else None
    return None if end is None else tidy(end)


def _count_given_a_unit(text: str, _name: str, info: FlagInfo | None, whole: bool) -> str | None:
    """A flag whose help says it counts passes, given a time ('500ms' for every N
    iterations): the count is the number written."""
    help_text = _help(info)
    found = _DURATION.match(text.strip().lower())
    if found is None or found.group("unit") not in _SECONDS_PER:
        return None  # '2k' is a size: plain_size reads it
    if not _HELP_COUNTS.search(help_text) or _HELP_TIME_UNIT.search(help_text):
        return None
    number = float(found.group("number"))
    return None if whole and not number.is_integer() else tidy(number)


# A scalar that holds a number of tokens: its name ends so, or its help says it counts them.
# (an attention window, sliding or local, spans tokens too)
# (a sequence's length and a context are spans of tokens too: "an 8k sequence")
_TOKENS_IN_NAME = re.compile(
    r"(?:^|-)tokens?$|(?:^|-)window(?:-size)?$|(?:^|-)seq(?:uence)?-len(?:gth)?(?:-|$)|(?:^|-)context(?:-length)?(?:-|$)"
)
_HELP_COUNTS_TOKENS = re.compile(
    r"(?i)\bnumber of tokens\b|\bsliding window\b|\blongest sequence\b|\b(?:sequence|context) length\b"
)


def _token_size(text: str, name: str, info: FlagInfo | None, whole: bool) -> str | None:
    """A chunk, batch or context of tokens given in k ('8k'): binary, as token sizes are
    written (an 8k chunk is 8192 tokens); counts of anything else are decimal (plain_size)."""
    found = _SIZE.match(text)
    if found is None or info is None or info.kind != "value" or not whole:
        return None
    if not (_TOKENS_IN_NAME.search(name) or _HELP_COUNTS_TOKENS.search(_help(info))):
        return None
    value = float(found.group("number")) * 1024 ** _UNIT_POWER[found.group("unit").lower()]
    return tidy(value) if value.is_integer() else None


def number_type(type_name: str | None) -> str | None:
    """'int' or 'float' for a parser type that reads a number (SGLang's human_readable_int
    is an int), else None."""
    if type_name == "int" or (type_name or "").endswith("_int"):
        return "int"
    return "float" if type_name == "float" else None


def _number_type(info: FlagInfo | None) -> str | None:
    return number_type(info.type if info is not None else None)
