"""Secrets: which values of a launch are secret, and keeping them out of every sink.

A value is secret when it sits under an env name that looks like one (its last word is
TOKEN, KEY, SECRET, PASSWORD …: ``HF_TOKEN``, ``OPENAI_API_KEY``; TOKEN as a count or a
path, ``SGLANG_MAX_NEW_TOKENS_LIMIT``, ``HF_TOKEN_PATH``, is not), under a flag that the
target's parser documents as a key, token, secret or password (the facts of
strategies/<target>.flags.json, the host's own parser's help once its probe answers, and
flag names ending in -key, -token, -password …), or under a name the user lists in
``search.secrets``. They are found on the parsed config, never by matching its text.

:class:`Secrets` is a frozen value: names and values. It redacts candidates (what the
store keeps), splits the secret flags off a candidate (they reach the server through a
0600 file, never a command line) and scrubs text: a value is replaced wherever it shows,
raw, JSON-escaped or as Python's repr, because servers print their arguments (SGLang logs
``server_args={... 'api_key': ...}`` at start). Values shorter than four characters are
redacted by name only: scrubbing them from text would blank every log line.

Every sink in the process (the store, the logs, the terminal) reads one process-wide set,
:func:`keep_out` adds to it, the way logging is configured once for a process: whichever
code path writes, a secret the run knows is already out of it.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any

from .model import REDACTED, ArgValue, Candidate

MIN_SCRUBBED = 4

# The last word of an env name (HF_TOKEN, OPENAI_API_KEY, AWS_ACCESS_KEY_ID) or a flag
# name (api-key, ssl-keyfile-password) that says what the value is.
_NOUNS = ("TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "CREDENTIALS", "APIKEY")
# Words that make a name secret wherever they stand (CLIENT_SECRET_VALUE).
_ANYWHERE = frozenset({"SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "CREDENTIALS"})
_NOT_SECRET_ENV = frozenset({"PWD", "OLDPWD"})

# What a parser's help says of a flag whose value is a secret: a key, a token, a secret, a
# password (singular: "tokens" are counts), unless it is the path of one ("key file").
_HELP_SAYS_SECRET = re.compile(
    r"\b(?:key|token|secret|password|passphrase|credentials?)\b(?!\s*(?:file|path|dir))", re.IGNORECASE
)


def _is_noun(word: str) -> bool:
    return any(word == noun or word.endswith(noun) for noun in _NOUNS)


def secret_env_name(name: str) -> bool:
    """Whether an environment variable's name says its value is a secret."""
    words = [w for w in name.upper().split("_") if w]
    if not words or name.upper() in _NOT_SECRET_ENV:
        return False
    if _ANYWHERE & set(words):
        return True
    last = words[-1]
    if last == "ID" and len(words) > 1:  # AWS_ACCESS_KEY_ID
        last = words[-2]
    return _is_noun(last)


# Words that make a name a count of what its last word names (max-total-token: a number
# of tokens, an old spelling of --max-total-tokens), not the thing itself.
_COUNTING = frozenset({"MAX", "MIN", "NUM", "COUNT", "TOTAL", "LIMIT", "SIZE", "LEN", "LENGTH", "PER"})


def secret_flag_name(flag: str) -> bool:
    """Whether a flag's name says its value is a secret (api-key, hf-token, db-password);
    a name that counts what it names (max-prefill-num-token) does not."""
    words = [w for w in re.split(r"[-_]", flag.lstrip("-").upper()) if w]
    if not words or _ANYWHERE & set(words):
        return bool(words)
    return _is_noun(words[-1]) and not _COUNTING & set(words[:-1])


def documents_a_secret(help_text: str) -> bool:
    """Whether a parser's help says the flag's value is a key, token, secret or password."""
    return bool(_HELP_SAYS_SECRET.search(help_text or ""))


def flag_takes_text(action: Mapping[str, Any]) -> bool:
    """An argparse action (as dumped or reported by a probe) that takes one free-text
    value: only those can hold a secret (not a count, a choice or a switch)."""
    return (
        action.get("cls") in ("_StoreAction", "StoreAction", None)
        and action.get("type") in (None, "str")
        and not action.get("choices")
        and action.get("nargs") in (None, "?")
    )


def _flag_key(flag: str) -> str:
    """Flags compare by their canonical spelling: api-key, api_key and --API-Key are one."""
    return flag.lstrip("-").lower().replace("_", "-")


def _variants(value: str) -> set[str]:
    """How a value shows in text: raw, inside a JSON string, inside Python's repr."""
    found = {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1], repr(value)[1:-1]}
    return {v for v in found if len(v) >= MIN_SCRUBBED}


