"""The optional features a launch turned on, as suspects of a crash nothing reads. Pure.

A running server that dies with a failure no class names, in no part the catalogue knows,
with words that name no flag, leaves an operator one thing to try: relaunch without what
the launch added to a plain one, one feature at a time (a bisection). Which flags turn on
an optional feature or pick an implementation is the catalogue's (``optional``); this
module orders them: the features the failure's own text mentions (its message, its frames'
files and lines) first, the rest in the order the user wrote them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .features import said, spellings, stem, stems
from .model import Edit, EditOp, Move

ORIGIN = "optional"
# Words every implementation choice uses: they tell one apart from none.
_PLAIN_WORDS = frozenset({"auto", "none", "true", "false", "default", "enable", "backend", "mode"})
_MIN_WORD = 4  # shorter words of a value (fa3, v2) meet unrelated text


@dataclass(frozen=True)
class TurnedOn:
    """An optional feature of the launch: the flag's name, its spelling, the user's value."""

    flag: str
    spelling: str
    value: str
    portable: str | None = None  # the flag's choice that runs on every GPU, when not the user's


def without_optional(text: str, features: Sequence[TurnedOn]) -> list[Move]:
    """A move per feature that relaunches without it (back to the parser's default; for an
    implementation picked, then with the portable one), those ``text`` mentions first,
    otherwise in the user's order."""
    words = stems(text)
    mentioned = [f for f in features if _mentioned(f, words)]
    rest = [f for f in features if f not in mentioned]
    out: list[Move] = []
    for feature in mentioned + rest:
        out.append(Move((Edit(EditOp.DROP, feature.spelling),), inferred=True, origin=ORIGIN))
        if feature.portable is not None:
            # (SGLang's own pick may be the kernel that crashed: then the one that runs everywhere)
            out.append(Move((Edit(EditOp.SET, feature.spelling, feature.portable),), inferred=True, origin=ORIGIN))
    return out


def _mentioned(feature: TurnedOn, text: tuple[str, ...]) -> bool:
    """The feature's own words (moe runner, dp attention) stand in ``text``, or a word of
    the implementation the user picked (flashinfer_trtllm: trtllm)."""
    own = tuple(w for w in feature.flag.removeprefix("enable-").split("-") if w not in _PLAIN_WORDS)
    if own and any(said(s, text) for s in spellings(own)):
        return True
    picked = {
        stem(w) for w in re.split(r"[^a-z0-9]+", feature.value.lower()) if len(w) >= _MIN_WORD and w not in _PLAIN_WORDS
    }
    return bool(picked & set(text))
