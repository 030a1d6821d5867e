"""Pure. How near a value is to a parser's choices: what a refused value evidently meant
(the same once case and separators go, an abbreviation, a mode named otherwise, a typo),
read by the repair moves that mend a value and by the reading of another engine's flag."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence

from .meant import as_number

# What a word asked of a mode's choices means, when the parser spells it otherwise: a
# warning is logged and the server goes on; an error stops it. (General vocabulary, no
# flag's answer: a word is read this way only for the choices it names.)
MODE_WORDS: Mapping[str, tuple[str, ...]] = {
    "warn": ("log", "warning"),
    "warning": ("log", "warn"),
    "print": ("log",),
    "report": ("log",),
    "error": ("raise", "strict", "fail"),
    "fail": ("raise", "error", "strict"),
    "strict": ("raise", "error"),
    "abort": ("raise", "error"),
    "throw": ("raise", "error"),
    "off": ("none", "disabled", "disable", "false"),
    "disabled": ("none", "off", "disable", "false"),
    "disable": ("none", "off", "disabled", "false"),
    "none": ("null", "off", "disabled", "disable", "unquant", "unquantized", "false"),
    "null": ("none", "off", "disabled", "disable", "false"),
}
# Level words of other logging systems (log4j, syslog, uvicorn) as Python's logging names
# them: SGLang looks a --log-level word up on Python's logging module.
LOG_LEVEL_WORDS: Mapping[str, str] = {
    "trace": "debug",
    "verbose": "debug",
    "all": "debug",
    "finest": "debug",
    "fine": "debug",
    "notice": "info",
    "warn": "warning",
    "fatal": "critical",
    "severe": "error",
}
# A float dtype names weights left as they are: among quantization methods, the one that
# leaves them unquantized (among dtypes, the dtype it spells).
FLOAT_DTYPES = frozenset(["bf16", "bfloat16", "fp16", "float16", "half", "fp32", "float32", "float"])
UNQUANTIZED = ("unquant", "unquantized")
NEAR_SPELLING = 0.8  # difflib's ratio of two spellings a typo apart


def bare(text: str) -> str:
    """Letters and digits only, lower case: 'W8A8-INT8' and 'w8a8_int8' are one spelling."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def near_choice(given: str, choice: str) -> bool:
    """``choice`` is what ``given`` evidently meant: the same once case and separators go,
    one the start or end of the other, an abbreviation of it (bf16, float16), a number, a
    mode named otherwise, or a typo apart."""
    g, c = bare(given), bare(choice)
    if not g or not c:
        return False
    if g == c or c.startswith(g) or g.startswith(c) or c.endswith(g) or g.endswith(c):
        return True
    if as_number(given) is not None or choice.lower() in MODE_WORDS.get(given.lower(), ()):
        return True
    if given.lower() in FLOAT_DTYPES and choice.lower() in UNQUANTIZED:
        return True
    if c in initials(given) or _initials_started(given, [choice]):
        return True
    if _shortens(g, c) or _shortens(c, g):
        return True  # given abbreviates the choice (bf16), or the choice what was written (hf)
    if _same_stem(g, c):
        return True  # the same word with another ending (decoding: decode)
    if same_first_word(given, choice):
        return True  # two variants of one line (qwen3_xml: qwen3_coder)
    return difflib.SequenceMatcher(None, g, c).ratio() >= NEAR_SPELLING


# Endings that inflect one word (decode, decoding, decoded, decodes).
_ENDINGS = frozenset(["", "e", "s", "es", "ed", "er", "ing", "ion", "ation"])
MIN_STEM = 4


def _same_stem(a: str, b: str) -> bool:
    """``a`` and ``b`` are one word with other endings: a shared start of MIN_STEM letters
    or more, after which each goes on only by an inflection ending."""
    stem = len(_common_start(a, b))
    return stem >= MIN_STEM and a[stem:] in _ENDINGS and b[stem:] in _ENDINGS


def _shortens(short: str, long: str) -> bool:
    """``short`` is ``long`` abbreviated: its letters, in order, in ``long``, the first the same."""
    rest = iter(long)
    return len(short) < len(long) and short[0] == long[0] and all(ch in rest for ch in short)