@dataclass(frozen=True)
class Secrets:
    """The secret names of a launch (env vars, flags) and the secret values it holds."""

    env: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()
    _flag_keys: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_flag_keys", frozenset(_flag_key(f) for f in self.flags))

    # --- names ---------------------------------------------------------------------------
    def env_is_secret(self, name: str) -> bool:
        return name in self.env or secret_env_name(name)

    def flag_is_secret(self, flag: str) -> bool:
        return _flag_key(flag) in self._flag_keys

    def union(self, other: Secrets) -> Secrets:
        return Secrets(self.env | other.env, self.flags | other.flags, self.values | other.values)

    def with_flags(self, flags: Iterable[str], candidate: Candidate | None = None) -> Secrets:
        """These flags are secret too (and, in ``candidate``, their values)."""
        more = Secrets(self.env, self.flags | frozenset(flags), self.values)
        return more.covering(candidate) if candidate is not None else more

    def covering(self, candidate: Candidate) -> Secrets:
        """The same names, with the values ``candidate`` holds under them added."""
        values = set(self.values)
        for name, value in candidate.env:
            if self.env_is_secret(name):
                values.add(value)
        for flag, arg in candidate.args:
            if self.flag_is_secret(flag) and not isinstance(arg, bool):
                values.update(arg if isinstance(arg, tuple) else (arg,))
        return Secrets(self.env, self.flags, frozenset(values))

    # --- candidates ----------------------------------------------------------------------
    def redact(self, candidate: Candidate) -> Candidate:
        """The candidate as the store keeps it: secret values replaced by <redacted>."""
        args = tuple((flag, _redacted(value) if self.flag_is_secret(flag) else value) for flag, value in candidate.args)
        env = tuple((n, REDACTED if self.env_is_secret(n) else v) for n, v in candidate.env)
        return replace(candidate, args=args, env=env)

    def split(self, candidate: Candidate) -> tuple[Candidate, dict[str, ArgValue]]:
        """The candidate without its secret flags, and those flags (for a 0600 file)."""
        secret: dict[str, ArgValue] = {f: v for f, v in candidate.args if self.flag_is_secret(f) and v is not True}
        public = replace(candidate, args=tuple((f, v) for f, v in candidate.args if f not in secret))
        return public, secret

    # --- text ----------------------------------------------------------------------------
    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        variants = set().union(*(_variants(v) for v in self.values)) if self.values else set()
        if not variants:
            return None
        return re.compile("|".join(re.escape(v) for v in sorted(variants, key=len, reverse=True)))

    def scrub(self, text: str) -> str:
        """``text`` with every secret value replaced by <redacted>."""
        pattern = self._pattern
        if pattern is None or not text:
            return text
        return pattern.sub(REDACTED, text)

    def scrub_tree(self, obj: Any) -> Any:
        """A JSON-like tree with secret values scrubbed from every string, and the fields
        of secret flags (api_key, as a resolved server config names them) redacted."""
        if isinstance(obj, str):
            return self.scrub(obj)
        if isinstance(obj, Mapping):
            return {
                self.scrub(str(k)): REDACTED if self._secret_field(str(k)) else self.scrub_tree(v)
                for k, v in obj.items()
            }
        if isinstance(obj, list | tuple):
            return type(obj)(self.scrub_tree(v) for v in obj)
        return obj

    def _secret_field(self, name: str) -> bool:
        return self.flag_is_secret(name) or (name.isupper() and self.env_is_secret(name))


def _redacted(value: ArgValue) -> ArgValue:
    if isinstance(value, tuple):
        return tuple(REDACTED for _ in value)
    return value if value is True else REDACTED


# --- the process-wide set every sink reads ---------------------------------------------------

_lock = threading.Lock()
_kept_out = Secrets()


def keep_out(secrets: Secrets) -> None:
    """From now on no sink of this process (store, logs, terminal) shows these secrets."""
    global _kept_out
    with _lock:
        _kept_out = _kept_out.union(secrets)


def kept_out() -> Secrets:
    """Every secret this process knows (what the store, the logs and the CLI scrub)."""
    return _kept_out


# --- the target's parser facts -----------------------------------------------------------------


@lru_cache(maxsize=1)
def known_secret_flags() -> frozenset[str]:
    """The flags strategies/*.flags.json marks ``secret`` (from the target's own parser:
    text-valued flags whose help says key, token, secret or password)."""
    from .resources import data_path

    flags: set[str] = set()
    for path in sorted(data_path("strategies").glob("*.flags.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # the catalogue's own loader reports a broken table
        for flag, info in (data.get("flags") or {}).items():
            if isinstance(info, dict) and info.get("secret") is True:
                flags.add(str(flag))
    return frozenset(flags)


def secret_flags_from_parser(facts: Mapping[str, Any]) -> frozenset[str]:
    """The flags a host's parser documents as secrets, from the facts its probe reports
    (``{"flags": {name: {kind, type, choices, help}}, "aliases": {...}}``), with their
    other spellings."""
    raw = facts.get("flags")
    if not isinstance(raw, Mapping):
        return frozenset()
    found = set()
    for name, info in raw.items():
        if not isinstance(info, Mapping) or info.get("kind") != "value":
            continue
        if (
            info.get("type") in (None, "str")
            and not info.get("choices")
            and documents_a_secret(str(info.get("help") or ""))
        ):
            found.add(str(name))
    aliases = facts.get("aliases")
    if isinstance(aliases, Mapping):
        found |= {str(k) for k, v in aliases.items() if v in found}
    return frozenset(found)


def secret_flags_from_help(actions: Iterable[Mapping[str, Any]]) -> frozenset[str]:
    """The flags a parser documents as secrets, from its actions (option strings, type,
    choices, nargs, help), as a probe on the host reports them."""
    found = set()
    for action in actions:
        longs = [o for o in action.get("option_strings") or () if str(o).startswith("--")]
        if longs and flag_takes_text(action) and documents_a_secret(str(action.get("help") or "")):
            found.add(max(longs, key=len)[2:])
    return frozenset(found)


@lru_cache(maxsize=1)
def known_untexted_flags() -> frozenset[str]:
    """Flags the target's parser says take a number, a choice, a list or nothing: a name
    ending in -token (``kt-max-deferred-experts-per-token``) does not make those secret."""
    from .resources import data_path

    flags: set[str] = set()
    for path in sorted(data_path("strategies").glob("*.flags.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for flag, info in (data.get("flags") or {}).items():
            if not isinstance(info, dict):
                continue
            texty = info.get("kind") == "value" and info.get("type") in (None, "str") and not info.get("choices")
            if not texty:
                flags.add(str(flag))
    return frozenset(flags)
