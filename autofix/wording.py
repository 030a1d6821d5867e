"""Moves read off how a check words its refusal, where no flag is named with a value to
set: a list of the values it allows, a value that must stand alone in its list, a
character a value may not hold, a size that must be 1 or another size, a value's bit
width named by initials (``KV4``), a refused feature named by its flag's words. Pure.

Each rule finds the flag from the facts the catalogue has (the parser's choices, the
flag names' words) and the candidate's own values; none holds a capture's answer.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from .choices import near_choice
from .classify import MATCH_LINE
from .meant import as_number
from .model import ArgValue, Edit, EditOp, Move, normalize_value
from .renames import OFF_WORDS
from .repair import (
    _FLAG_IN_TEXT,
    _REFUSED_OBJECT,
    Flags,
    _holder_of_value,
    _inferred,
    _members,
    _parse_fragment,
    _sentence_before,
    _words,
    flag_name,
    named_flags,
)

# What lets a list through: "only [...]", "the allowed set [...]", "supports only: 'a', 'b'",
# "only compatible with A, B, or C".
# A registry's wording too: "Registered: [...]", "Available: [...]", "Valid values: ...".
_ALLOWING = (
    r"(?:only|allowed(?: set| values)?|supported(?: values)?|one of|compatible with|must be in"
    r"|registered|available|valid(?: values| options| choices)?)"
)
_ITEM = r"(?:'[^'\n]{1,40}'|\"[^\"\n]{1,40}\"|[A-Za-z0-9][\w.-]{0,39})"
_SEP = r"\s*(?:,\s*(?:or\s+|and\s+)?|/|\bor\b|\band\b)\s*"
_ALLOWED_LIST = re.compile(
    rf"(?i)\b{_ALLOWING}\b[:\s]*(?:\w+\s+){{0,2}}?(?P<list>\[[^\]\n]{{1,400}}\]|{_ITEM}(?:{_SEP}{_ITEM}){{1,24}})"
)
_QUOTED = re.compile(r"'([^'\n]{1,80})'|\"([^\"\n]{1,80})\"")
_ALONE = re.compile(r"(?i)\b(?:the only|only one|alone|no other|by itself)\b")
_NO_CHARACTER = re.compile(
    r"(?i)(?:cannot|can ?not|must not|may not|should not|not allowed to) (?:contain|include|have)\s+"
    r"(?:an?\s+)?(?:[a-z]+\s+)?\(?['\"](?P<char>[^'\"\w\s])['\"]\)?"
)
_ONE_OR_OTHER = re.compile(
    r"(?i)\b(?:the\s+)?(?P<what>[a-z]+(?: [a-z]+){0,2}) size (?:must|should) be (?P<n>\d+) or "
    r"(?:the same as|equal to|match) (?:the\s+)?(?P<other>[a-z]+(?: [a-z]+){0,2}) size"
)
# "--x must equal its launch-time TP size (4)": the other setting's value, shown.
_EQUAL_SHOWN = re.compile(
    r"--(?P<flag>[a-z0-9][a-z0-9-]*)\s+must\s+(?:equal|be equal to|match|be the same as)\b"
    r"[^.;:()\n]{0,60}\((?P<value>-?\d+(?:\.\d+)?)\)"
)
_WIDTH = re.compile(r"\b(?P<initials>[A-Z]{2,5})(?P<bits>\d{1,2})\b")
_NONE_COMPARED = re.compile(r"'(?P<op>[<>]=?)' not supported between instances of '(?P<a>\w+)' and '(?P<b>\w+)'")
# A flag's words that prose writes out in full ("dp attention" is --attn-dp-size).
_ABBREVIATIONS = {"attn": "attention", "spec": "speculative", "mem": "memory"}
# Words a flag's name carries that prose leaves out when it names the feature.
_NAME_ONLY_WORDS = frozenset({"enable", "size", "num", "use"})


def wording_moves(message: str, flags: Flags) -> list[Move]:
    """Every move the message's wording gives, in the order the rules are listed."""
    return [
        *_allowed_list(message, flags),
        *_alone_in_list(message, flags),
        *_without_character(message, flags),
        *_one_or_other_size(message, flags),
        *_equal_to_shown(message, flags),
        *_other_width(message, flags),
        *_refused_feature_by_words(message, flags),
    ]


