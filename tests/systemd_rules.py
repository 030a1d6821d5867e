"""systemd's EnvironmentFile= rules, written from man systemd.exec(5), as a test oracle.

The exporter (autofix/export.py) writes env files; these functions read them back the way
systemd does, independently of how they were written:

* newline-separated assignments; empty lines, lines without "=", and lines starting
  with ";" or "#" are ignored;
* an unquoted value: leading and trailing whitespace (space, tab, carriage return)
  discarded, interior whitespace and quotes after the first character kept; a backslash
  keeps the next character ("\\\\" is one backslash); a backslash before the newline
  continues the line;
* a '-quoted value: everything verbatim up to the next ', no escapes, may span lines;
* a "-quoted value: backslash before one of ``"\\`$`` keeps that character, before a
  newline continues the line, before anything else both are kept; may span lines;
* whitespace outside the quotes is discarded.

:func:`systemd_reads` asks systemd itself where this machine lets it: systemd parses
/etc/os-release with the very parser EnvironmentFile= uses (env-file.c), and
``systemd-analyze condition ConditionOSRelease=KEY=VALUE`` says whether a key has a value.
A private mount namespace (``unshare -rm``) puts the file in place of /etc/os-release
for that one command, so nothing on the machine changes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

_WHITESPACE = " \t\r"
_KEEP_ESCAPED_IN_DOUBLE = '"\\`$'


def parse_environment_file(text: str) -> dict[str, str]:
    """The assignments systemd reads from an EnvironmentFile= (later ones win)."""
    out: dict[str, str] = {}
    i, n = 0, len(text)
    while i < n:
        # The start of a line: skip blank space; comments and blank lines are ignored.
        while i < n and text[i] in _WHITESPACE:
            i += 1
        if i >= n:
            break
        if text[i] == "\n":
            i += 1
            continue
        if text[i] in "#;":
            i = _end_of_line(text, i)
            continue
        eq = text.find("=", i)
        nl = text.find("\n", i)
        if eq < 0 or (0 <= nl < eq):
            i = _end_of_line(text, i)  # no "=": ignored
            continue
        key = text[i:eq].strip(_WHITESPACE)
        value, i = _value(text, eq + 1)
        out[key] = value
    return out


def _end_of_line(text: str, i: int) -> int:
    nl = text.find("\n", i)
    return len(text) if nl < 0 else nl + 1


def _value(text: str, i: int) -> tuple[str, int]:
    """The value starting at ``i`` (just after "="); returns it and the next line's start."""
    n = len(text)
    parts: list[str] = []
    while i < n and text[i] in _WHITESPACE:
        i += 1
    while i < n and text[i] != "\n":
        ch = text[i]
        if ch == "'":
            end = text.find("'", i + 1)
            end = n if end < 0 else end
            parts.append(text[i + 1 : end])
            i = end + 1
        elif ch == '"':
            i = _double_quoted(text, i + 1, parts)
        else:
            i = _unquoted(text, i, parts)
            break
        while i < n and text[i] in _WHITESPACE:  # whitespace outside the quotes is discarded
            i += 1
    return "".join(parts), (i + 1 if i < n else n)


def _double_quoted(text: str, i: int, parts: list[str]) -> int:
    n = len(text)
    while i < n and text[i] != '"':
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt in _KEEP_ESCAPED_IN_DOUBLE:
                parts.append(nxt)
            elif nxt != "\n":
                parts.append("\\" + nxt)
            i += 2
            continue
        parts.append(ch)
        i += 1
    return i + 1


def _unquoted(text: str, i: int, parts: list[str]) -> int:
    """An unquoted value up to the end of its (possibly continued) line."""
    n = len(text)
    chars: list[str] = []
    keep = 0  # how much of ``chars`` survives trailing-whitespace trimming
    while i < n and text[i] != "\n":
        ch = text[i]
        if ch == "\\":
            if i + 1 < n and text[i + 1] != "\n":
                chars.append(text[i + 1])
                keep = len(chars)
            i += 2  # a backslash-newline is a continuation: both are dropped
            continue
        chars.append(ch)
        if ch not in _WHITESPACE:
            keep = len(chars)
        i += 1
    parts.append("".join(chars[:keep]))
    return i


# --- systemd itself ------------------------------------------------------------------------


def require_systemd_reader() -> None:
    """Skip the test (fail it under CI=true) where systemd's parser cannot be asked."""
    import os

    import pytest

    why = systemd_can_read()
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why}: .ci/run installs systemd and util-linux")
        pytest.skip(why)


def systemd_can_read() -> str | None:
    """None when :func:`systemd_reads` can run here, else why not."""
    if shutil.which("systemd-analyze") is None:
        return "systemd-analyze is not installed"
    if shutil.which("unshare") is None:
        return "unshare is not installed"
    done = subprocess.run(["unshare", "-rm", "true"], capture_output=True, text=True, check=False, timeout=30)
    if done.returncode != 0:
        return f"no private mount namespace here: {done.stderr.strip()[:100]}"
    return None


# A condition's words are split with EXTRACT_UNQUOTE: in "…" a backslash keeps the next
# character; as in any unit setting, % starts a specifier. Values systemd compares as versions ("1.0" == "1.00") or cannot express in a
# condition (empty, or whitespace at either end, stripped before comparing) are left out.
_VERSIONISH = re.compile(r"^[0-9A-Za-z.~^+-]*[0-9][0-9A-Za-z.~^+-]*$")


def checkable(value: str) -> bool:
    """Whether ``systemd-analyze condition`` can confirm this exact value."""
    # A value that starts like a comparison operator ("=", "<", "!", "$=") is read as part of
    # the operator by the condition's own parser (systemd 252: "E0==" is an invalid argument).
    operator_like = value[:1] in ("=", "<", ">", "!", "$")
    return bool(value) and value == value.strip(" \t\r\n") and not operator_like and not _VERSIONISH.match(value)


def systemd_reads(text: str, expected: dict[str, str]) -> bool:
    """Whether systemd's own parser reads every (checkable) KEY=value of ``expected`` from
    ``text``. One ``systemd-analyze condition`` with one ConditionOSRelease= per key."""
    conditions = []
    for key, value in expected.items():
        if checkable(value):
            # The condition is a unit setting: its % starts a specifier (%% is one %).
            escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
            quoted = '"' + key + "=" + escaped + '"'
            conditions.append(f"ConditionOSRelease={quoted}")
    if not conditions:
        return True
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "os-release")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        script = 'mount --bind "$1" /etc/os-release && shift && exec systemd-analyze condition "$@"'
        done = subprocess.run(
            ["unshare", "-rm", "sh", "-c", script, "sh", path, *conditions],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
    return done.returncode == 0
