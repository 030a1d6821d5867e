"""A systemd unit file read as systemd reads it (systemd.syntax(7), systemd.service(5)).

Only what a base needs: sections of ``Key=value`` lines (``#`` and ``;`` comment lines, a
trailing backslash joining the next line with a space), and the word splitting of
ExecStart= and Environment=: whitespace between words, "double" or 'single' quotes around
a word, C escapes (``\\n``, ``\\"``, ``\\x41``, ``\\101``, ``\\u00e9``), ``%%`` for ``%`` and
the unit-name specifiers, ``$$`` for ``$`` and ``$VAR`` / ``${VAR}`` expanded from the
unit's Environment= in ExecStart=. A specifier or variable that only the host can resolve
is refused by name rather than passed on as text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import InputError

_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "s": " "}
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class UnitFile:
    """The assignments of a unit file, in order, per section."""

    source: str
    name: str  # the unit's file name: sglang-k26.service
    sections: Mapping[str, tuple[tuple[str, str], ...]]

    def values(self, section: str, key: str) -> list[str]:
        """Every value of ``key``, an empty assignment resetting the list (as systemd does)."""
        out: list[str] = []
        for k, value in self.sections.get(section, ()):
            if k == key:
                out = [] if value == "" else [*out, value]
        return out

    def last(self, section: str, key: str) -> str | None:
        found = self.values(section, key)
        return found[-1] if found else None

    def specifiers(self) -> dict[str, str]:
        """The specifiers a unit's name alone resolves (%n %N %p %i %I %j)."""
        stem = self.name.rsplit(".", 1)[0]
        prefix, _, instance = stem.partition("@")
        return {"n": self.name, "N": stem, "p": prefix, "i": instance, "I": instance, "j": prefix.rsplit("-", 1)[-1]}


def parse_unit(text: str, *, source: str, name: str) -> UnitFile:
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for number, line in _logical_lines(text):
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            current = sections.setdefault(stripped[1:-1], [])
            continue
        key, sep, value = stripped.partition("=")
        if not sep or current is None:
            raise InputError(
                f"{source}: line {number}: not a unit file line (Key=value under a [Section]): {stripped[:60]}"
            )
        current.append((key.strip(), value.strip()))
    if not sections:
        raise InputError(f"{source}: no [Service] section: is it a systemd unit file?")
    return UnitFile(source, name, {k: tuple(v) for k, v in sections.items()})


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, line) with backslash continuations joined by a space; comment
    lines inside a continuation are skipped, as systemd does."""
    out: list[tuple[int, str]] = []
    pending: list[str] = []
    start = 0
    # systemd ends a line at a newline only (str.splitlines also splits at U+2028, U+0085,
    # form feeds ...: characters a value may hold).
    for number, raw in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if pending and raw.lstrip()[:1] in ("#", ";"):
            continue
        if not pending:
            start = number
        if raw.endswith("\\"):
            pending.append(raw[:-1])
            continue
        pending.append(raw)
        out.append((start, " ".join(pending)))
        pending = []
    if pending:
        out.append((start, " ".join(pending)))
    return out


def split_words(
    text: str,
    *,
    where: str,
    specifiers: Mapping[str, str],
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """The words of an ExecStart= (``env`` given: variables expanded) or Environment= line."""
    words: list[str] = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        word, i, quoted = _one_word(text, i, where, specifiers, env)
        if env is not None and not quoted and word.lone_variable:
            words.extend(_expand(word.raw, where, env).split())  # a lone $VAR splits at whitespace
        else:
            words.append(word.text(where, env))
    return words


@dataclass
class _Word:
    """A word as read: its characters, and which of them came from a ``$`` to expand."""

    parts: list[tuple[str, bool]]  # (text, expandable)

    @property
    def lone_variable(self) -> bool:
        """The word is one $VAR and nothing else (systemd splits its value into words)."""
        return len(self.parts) == 1 and self.parts[0][1]

    @property
    def raw(self) -> str:
        return "".join(t for t, _ in self.parts)

    def text(self, where: str, env: Mapping[str, str] | None) -> str:
        if env is None:
            return "".join(t for t, _ in self.parts)
        return "".join(_expand(t, where, env) if expandable else t for t, expandable in self.parts)


def _one_word(
    text: str, i: int, where: str, specifiers: Mapping[str, str], env: Mapping[str, str] | None
) -> tuple[_Word, int, bool]:
    parts: list[tuple[str, bool]] = []
    quote = ""
    quoted = False
    while i < len(text):
        ch = text[i]
        if not quote and ch.isspace():
            break
        if ch in "\"'" and (not quote or quote == ch):
            quote = "" if quote else ch
            quoted = True
            i += 1
        elif ch == "\\":
            char, i = _escape(text, i + 1, where)
            parts.append((char, False))
        elif ch == "%":
            char, i = _specifier(text, i + 1, where, specifiers)
            parts.append((char, False))
        elif ch == "$" and env is not None:
            if text[i + 1 : i + 2] == "$":
                parts.append(("$", False))
                i += 2
            else:
                found = _VARIABLE.match(text, i)
                if not found:
                    parts.append(("$", False))
                    i += 1
                else:
                    parts.append((found.group(0), True))
                    i = found.end()
        else:
            parts.append((ch, False))
            i += 1
    if quote:
        raise InputError(f"{where}: a {quote} quote is never closed")
    return _Word(parts), i, quoted


def _escape(text: str, i: int, where: str) -> tuple[str, int]:
    if i >= len(text):
        return "\\", i
    ch = text[i]
    if ch in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[ch], i + 1
    if ch == "x" and re.fullmatch(r"[0-9A-Fa-f]{2}", text[i + 1 : i + 3]):
        return chr(int(text[i + 1 : i + 3], 16)), i + 3
    if ch in "uU":
        size = 4 if ch == "u" else 8
        digits = text[i + 1 : i + 1 + size]
        if re.fullmatch(rf"[0-9A-Fa-f]{{{size}}}", digits):
            return chr(int(digits, 16)), i + 1 + size
    if re.fullmatch(r"[0-7]{3}", text[i : i + 3]):
        return chr(int(text[i : i + 3], 8)), i + 3
    return ch, i + 1  # \\ \" \' \$ and any other: the character itself


def resolve_specifiers(text: str, *, where: str, specifiers: Mapping[str, str]) -> str:
    """A setting that is one value (EnvironmentFile=, WorkingDirectory=): only %x resolved."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "%":
            char, i = _specifier(text, i + 1, where, specifiers)
            out.append(char)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _specifier(text: str, i: int, where: str, specifiers: Mapping[str, str]) -> tuple[str, int]:
    ch = text[i : i + 1]
    if ch == "%":
        return "%", i + 1
    if ch in specifiers:
        return specifiers[ch], i + 1
    raise InputError(f"{where}: %{ch} is a specifier only the host's systemd resolves: write its value instead")


def _expand(text: str, where: str, env: Mapping[str, str]) -> str:
    def value(found: re.Match[str]) -> str:
        name = found.group(1) or found.group(2)
        if name not in env:
            raise InputError(
                f"{where}: ${name} is not set by the unit's Environment= (autofix does not read "
                "EnvironmentFile= off the host): write its value in the command"
            )
        return env[name]

    return _VARIABLE.sub(value, text)