# --- a value the check got, beside what it accepts ------------------------------------------

# "got ['triton']", "(got 'breakable')", "got: x": what the check was given.
_GOT = re.compile(
    r"\bgot:?\s*(?:--[a-z0-9][a-z0-9-]*\s*=\s*)?"
    r"(?P<got>\[[^\]\n]{1,200}\]|'[^'\n]{1,80}'|\"[^\"\n]{1,80}\"|[A-Za-z0-9_][\w.-]*)"
)


def got_refused(message: str, flags: Flags) -> list[Move]:
    """A check that says what it got and lists what it accepts: the user's flag holding a
    value it got is set to each value the message names (in brackets or quotes) that the
    flag's parser accepts, in the message's order."""
    out: list[Move] = []
    for found in _GOT.finditer(message):
        got = set(_items(found.group("got")))
        said = message[: found.start()] + message[found.end() :]
        named = _items_named(said)
        for name, value in flags.candidate.args:
            if flags.is_pinned(name) or not got & set(_members(value)):
                continue
            info = flags.catalog.flag(name)
            choices = {str(c) for c in info.choices} if info is not None else set()
            # (then its choices the message writes as plain words: "requires Triton, or Helion")
            worded = _choices_in_words(message[: found.start()], choices)
            out.extend(
                _inferred([Edit(EditOp.SET, name, item)], "wording")
                for item in dict.fromkeys([*named, *worded])
                if item in choices and item not in got
            )
    return out


# "Set --x to one of them": the values the message listed (in brackets) are the ones to give.
_SET_TO_ONE_OF = re.compile(r"(?i)\b(?:set|use|change)\s+--(?P<flag>[a-z0-9][a-z0-9-]*)\s+to\s+one\s+of\b")


def set_to_one_of(message: str, flags: Flags) -> list[Move]:
    """The flag a message tells the operator to set to one of the values it listed: each
    listed value the flag takes, those the command already gives another flag first (the
    target's backend for the draft's, a flag of the same kind before others), then in the
    message's order."""
    found = _SET_TO_ONE_OF.search(message)
    flag = found.group("flag") if found else ""
    info = flags.catalog.flag(flag) if found else None
    if found is None or info is None or flags.is_pinned(flag):
        return []
    choices = {str(c) for c in info.choices}
    spelled = flags.spelling(flag)
    current = flags.candidate.arg(spelled) if spelled else None
    # (a flag with no choices of its own, a string naming a backend, takes what is listed)
    listed = [v for v in _items_named(message[: found.start()]) if (v in choices or not choices) and v != current]
    # Held by a flag of the same kind (its name's words shared: attention-backend for the
    # draft's attention backend) goes first, then held by any other flag.
    words = set(flags.catalog.canonical(flag).split("-"))
    kin: dict[str, int] = {}
    for name, held in flags.candidate.args:
        if name != spelled and isinstance(held, str):
            shared = len(words & set(flags.catalog.canonical(name).split("-")))
            kin[held] = max(kin.get(held, 0), shared + 1)
    listed.sort(key=lambda v: -kin.get(v, 0))
    return [_inferred([Edit(EditOp.SET, flags.target(flag), v)], "wording") for v in dict.fromkeys(listed)]


# "Set SGLANG_X>=5120", "export SGLANG_Y=600": an environment variable (capitals, a word of
# its own after its prefix) a message tells the operator to set, with its value.
_ENV_TO_SET = re.compile(
    r"\b(?i:set|export)\s+[`'\"]?(?P<name>[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])[`'\"]?\s*"
    r"(?:(?:>=|=)\s*[`'\"]?(?P<value>[\w.]+)"
    # ("set X to disable it": after "to" only a number or an on/off word is its value)
    r"|\s(?i:to)\s+[`'\"]?(?P<value2>-?\d[\w.]*|(?i:true|false|on|off))\b)"
)