def closest_choices(given: str, choices: Sequence[str], preferred: Sequence[str] = (), context: str = "") -> list[str]:
    """Valid choices nearest to what was given: a choice that means the word given (a mode
    named otherwise), then prefix matches (in the catalogue's order of preference for the
    flag, then the parser's), then by similarity. ``context``: what else the command says
    of what is served (the model's path), where a variant's own word may stand."""
    given_l = given.lower()
    number, numbers = as_number(given), [as_number(c) for c in choices]
    if number is not None and choices and all(n is not None for n in numbers):
        # Numeric choices: the nearest number first (256 among 16..128 is 128, not "16").
        return sorted(choices, key=lambda c: (abs(float(c) - number), float(c)))
    same = [c for c in choices if bare(c) == bare(given)][:1]
    meant = same or [c for w in MODE_WORDS.get(given_l, ()) for c in choices if c.lower() == w][:1]
    meant = meant or _unquantized(given_l, choices)
    meant = meant or [c for c in choices if bare(c) in initials(given)][:1]
    meant = meant or _initials_started(given, choices)
    meant = meant or _family_of_version(given, choices, context)
    rank = {c: i for i, c in enumerate(preferred)}
    prefixed = sorted(
        (c for c in choices if given_l and c.lower().startswith(given_l)),
        key=lambda c: (rank.get(c, len(rank)), choices.index(c)),
    )
    similar = difflib.get_close_matches(given, choices, n=len(choices), cutoff=0.0)
    leading = [*_major_version(given, choices), *_leading_words(given, choices), *_same_line(given, choices)]
    return list(dict.fromkeys([*meant, *prefixed, *leading, *similar]))


LONG_CHOICE_LIST = 10  # more choices than this: a near spelling may be chance


def meant_choices(given: str, choices: Sequence[str], preferred: Sequence[str] = (), context: str = "") -> list[str]:
    """The (at most two) choices a refused value evidently meant, nearest first; [] when
    none is: among many choices a spelling that is not near is chance, and the flag's
    default is the better guess. (Among a few, the nearest by letters still tends to be
    what was meant: measured in round 38, 131 against 125 of 152 choice refusals in the
    fresh sets with the default first there too.)"""
    ranked = closest_choices(given, choices, preferred, context)[:2]
    return [c for c in ranked if evidently_meant(given, c, choices)]


def evidently_meant(given: str, choice: str, choices: Sequence[str]) -> bool:
    """``choice``, one of the nearest to ``given``, is what was meant (meant_choices). (Round
    43c tried the default first where the nearest shares few letters, 'likeness' under 0.4:
    its after-run measured it worse, round-robin meant interleave and server daemon; reverted.)"""
    return len(choices) <= LONG_CHOICE_LIST or near_choice(given, choice)


_VERSIONED = re.compile(r"^(?P<family>[a-z][a-z_-]*?)[-_]?v?(?P<version>\d+(?:\.\d+)*)$")


def _family_of_version(given: str, choices: Sequence[str], context: str = "") -> list[str]:
    """The family's choice for a value that is its name with a version after it ('qwen3':
    'qwen'), when the choices that start with the value go on with a word of their own
    ('qwen3_coder', a variant not named, nor in ``context``: a Qwen3-Coder model's path names
    it); [] when the family is no choice or no such variant is listed (then the nearest
    spelling stands, another version or not)."""
    found = _VERSIONED.match(given.lower())
    if found is None:
        return []
    name = found.group("family")
    family = [c for c in choices if c.lower() == name] or _other_versions(name, choices)
    longer = [c for c in choices if c.lower().startswith(given.lower()) and c.lower() != given.lower()]
    if not family or not longer or any(not re.match(r"[-_.][a-z]", c.lower()[len(given) :]) for c in longer):
        return []
    said = set(_words(context))
    if any(set(_words(c[len(given) :])) <= said for c in longer):
        return []
    # A model of another version of the family (Qwen3.5 where 'qwen3' was written) is not
    # what the value names: its own format may be the variant's.
    served = re.findall(rf"{re.escape(found.group('family'))}[-_]?v?(\d+(?:\.\d+)*)", context.lower())
    if any(v != found.group("version") for v in served):
        return []
    return family


def _other_versions(family: str, choices: Sequence[str]) -> list[str]:
    """The choices that are ``family``'s name with a version after it and nothing more
    ('qwen25'), the newest first: an older parser lists the family only so."""
    versions = []
    for choice in choices:
        found = _VERSIONED.match(choice.lower())
        if found is not None and found.group("family") == family:
            versions.append((tuple(int(p) for p in found.group("version").split(".")), choice))
    return [c for _, c in sorted(versions, reverse=True)]


