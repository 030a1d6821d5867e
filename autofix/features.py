"""Features a run-time failure names by their switch's words. Pure.

An operator who reads "illegal memory access in the overlap scheduler" relaunches without
the overlap scheduler. The parser says which switches exist: ``--disable-overlap-schedule``
turns off a feature that is on by default, ``--enable-dp-attention`` one the user turned
on. A failure that names such a feature in words (any form: "scheduling", "allreduce",
"CUDA graphs") while it is on gets the move that switches it off. Features of one word are
not read: a single word ("metrics", "cache") names too much.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping

from .model import Edit, EditOp, Move
from .renames import OFF_WORDS

MIN_FEATURE_WORDS = 2
MAX_FEATURES = 3  # the most telling few: the longest phrases the text uses
_SWITCH = re.compile(r"^(?P<switch>enable|disable)-(?P<feature>[a-z0-9-]+)$")
# Enough of English inflection to meet "scheduler", "scheduling" and "schedule" in one stem.
_SUFFIXES = ("ing", "ers", "er", "es", "ed", "s", "e")
_MIN_STEM = 4
_LITERAL_FLAG = re.compile(r"--[A-Za-z0-9][A-Za-z0-9_-]*")


def stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
            return word[: -len(suffix)]
    return word


def stems(text: str) -> tuple[str, ...]:
    return tuple(stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()))


def spellings(words: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """The feature's words as stems, and every way of writing neighbours as one word
    (custom all reduce: custom allreduce; cuda graph: cudagraph)."""
    for joins in itertools.product((False, True), repeat=len(words) - 1):
        out = [words[0]]
        for word, joined in zip(words[1:], joins, strict=True):
            if joined:
                out[-1] += word
            else:
                out.append(word)
        yield tuple(stem(w) for w in out)


def said(phrase: tuple[str, ...], text: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(text[i : i + n] == phrase for i in range(len(text) - n + 1))


def feature_words(flag: str) -> tuple[str, ...] | None:
    """The words of the feature an on/off switch names (disable-overlap-schedule: overlap,
    schedule), None for other flags and for features of one word."""
    found = _SWITCH.match(flag)
    if found is None:
        return None
    words = tuple(found.group("feature").split("-"))
    return words if len(words) >= MIN_FEATURE_WORDS else None


def is_on(value: object) -> bool:
    return value is True or (isinstance(value, str) and value.lower() not in OFF_WORDS)


FlagViews = Mapping[str, tuple[str, object | None, tuple[object, ...]]]
"""Every flag the user may change: name -> (its spelling in the candidate, the candidate's
value or None when unset, the parser's choices)."""


def switched_off(text: str, flags: FlagViews) -> list[Move]:
    """Moves that turn off each feature ``text`` names while it is on, longest phrase
    first. A flag written out (``--enable-piecewise-cuda-graph``) names that flag, not the
    features whose words stand inside its name: the message's own moves undo it."""
    words_said = stems(_LITERAL_FLAG.sub(" ", text))
    found: list[tuple[int, str, Edit]] = []
    for flag, (spelling, value, _) in flags.items():
        words = feature_words(flag)
        if words is None or not any(said(s, words_said) for s in spellings(words)):
            continue
        edit = _turned_off(flag, spelling, value)
        if edit is not None:
            found.append((-len(words), flag, edit))
    found.sort(key=lambda t: (t[0], t[1]))
    return [Move((edit,), inferred=True, origin="feature") for _, _, edit in found[:MAX_FEATURES]]


def _turned_off(flag: str, spelling: str, value: object | None) -> Edit | None:
    """The edit that turns a switch's feature off while it is on: the user's enable- switch
    dropped, a disable- switch set (its feature is on unless the user set it)."""
    if flag.startswith("enable-") and value is not None and is_on(value):
        return Edit(EditOp.DROP, spelling)
    if flag.startswith("disable-") and not is_on(value):
        return Edit(EditOp.SET, spelling, True)
    return None


# Words a flag's off choice is spelled with (cuda-graph-backend-prefill: disabled).
OFF_CHOICES = ("disabled", "disable", "off", "none")


def _turned_on(flag: str, spelling: str, value: object | None) -> Edit | None:
    """The edit that turns a switch's feature on while it is off: an enable- switch set,
    the disable- switch the user set dropped."""
    if flag.startswith("enable-") and not is_on(value):
        return Edit(EditOp.SET, spelling, True)
    if flag.startswith("disable-") and value is not None and is_on(value):
        return Edit(EditOp.DROP, spelling)
    return None


def _phrase(phrase: str) -> set[str]:
    """The stems of a feature named in words, without articles."""
    return set(stems(phrase)) - {"the", "a", "an"}


def _by_switch(said: set[str], flags: FlagViews, turn: Callable[[str, str, object | None], Edit | None]) -> list[Move]:
    """``turn``'s move for each switch whose feature words are the ``said`` stems."""
    out: list[Move] = []
    for flag, (spelling, value, _) in flags.items():
        words = feature_words(flag)
        edit = turn(flag, spelling, value) if words and {stem(w) for w in words} == said else None
        if edit is not None:
            out.append(Move((edit,), inferred=True, origin="feature"))
    return out


def off_by_words(phrase: str, flags: FlagViews) -> list[Move]:
    """Moves that turn off the feature ``phrase`` names, for a check that requires it off:
    its switch (_turned_off), else the off choice of a flag whose name holds every word of
    the phrase."""
    said = _phrase(phrase)
    if not said:
        return []
    out = _by_switch(said, flags, _turned_off)
    for flag, (spelling, value, choices) in flags.items():
        off = next((str(c) for c in choices if str(c).lower() in OFF_CHOICES), None)
        if off is None or str(value).lower() == off or not said <= set(stems(flag)):
            continue
        out.append(Move((Edit(EditOp.SET, spelling, off),), inferred=True, origin="feature"))
    return out


def on_by_words(phrase: str, flags: FlagViews) -> list[Move]:
    """Moves that turn on the feature ``phrase`` names, for a check that asks for it
    (_turned_on)."""
    return _by_switch(_phrase(phrase), flags, _turned_on)