# A clause that says which platform its advice is for: "On ROCm, set ...", "for Ascend NPUs".
_ON_PLATFORM = re.compile(
    r"(?i)\b(?:on|for|with)\s+(?:an?\s+|the\s+)?(?:ROCm|AMD|HIP|NPU|Ascend|XPU|Intel|HPU|Gaudi|MUSA|MI\d{3}\w*|Apple|MPS)\b"
)


def env_the_message_sets(message: str, flags: Flags, *, bounds: bool) -> list[Move]:
    """Each variable the message tells the operator to set, with the value it gives: with
    ``bounds``, those given a lower bound ("X>=5120", the amount the check computed: the
    least that meets it); else those given a value (a switch: "Set X=1 to use the Triton
    path" is one way among the message's others, measured worse first: round 46g)."""
    out: list[Move] = []
    for found in _ENV_TO_SET.finditer(message):
        if (">=" in found.group(0)) is not bounds or _ON_PLATFORM.search(_sentence_before(message, found.start())):
            continue  # ("On ROCm, set X=1": advice for a platform the message names)
        name, value = found.group("name"), (found.group("value") or found.group("value2")).rstrip(".")
        if value and flags.candidate.env_value(name) != value:
            out.append(_inferred([Edit(EditOp.SET_ENV, name, value)], "wording"))
    return out


# "require --x set to the current effective EP size": a flag asked to equal a size named
# in words.
_SET_TO_NAMED = re.compile(
    r"(?i)\brequires?\s+--(?P<flag>[a-z0-9][a-z0-9-]*)\s+(?:to\s+be\s+)?set\s+to\s+(?:the\s+)?"
    r"(?P<words>[a-z][a-z ]{2,60}?)\s*(?:[.,;(]|$)"
)


def set_to_named_size(message: str, flags: Flags) -> list[Move]:
    """The flag a message asks to equal a size it names in words (the catalogue's words for
    a flag: "EP size"), set to that size's value as the command gives it."""
    out: list[Move] = []
    for found in _SET_TO_NAMED.finditer(message):
        flag, words = found.group("flag"), found.group("words").lower()
        if flags.catalog.flag(flag) is None or flags.is_pinned(flag):
            continue
        for named, phrases in flags.catalog.words.items():
            spelled = flags.spelling(named)
            value = flags.candidate.arg(spelled) if spelled else None
            if named != flag and any(p in words for p in phrases) and isinstance(value, str) and as_number(value):
                out.append(_inferred([Edit(EditOp.SET, flags.target(flag), value)], "wording"))
    return out


# A check that takes host names alone.
_HOST_ONLY = re.compile(
    r"(?i)host ?names? only|ports? (?:are|is) not (?:supported|allowed)|without (?:a |the )?(?:scheme|port)"
    r"|does not appear to be an IPv4 or IPv6 address"
)
_URL_OR_PORT = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?P<host>[A-Za-z0-9.-]+)(?::\d+)?(?:/.*)?$")


def host_only(message: str, flags: Flags) -> list[Move]:
    """A flag holding the value a host-name check quotes: every member its host (the
    scheme, port and path gone), in one move."""
    if not _HOST_ONLY.search(message):
        return []
    quoted = {a or b for a, b in _QUOTED.findall(message)}
    out: list[Move] = []
    for name, value in flags.candidate.args:
        members = _members(value)
        if flags.is_pinned(name) or not quoted & set(members):
            continue
        hosts = [found.group("host") if (found := _URL_OR_PORT.match(m)) else m for m in members]
        if tuple(hosts) != members:
            mended: ArgValue = tuple(hosts) if isinstance(value, tuple) else hosts[0]
            out.append(_inferred([Edit(EditOp.SET, name, mended)], "wording"))
    return out


MIN_WORDED_CHOICE = 4  # shorter choices (fa3, ep, none) are too often other words


def _choices_in_words(text: str, choices: set[str]) -> list[str]:
    """The choices ``text`` writes as words, any case, in its order."""
    by_word = {c.lower(): c for c in choices if len(c) >= MIN_WORDED_CHOICE}
    return [by_word[w.lower()] for w in re.findall(r"[A-Za-z][\w-]*", text) if w.lower() in by_word]