def _unquantized(given: str, choices: Sequence[str]) -> list[str]:
    """The choice that leaves weights unquantized, for a float dtype ``given`` among
    choices that list no float dtype."""
    if given not in FLOAT_DTYPES or any(c.lower() in FLOAT_DTYPES for c in choices):
        return []
    return [c for c in choices if c.lower() in UNQUANTIZED][:1]


def _major_version(given: str, choices: Sequence[str]) -> list[str]:
    """The choices ``given`` is with a later minor version's digits after ('kimi_k25':
    kimi_k2, 'glm451': glm45), the longest first: one parser reads every minor version of a
    line, and the cut falls inside the last word, where the leading words do not see it."""
    g = bare(given)
    found = [c for c in choices if bare(c)[-1:].isdigit() and g.startswith(bare(c)) and g[len(bare(c)) :].isdigit()]
    return sorted(found, key=lambda c: -len(bare(c)))


def _leading_words(given: str, choices: Sequence[str]) -> list[str]:
    """The choices the first words of ``given`` spell when more was written after them
    ('step3-fp8': step3), the longest first: a name's suffix (a size, a format, a date)
    leaked into the value. A choice that holds more of the words written goes before them
    ('minimax_m2_append_think': minimax-append-think before minimax)."""
    words = _words(given)
    by_spelling = {bare(c): c for c in reversed(choices)}
    spelled = [(n, by_spelling.get(bare("".join(words[:n])))) for n in range(len(words) - 1, 0, -1)]
    leading = [(n, c) for n, c in spelled if c is not None]
    if not leading:
        return []
    held = {c: len(set(_words(c)) & set(words)) for c in choices}
    fuller = sorted((c for c in choices if held[c] > leading[0][0]), key=lambda c: -held[c])
    return [*fuller, *(c for _, c in leading)]


def _same_line(given: str, choices: Sequence[str]) -> list[str]:
    """The variants of the line ``given`` names by its first word when that word is no
    choice itself ('qwen3_xml': qwen3_coder, not qwen): another engine's name for one
    variant, and the parser's names for that line's variants (see same_first_word)."""
    first = _words(given)[:1]
    if any(bare(c) == "".join(first) for c in choices):
        return []  # the line's own name is a choice: the leading words give it
    line = [c for c in choices if same_first_word(given, c)]
    return sorted(line, key=lambda c: -len(_common_start(bare(given), bare(c))))


def _common_start(a: str, b: str) -> str:
    """The start ``a`` and ``b`` share (``qwen3`` of qwen3xml and qwen3coder)."""
    shared = 0
    while shared < min(len(a), len(b)) and a[shared] == b[shared]:
        shared += 1
    return a[:shared]


def same_first_word(given: str, choice: str) -> bool:
    """Both are names of several words that start with the same word, a name's own (four
    characters or more, not a number; 'fp8' is a format every dtype of its kind starts
    with): two variants of one line ('qwen3_xml', 'qwen3_coder')."""
    a, b = _words(given), _words(choice)
    return len(a) > 1 and len(b) > 1 and a[0] == b[0] and len(a[0]) >= MIN_STEM and not a[0].isdigit()


def _words(text: str) -> list[str]:
    """The words of ``text``, lower case (any run of other characters parts them)."""
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def _initials_started(given: str, choices: Sequence[str]) -> list[str]:
    """The one short name among ``choices`` that the initials of the words written start,
    the last words of the name left out ('longest-prefix': lpm, longest prefix match):
    a name of letters alone, at most two letters longer than the initials."""
    words = _words(given)
    start = "".join(w[0] for w in words)
    if len(words) < 2:
        return []
    short = [c for c in choices if c.isalpha() and c.lower().startswith(start) and len(c) <= len(start) + 2]
    return short if len(short) == 1 else []


def initials(given: str) -> set[str]:
    """What a value written out in words shortens to: every word's first letter
    ('least-recently-used': lru), or those of all words but the last, kept whole
    ('segmented-lru': slru). None for one word."""
    words = _words(given)
    if len(words) < 2:
        return set()
    return {"".join(w[0] for w in words), "".join(w[0] for w in words[:-1]) + words[-1]}