def _items_named(text: str) -> list[str]:
    """Values a message names: the items of its bracketed lists, and its quoted words."""
    out: list[str] = []
    for listed in re.findall(r"\[[^\]\n]{1,400}\]", text):
        out.extend(_items(listed))
    out.extend(a or b for a, b in _QUOTED.findall(text))
    return list(dict.fromkeys(out))


# --- a list of allowed values --------------------------------------------------------------


def _items(listed: str) -> list[str]:
    """The values a list holds: each item's first word, quotes stripped ("bfloat16 (None)")."""
    inner = listed.strip()[1:-1] if listed.strip().startswith("[") else listed
    out: list[str] = []
    for part in re.split(_SEP, inner):
        word = re.match(r"\s*['\"]?([\w.-]+)", part)
        if word:
            out.append(word.group(1))
    return list(dict.fromkeys(out))


def _allowed_list(message: str, flags: Flags) -> list[Move]:
    out: list[Move] = []
    for found in _ALLOWED_LIST.finditer(message):
        items = _items(found.group("list"))
        if len(items) < 2:
            continue
        holder = _list_holder(message, items, flags)
        if holder is None:
            continue
        current = flags.value(holder, {}) if flags.known(holder) else None
        if current is not None and str(current) in items:
            continue  # the holder already has an allowed value: the list is about something else
        values = _in_preferred_order(holder, items, flags, exclude=str(current) if current is not None else None)
        if isinstance(current, str):
            # The one the user evidently meant (shortened, a typo apart) before the rest.
            values.sort(key=lambda v: not near_choice(current, str(v)))
        option = _option_only_for(message[: found.start("list")], holder, flags)
        if option is not None:
            # "--x is only supported for EAGLE / EAGLE3": the option goes before the
            # algorithm the user chose is replaced.
            out.append(_inferred([Edit(EditOp.DROP, option)], "wording"))
        if holder in flags.catalog.intent:
            # What the operator asked for stays: the feature that restricts it goes first.
            outside = message[: found.start("list")] + message[found.end("list") :]
            out.extend(_inferred([Edit(EditOp.DROP, name)], "wording") for name in _restricting(outside, holder, flags))
        out.extend(_inferred([Edit(EditOp.SET, flags.target(holder), v)], "wording") for v in values[:2])
    return out


def _option_only_for(before: str, holder: str, flags: Flags) -> str | None:
    """The option a message opens with ("--x is only supported for …"), when the candidate
    set it and it is not the flag the list is about."""
    opening = re.match(r"\s*--([a-z0-9][a-z0-9-]*)(?:[= ]\S+)?\s+(?:is\s+)?only\b", before)
    if opening is None:
        return None
    name = opening.group(1)
    if flags.catalog.canonical(name) == holder or flags.is_pinned(name) or flags.spelling(name) is None:
        return None
    return flags.target(name)


def _list_holder(message: str, items: list[str], flags: Flags) -> str | None:
    """The flag the list is about: a --flag the message names whose choices hold the list;
    else the candidate's flag whose value the message refuses (quoted, or after "not");
    else the flag whose parser choices hold most of the list (the one set, then the one
    whose words the message uses, then the most general)."""
    for name in _FLAG_IN_TEXT.findall(message):
        if _holds(name, items, flags) >= 2:
            return flags.catalog.canonical(name)
    said = _words(message)
    for name, value in flags.candidate.args:
        refused = isinstance(value, str) and value not in items and len(value) >= 3 and _words(value) in said
        if refused and (_holds(name, items, flags) >= 1 or not _choices(name, flags)):
            return flags.catalog.canonical(name)
    best: tuple[tuple[int, int, int, int], str] | None = None
    for order, name in enumerate(flags.catalog.flags):
        held = _holds(name, items, flags)
        if held < 2 or held * 2 < len(items):
            continue
        words = name.split("-")
        key = (-held, 0 if flags.known(name) else 1, -sum(f" {w} " in said for w in words), len(words) * 1000 + order)
        if best is None or key < best[0]:
            best = (key, name)
    return best[1] if best is not None else None


def _choices(flag: str, flags: Flags) -> list[str]:
    info = flags.catalog.flag(flag)
    return [str(c) for c in info.choices] if info is not None else []


def _holds(flag: str, items: list[str], flags: Flags) -> int:
    choices = set(_choices(flag, flags))
    return sum(i in choices for i in items)


def _in_preferred_order(flag: str, items: list[str], flags: Flags, exclude: str | None) -> list[ArgValue]:
    """The allowed values to try: an alphabetical list says nothing of preference, so the
    catalogue's documented values, then the parser's order, decide; otherwise the author's
    order does. Only values the flag's parser takes (when it lists choices), none off."""
    choices = _choices(flag, flags)
    usable = [i for i in items if i != exclude and i.lower() not in OFF_WORDS and (not choices or i in choices)]
    if len(usable) >= 3 and [u.lower() for u in usable] == sorted(u.lower() for u in usable):
        domain = [str(v) for v in flags.catalog.domain(flag)]
        rank = {v: i for i, v in enumerate([*domain, *choices])}
        usable.sort(key=lambda v: rank.get(v, len(rank)))
    return [v for v in (normalize_value(u) for u in usable) if v is not None]


def _restricting(message: str, holder: str, flags: Flags) -> Iterator[str]:
    """Flags the candidate set, other than the holder, whose value the message names by
    its words ("FlashInfer TRTLLM MOE" is moe-runner-backend=flashinfer_trtllm). Offline
    (no values known) the flag whose parser choices hold a value the text names."""
    if flags.assume_present and not flags.candidate.args:
        named = _holder_of_value(message, flags)
        if named is not None and flags.catalog.canonical(named[0]) != holder:
            yield named[0]
        return
    said = _words(message)
    for name, value in flags.candidate.args:
        canonical = flags.catalog.canonical(name)
        if canonical == holder or flags.is_pinned(name) or not isinstance(value, str) or "/" in value:
            continue
        if len(value) >= 3 and value.lower() not in OFF_WORDS and _words(value) in said:
            yield name


# --- one value alone, a character a value may not hold --------------------------------------


def _named_flags(message: str, flags: Flags) -> list[str]:
    """Flags of the target's parser the message names (as --flag or as their field)."""
    return [n for n in named_flags(message) if flags.catalog.flag(n) is not None]


def _alone_in_list(message: str, flags: Flags) -> list[Move]:
    """ "If 'all' is given ..., it must be the only module": the list flag set to that value."""
    if not _ALONE.search(message):
        return []
    out: list[Move] = []
    quoted = [a or b for a, b in _QUOTED.findall(message)]
    for flag in _named_flags(message, flags):
        if not flags.catalog.takes_list(flag) or flags.is_pinned(flag) or flags.spelling(flag) is None:
            continue
        current = flags.value(flag, {})
        held = [str(v) for v in current] if isinstance(current, tuple | list) else None
        for value in quoted:
            if (held is None and flags.assume_present) or (held is not None and value in held and len(held) > 1):
                out.append(_inferred([Edit(EditOp.SET, flags.target(flag), value)], "wording"))
                break
    return out


def _without_character(message: str, flags: Flags) -> list[Move]:
    """ "served_model_name cannot contain a colon (':')": the value with that character
    replaced (by '-', or '_' for a '-'), not the flag dropped. Offline the value is the
    last quoted one in the message holding the character."""
    found = _NO_CHARACTER.search(message)
    if found is None:
        return []
    char = found.group("char")
    other = "_" if char == "-" else "-"
    out: list[Move] = []
    for flag in _named_flags(message, flags):
        if flags.is_pinned(flag) or flags.spelling(flag) is None:
            continue
        value = flags.value(flag, {}) if flags.known(flag) else None
        if value is None and flags.assume_present:
            quoted = [a or b for a, b in _QUOTED.findall(message[found.end() :])]
            value = next((q for q in reversed(quoted) if char in q and len(q) > 1), None)
        if isinstance(value, str) and char in value and value.replace(char, "").strip(other):
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), value.replace(char, other))], "wording"))
    return out


# --- sizes and widths --------------------------------------------------------------------------


def size_flag(phrase: str, flags: Flags) -> str | None:
    """The size flag a phrase names by its words' initials ("expert parallel": ep-size)."""
    initials = "".join(w[0] for w in phrase.lower().split() if w not in ("the", "of"))
    for name in (f"{initials}-size", initials):
        canonical = flags.catalog.canonical(name)
        if flags.catalog.flag(canonical) is not None:
            return canonical
    return None


def _one_or_other_size(message: str, flags: Flags) -> list[Move]:
    """ "The expert parallel size must be 1 or the same as the tensor parallel size": the
    size that keeps the feature (the other size's value) first, then the number."""
    out: list[Move] = []
    for found in _ONE_OR_OTHER.finditer(message):
        what, other = size_flag(found.group("what"), flags), size_flag(found.group("other"), flags)
        if what is None or other is None or flags.is_pinned(what) or flags.assume_present:
            continue
        info = flags.catalog.flag(other)
        same = as_number(flags.value(other, {})) if flags.known(other) else as_number(info.default if info else None)
        current = as_number(flags.value(what, {})) if flags.known(what) else None
        for value in (same, as_number(found.group("n"))):
            if value is not None and value != current:
                out.append(_inferred([Edit(EditOp.SET, flags.target(what), str(int(value)))], "wording"))
    return out


def _other_width(message: str, flags: Flags) -> list[Move]:
    """ "KV4 is not tested on non-CUDA platforms": the flag the initials name (kv-cache-dtype)
    takes a value of another bit width (documented values first, then the parser's)."""
    if not re.search(r"(?i)\bnot\b|\bonly\b|\brequires?\b|\bunsupported\b", message):
        return []
    out: list[Move] = []
    for found in _WIDTH.finditer(message):
        bits = found.group("bits")
        flag = _by_initials(found.group("initials"), flags)
        if flag is None or flags.is_pinned(flag):
            continue
        current = flags.value(flag, {}) if flags.known(flag) else None
        if current is not None and _width(str(current)) != bits:
            continue
        domain = [str(v) for v in flags.catalog.domain(flag)]
        choices = _choices(flag, flags)
        others = [
            c
            for c in dict.fromkeys([*domain, *choices])
            if c in choices and c.lower() not in OFF_WORDS and _width(c) not in (None, bits) and c != current
        ]
        if others:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), others[0])], "wording"))
    return out


def _width(value: str) -> str | None:
    """A dtype's bit width: its first number (fp8_e4m3: 8, fp4_mx_block16: 4, nvfp4: 4)."""
    found = re.search(r"\d+", value)
    return found.group() if found else None


def _by_initials(initials: str, flags: Flags) -> str | None:
    """The flag whose name starts with these letters as a word (kv-…), set in the candidate
    (offline: any flag of that name whose values carry bit widths)."""
    prefix = initials.lower() + "-"
    for name in flags.catalog.flags:
        if not name.startswith(prefix) or flags.spelling(name) is None:
            continue
        if any(re.search(r"\d", c) for c in _choices(name, flags)):
            return name
    return None


# --- features a requirement says must be absent ------------------------------------------------

# "requires trivial expert placement without EPLB or redundant experts": what must be absent.
_REQUIRES_WITHOUT = re.compile(
    r"(?i)\b(?:requires?|only (?:works|supported)|supports? only|works only)\b[^.\n]{0,80}?"
    r"\bwithout\s+(?P<what>[^.;:()\n]{2,120})"
)
_LIST_SEP = re.compile(r"(?i)\s*(?:,\s*(?:or\s+|and\s+)?|\bor\b|\band\b|\bnor\b)\s*")
_ITEM_FILLER = frozenset({"a", "an", "the", "any", "other"})


def required_absent(message: str, flags: Flags) -> list[Move]:
    """The features a check says the user's choice requires to be absent ("... requires X
    without EPLB or redundant experts") that the user turned on, named by their flags'
    words: left out together, one move."""
    found = _REQUIRES_WITHOUT.search(_FLAG_IN_TEXT.sub(" ", message[:MATCH_LINE]))
    if found is None:
        return []
    items = [
        [w for w in _words(item).split() if w not in _ITEM_FILLER] for item in _LIST_SEP.split(found.group("what"))
    ]
    named: list[str] = []
    for name, value in flags.candidate.args:
        info = flags.catalog.flag(name)
        if info is None or flags.is_pinned(name) or (info.kind == "bool" and value is not True and value != "True"):
            continue
        words = _feature_words(flags.catalog.canonical(name))
        if any(item and _side_by_side(item, words) for item in items):
            named.append(name)
    if not named:
        return []
    # (the check asks them all gone: one move where one at a time would fail again for each
    # left, so it is weighed as that many steps further)
    return [Move(tuple(Edit(EditOp.DROP, name) for name in named), True, "wording", ahead=len(named) - 1)]


# --- a refused feature named by its flag's words -----------------------------------------------


def _feature_words(flag: str) -> list[str]:
    return [_ABBREVIATIONS.get(w, w) for w in flag.split("-") if w not in _NAME_ONLY_WORDS]


def _refused_feature_by_words(message: str, flags: Flags) -> list[Move]:
    """ "does not support dp attention": the flag the candidate set whose words (attn-dp-size:
    attention, dp) the refused object holds side by side, in any order; boolean enable-
    flags are the other rule's (repair._features_named)."""
    out: list[Move] = []
    for found in _REFUSED_OBJECT.finditer(message):
        said = _words(_FLAG_IN_TEXT.sub(" ", found.group("what"))).split()
        for name, _value in flags.candidate.args:
            info = flags.catalog.flag(name)
            if info is None or info.kind == "bool" or flags.is_pinned(name):
                continue
            words = _feature_words(flags.catalog.canonical(name))
            if len(words) >= 2 and _side_by_side(words, said):
                out.append(_inferred([Edit(EditOp.DROP, name)], "wording"))
    return out


def _side_by_side(words: list[str], said: list[str]) -> bool:
    n = len(words)
    return any(sorted(said[i : i + n]) == sorted(words) for i in range(len(said) - n + 1))


# --- None compared with a number ---------------------------------------------------------------


def none_compared(exception: str, message: str, source: str | None, flags: Flags) -> list[Move]:
    """TypeError "'>' not supported between instances of 'NoneType' and 'int'" in
    ``cfg.x > 1``: x is unset where the code wanted a number; it gets the comparison's own
    constant (the value that lets the test be read without switching on what it guards)."""
    found = _NONE_COMPARED.search(message)
    if exception.rsplit(".", 1)[-1] != "TypeError" or found is None or not source:
        return []
    if "NoneType" not in (found.group("a"), found.group("b")):
        return []
    expr = _parse_fragment(source)
    out: list[Move] = []
    for flag, number in _compared_with_numbers(expr) if expr is not None else ():
        unset = flags.catalog.flag(flag) is not None and not flags.known(flag) and not flags.is_pinned(flag)
        if unset:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), str(number))], "none"))
    return out


def _compared_with_numbers(expr: ast.expr) -> Iterator[tuple[str, int | float]]:
    """(flag, number) for each ``cfg.field <op> number`` (either side) in an expression."""
    for node in ast.walk(expr):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        for field, const in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
            if not (isinstance(field, ast.Attribute) and isinstance(const, ast.Constant)):
                continue
            if isinstance(const.value, int | float) and not isinstance(const.value, bool):
                yield flag_name(field.attr), const.value


def _equal_to_shown(message: str, flags: Flags) -> list[Move]:
    """The flag a check wants equal to another setting, set to the value it shows (a flag
    the parser knows, set or not: the check names it)."""
    out: list[Move] = []
    for found in _EQUAL_SHOWN.finditer(message):
        flag = found.group("flag")
        if flags.catalog.knows(flag) and not flags.is_pinned(flag):
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), found.group("value"))], "message"))
    return out


__all__ = ["none_compared", "size_flag", "wording_moves"]
