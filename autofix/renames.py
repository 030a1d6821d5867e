"""Flags the target's parser does not know, mapped to what the user meant. Pure.

A user's command carries flags as they were typed or as an older release named them:
``--reasoning_parser``, ``---page-size``, a split ``- -trust-remote-code``, two glued
``--a--b``, a prefix that was unique before the flag was split (``--cuda-graph-max-bs``),
or a flag a release removed with a replacement (``--enable-deepep-moe`` -> ``--moe-a2a-backend
deepep``). :func:`rename_move` answers all of them in ONE move, from facts only: the host's
own parser (names, aliases, kinds, choices, defaults: ``Catalog.with_parser``) and the flag
history of past releases (strategies/sglang.flag-history.json: which release had which
flag, and the replacements its deprecation messages name). The value is carried over.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .catalog import SWITCH_VERBS, Catalog, Equivalent, normal_form, typed_as_flag, wrapped_name
from .choices import meant_choices, near_choice
from .model import ArgValue, Candidate, Edit, EditOp, Move, normalize_value

# How close a misspelling must be to a flag's name to be read as that flag: close enough
# for "speculative-eagle-top-k" -> "speculative-eagle-topk", far enough that a removed flag
# ("enable-mla") is not read as an unrelated one ("enable-lora").
CLOSE = 0.85
# A short option (``-c``, ``-fa``, ``-ngl``): another tool's. argparse never reads one as
# the abbreviation of a long flag, so no prefix reading applies to it.
_SHORT_OPTION = re.compile(r"^\s*-[^-\s]")
MAX_SHORT = 3
# What a spelling stands for: (flag, value to set; None: the user's own) pairs, and why.
Reading = tuple[tuple[tuple[str, ArgValue | None], ...], str]


@dataclass(frozen=True)
class Meaning:
    """What one unknown spelling stands for: flags to set (the first takes the user's
    value), or nothing (a flag that releases removed without a replacement)."""

    spelling: str
    flags: tuple[tuple[str, ArgValue | None], ...]  # (flag, value to set; None: the user's own)
    why: str

    @property
    def dropped(self) -> bool:
        return not self.flags

    def words(self) -> str:
        """The user's words for it: ``--enable-deepep-moe is --moe-a2a-backend deepep``."""
        if self.dropped:
            return f"--{self.spelling.lstrip('-')} is left out ({self.why})"
        into = _into_key(self)
        if into is not None:
            parts = [f"the key {into[1]} of --{into[0]}"]
        else:
            parts = [f"--{f}" + ("" if v is None or v is True else f" {arg_text(v)}") for f, v in self.flags]
        shown = self.spelling if self.spelling.startswith("-") else f"--{self.spelling}"
        return f"{shown} is {' '.join(parts)} ({self.why})"


def arg_text(value: ArgValue) -> str:
    """A flag's value as a command line writes it (a list's members space-separated)."""
    return " ".join(value) if isinstance(value, tuple) else str(value)


def unknown_flags(candidate: Candidate, catalog: Catalog) -> list[str]:
    """The candidate's flags the target's parser does not have under that exact name."""
    if not catalog.flags:
        return []
    return [name for name, _ in candidate.args if not catalog.knows(name)]


def meaning(
    spelling: str, catalog: Catalog, value: ArgValue | None = None, taken: frozenset[str] = frozenset()
) -> Meaning | None:
    """What the user meant by a flag the parser does not know, given ``value`` (None: not
    known, or none given) and the flags the command sets already (``taken``: it does not
    set one twice); None when nothing says."""
    norm = normal_form(spelling)
    wrapped = _wrapped_name(spelling, value, catalog)
    if wrapped is not None:
        return Meaning(spelling, (wrapped,), "the flag's name, wrapped onto the next line of the command")
    short = bool(_SHORT_OPTION.match(spelling)) and len(norm) <= MAX_SHORT
    found = _resolve(norm, catalog, short=short, given=value, taken=taken)
    if found is not None:
        return Meaning(spelling, found[0], found[1])
    if "--" in norm:  # two flags glued together
        parts = [p for p in norm.split("--") if p]
        resolved = [_resolve(p, catalog) for p in parts]
        if len(parts) > 1 and all(r is not None and r[0] for r in resolved):
            flags = tuple(pair for r in resolved if r is not None for pair in r[0])
            return Meaning(spelling, flags, "two flags written together")
    return None


def _wrapped_name(spelling: str, value: ArgValue | None, catalog: Catalog) -> tuple[str, ArgValue] | None:
    """(flag, its value) when the first word of ``value`` is the rest of the flag's name
    (catalog.wrapped_name); None otherwise."""
    words = value if isinstance(value, tuple) else (value,) if isinstance(value, str) else ()
    name = wrapped_name(spelling, words[0], catalog.knows) if words else None
    if name is None:
        return None
    rest = words[1:]
    return catalog.canonical(name), (rest[0] if len(rest) == 1 else rest) if rest else True


def _known(catalog: Catalog) -> list[str]:
    return sorted({*catalog.flags, *catalog.aliases})


def _resolve(
    name: str,
    catalog: Catalog,
    depth: int = 0,
    *,
    short: bool = False,
    given: ArgValue | None = None,
    taken: frozenset[str] = frozenset(),
) -> Reading | None:
    if not name:
        return None
    if catalog.knows(name):
        return ((name, None),), "the same flag, spelled as the parser spells it"
    later = catalog.later_aliases.get(name)
    if later is not None and catalog.knows(later):
        return ((catalog.canonical(later), None),), "the name the host's release has for it"
    replacement = catalog.history.replacements.get(name)
    if replacement is not None and depth < 5:
        new = _host_spelling(replacement.flag, catalog, depth)
        if new is not None:
            value: ArgValue | None = None
            if replacement.value is not None:
                value = _valid_choice(new, str(replacement.value), catalog)
            elif replacement.value_from is not None:
                value = _FROM + replacement.value_from  # filled from the candidate when applied
            why = f"renamed in SGLang {replacement.release}" if replacement.release else "renamed"
            return ((new, value),), why
    known = _known(catalog)
    prefixed = None if short else _prefix_reading(name, known, catalog, taken)
    if prefixed is not None and not _takes(prefixed, given, catalog):
        # argparse would take the prefix for that flag and refuse the value: a switch
        # given a word ("--quantize bitsandbytes") meant another flag.
        prefixed = None
    switch = _verb_switch(name, catalog) if given is True else None
    if prefixed is not None and switch is not None and not _is_switch(prefixed, catalog):
        # given as a switch where the prefix's flag takes a value (--torch-compile, a
        # prefix of --torch-compile-max-bs): the switch it names without its verb
        return ((switch, None),), "the switch whose name it is, without its verb"
    if prefixed is not None:
        return ((prefixed, None),), "the full name of the flag the prefix stands for"
    foreign = _foreign_reading(name, catalog, depth, given)
    if foreign is not None:
        return foreign
    if not short and not prefixed and name not in catalog.history.seen and depth < 5:
        past = _past_prefix_reading(name, catalog, depth)
        if past is not None:
            return past
    suffixed = [k for k in known if k.endswith("-" + name)]
    if len(suffixed) == 1:
        return ((suffixed[0], None),), "the flag's full name"
    words = sorted(name.split("-"))
    reordered = [k for k in known if sorted(k.split("-")) == words]
    if len(reordered) == 1:
        return ((reordered[0], None),), "the same words in the parser's order"
    if name in catalog.history.seen:
        first, last = catalog.history.seen[name]
        releases = catalog.history.releases
        if releases and last == releases[-1]:
            older = catalog.older_names(name)
            if len(older) == 1:
                return ((older[0], None),), f"the host's name for it (a later release renamed it --{name})"
            # A flag of newer releases than the host's: the host cannot take it at all.
            shown = first if first == last else f"{first}-{last}"
            return (), f"a flag of SGLang {shown}, newer than the host's release"
        successor = _silent_successor(name, catalog, depth)
        if successor is not None:
            return ((successor[0], None),), f"renamed in SGLang {successor[1]}"
        return (), f"SGLang {first}-{last} had it; later releases removed it"
    shortened = None if short else _abbreviated(name, known, catalog)
    if shortened is not None:
        return ((shortened, None),), "the flag whose words these shorten"
    close = difflib.get_close_matches(name, known, n=1, cutoff=CLOSE)
    if close:
        return ((close[0], None),), "the nearest flag name"
    return None


def _abbreviated(name: str, known: Sequence[str], catalog: Catalog) -> str | None:
    """The one flag with as many words as ``name``, each of which the word of ``name`` in
    its place shortens (attn: attention, reqs: requests); None when none or several fit."""
    words = name.split("-")
    fits = {
        catalog.canonical(k)
        for k in known
        if len(parts := k.split("-")) == len(words) and all(map(_shortens, words, parts))
    }
    return fits.pop() if len(fits) == 1 else None


def _shortens(short: str, word: str) -> bool:
    """``short`` is ``word`` or keeps its first two letters and some of the rest, in order
    (one letter in common says nothing: s-e-r is in "sidecar")."""
    if short == word:
        return True
    if len(short) < 2 or len(short) >= len(word) or short[:2] != word[:2]:
        return False
    rest = iter(word[2:])
    return all(ch in rest for ch in short[2:])


def _verb_switch(name: str, catalog: Catalog) -> str | None:
    """The host's switch named ``enable-<name>`` (or use-, disable-), None if none."""
    found = [f"{verb}-{name}" for verb in SWITCH_VERBS if _is_switch(f"{verb}-{name}", catalog)]
    return catalog.canonical(found[0]) if found else None


def _is_switch(flag: str, catalog: Catalog) -> bool:
    info = catalog.flag(flag)
    return info is not None and info.kind.startswith("bool")


def _takes(flag: str, value: ArgValue | None, catalog: Catalog) -> bool:
    """Whether ``flag`` takes the value the user gave (a switch takes none or an on/off word)."""
    info = catalog.flag(flag)
    if info is None or info.kind != "bool" or value is None or value is True:
        return True
    return str(value).lower() in ON_WORDS | OFF_WORDS


def _prefix_reading(
    name: str, known: Sequence[str], catalog: Catalog, taken: frozenset[str] = frozenset()
) -> str | None:
    """The flag a prefix stands for: the one flag of the host's that starts with it, else
    the one a past release's parser had starting with it (argparse took the prefix for it
    then; the latest such release's), else the flag whose name every other one extends,
    else None: a prefix every release read as several unrelated flags names none of them.
    Without a flag history, the flag it named first. A flag the command already sets
    (``taken``) is not what the prefix stands for, unless it is the only one it begins."""
    prefixed = [k for k in known if k.startswith(name)]
    others = [k for k in prefixed if catalog.canonical(k) not in taken]
    prefixed = others or prefixed
    flags = {catalog.canonical(k) for k in prefixed}
    if len(flags) <= 1:
        return flags.pop() if flags else None
    history = catalog.history
    if not history.releases:
        best = min(prefixed, key=lambda k: (history.first_seen(catalog.canonical(k)), len(k)))
        return catalog.canonical(best)
    for index in range(len(history.releases) - 1, -1, -1):
        alive = [a for a in history.alive_in(index, prefix=name) if a not in taken or not others]
        if len(alive) == 1 and catalog.knows(alive[0]):
            return catalog.canonical(alive[0])
    # Names that nest (disable-cuda-graph, disable-cuda-graph-padding): the others are
    # variants of the one every other extends, and the prefix stands for that one.
    base = min(flags, key=len)
    return base if all(f.startswith(base) for f in flags) else None


def _foreign_reading(name: str, catalog: Catalog, depth: int, given: ArgValue | None = None) -> Reading | None:
    """Another engine's flag (catalog.equivalents), where no SGLang release had that name:
    the SGLang flag that does its job, in the host's spelling (through SGLang's own
    renames when the host lacks it), or nothing when SGLang has none or does it by default,
    or when the value ``given`` is none of that flag's choices (it cannot be carried)."""
    found = catalog.equivalents.get(name)
    if found is None or name in catalog.history.seen:
        return None
    engines = " and ".join(found.engines)
    if found.values is not None or found.keys is not None:
        return _per_value_reading(found, catalog, depth, given, engines)
    why = f"a {engines} flag; {found.why}"
    if found.flag is None:
        return (), why
    target = _host_spelling(found.flag, catalog, depth)
    if target is None:
        return None
    if found.key is not None:
        return ((catalog.canonical(target), _INTO + found.key),), why
    if found.value_from is not None:
        return ((catalog.canonical(target), _FROM + found.value_from),), why
    value = None if found.value is None else _valid_choice(target, str(found.value), catalog)
    info = catalog.flag(target)
    choices = [str(c) for c in (info.choices if info else ())]
    if value is None and isinstance(given, str) and choices and not any(near_choice(given, c) for c in choices):
        # (a value near one of them is mended once the parser names its choices)
        return (), f"a {engines} flag whose value {given} SGLang's --{catalog.canonical(target)} does not take"
    return ((catalog.canonical(target), value),), why


def _per_value_reading(
    found: Equivalent, catalog: Catalog, depth: int, given: ArgValue | None, engines: str
) -> Reading | None:
    """A flag whose every value stands for its own SGLang flags (vLLM's --all2all-backend
    deepep_low_latency: --moe-a2a-backend deepep --deepep-mode low_latency)."""
    flags = found.reading_of(given)
    if flags is None:
        return (), f"a {engines} flag whose value {given} SGLang has no equivalent for"
    if not flags:
        return (), f"a {engines} flag; {given} is SGLang's default ({found.why})"
    pairs: list[tuple[str, ArgValue | None]] = []
    for flag, value in flags:
        target = _host_spelling(flag, catalog, depth)
        if target is None:
            return None
        info = catalog.flag(target)
        if info is not None and info.kind == "bool" and value.lower() in ON_WORDS:
            # A switch turned on is written bare: argparse takes no "true" after it.
            pairs.append((catalog.canonical(target), True))
            continue
        pairs.append((catalog.canonical(target), _valid_choice(target, value, catalog)))
    return tuple(pairs), f"a {engines} flag; {found.why}"


def _host_spelling(flag: str, catalog: Catalog, depth: int) -> str | None:
    """``flag`` as the host's parser has it: itself, else what SGLang's renames make of it
    (a replacement or a foreign reading that names a flag of another release)."""
    if catalog.knows(flag):
        return flag
    through = _resolve(flag, catalog, depth + 1) if depth < 5 else None
    return through[0][0][0] if through and through[0] else None


def _silent_successor(name: str, catalog: Catalog, depth: int = 0) -> tuple[str, str] | None:
    """The flag a release renamed ``name`` to without a deprecation message, as the host
    spells it, and the release: the one flag that first appeared in the release right after
    ``name`` was last seen, whose words are ``name``'s with one or more taken away or added
    (kt-amx-method -> kt-method, max-micro-batch-size -> pp-max-micro-batch-size) or one
    replaced; the host's own such flag first, else one a later release renamed again (read
    on to the host's name). None otherwise."""
    releases = list(catalog.history.releases)
    last = catalog.history.seen[name][1]
    after = releases.index(last) + 1 if last in releases else len(releases)
    if after >= len(releases):
        return None
    words = _words(name)
    renamed = [
        flag
        for flag, (first, _) in catalog.history.seen.items()
        if first == releases[after] and _renamed_words(_words(flag), words)
    ]
    known = {catalog.canonical(flag) for flag in renamed if catalog.knows(flag)}
    if known:
        return (known.pop(), releases[after]) if len(known) == 1 else None
    if len(renamed) != 1 or depth >= 5:
        return None
    onward = _host_spelling(renamed[0], catalog, depth)
    return (onward, releases[after]) if onward is not None else None


def _past_prefix_reading(name: str, catalog: Catalog, depth: int) -> Reading | None:
    """A prefix the host's parser has no flag for, that every past release whose parser had
    a flag beginning with it read as the same one flag (argparse's abbreviation there): that
    flag, read on to the host's release; None where a release read it as several, or
    releases as different flags (--enable-deepep: -moe in 0.4, -waterfill in 0.5.15)."""
    history = catalog.history
    read = {tuple(history.alive_in(index, prefix=name)) for index in range(len(history.releases))} - {()}
    if len(read) != 1 or len(flags := next(iter(read))) != 1:
        return None  # several flags in one release, or another flag in another: no reading
    through = _resolve(flags[0], catalog, depth + 1)
    if through is None or not through[0]:
        return None
    return through[0], f"a prefix past releases read as --{flags[0]}: {through[1]}"


# Words that say what kind of knob a flag is, not what it is about.
_KIND_WORDS = frozenset({"enable", "disable", "use", "no", "force", "allow", "skip", "max", "min", "num", "size"})


def _words(flag: str) -> list[str]:
    """A flag's words, each singular (tokens: token)."""
    return [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in flag.split("-")]


def _renamed_words(a: list[str], b: list[str]) -> bool:
    """One flag's words are the other's with words taken away or added, or with one word
    replaced in its place among words that say what the flag is about
    (schedule-heuristic: schedule-policy; not enable-x: enable-y)."""
    if _one_side_more(set(a), set(b)):
        return True
    if len(a) != len(b) or len(a) < 2:
        return False
    kept = [x for x, y in zip(a, b, strict=True) if x == y]
    replaced = {x for x, y in zip(a, b, strict=True) if x != y} | {y for x, y in zip(a, b, strict=True) if x != y}
    # (enable-x for disable-x is the opposite switch, no rename)
    return len(kept) == len(a) - 1 and any(w not in _KIND_WORDS for w in kept) and not replaced <= _KIND_WORDS


def _one_side_more(a: set[str], b: set[str]) -> bool:
    """One set of words is the other with words taken away or added."""
    return a < b or b < a


def in_host_release(move: Move, candidate: Candidate, catalog: Catalog) -> Move | None:
    """``move`` with each flag it sets that the host's parser does not have (a flag of an
    older or newer release) spelled as its replacement in the host's release, from the
    flag history; None when the host has nothing for one of them. A flag the candidate
    itself carries is the rename's business, not this."""
    if not catalog.flags or all(_in_host(e, candidate, catalog) for e in move.edits):
        return move
    edits: list[Edit] = []
    for edit in move.edits:
        if _in_host(edit, candidate, catalog):
            edits.append(edit)
            continue
        found = _resolve(normal_form(edit.target), catalog)
        if found is None or not found[0] or not found[1].startswith("renamed"):
            return None
        for flag, value in found[0]:
            given = edit.value if value is None or str(value).startswith(_FROM) else value
            edits.append(Edit(EditOp.SET, flag, given))
    return Move(tuple(edits), inferred=move.inferred, origin=move.origin)


def _in_host(edit: Edit, candidate: Candidate, catalog: Catalog) -> bool:
    return edit.op is not EditOp.SET or catalog.knows(edit.target) or candidate.has(edit.target)


# A value read from another flag of the candidate when the move is made concrete.
_FROM = "\x00from:"
# The user's value goes into this key of the flag's JSON object (the flag itself keeps
# what else it holds).
_INTO = "\x00into:"


# Choices that switch a feature off, whatever a parser calls them.
OFF_WORDS = frozenset({"none", "null", "off", "disable", "disabled", "false", "no", "0", ""})
# The words that turn a switch on (given to a switch, argparse leaves one over:
# "unrecognized arguments: true").
ON_WORDS = frozenset({"true", "1", "yes", "on", "y", "t", "enable", "enabled"})


def _valid_choice(flag: str, value: str, catalog: Catalog) -> str:
    """The value, or the parser's nearest choice when the history's text misspelt it; a
    value the host's parser no longer offers (a later release removed it) is the first
    choice that keeps the feature as the value had it, on or off."""
    info = catalog.flag(flag)
    choices = [str(c) for c in (info.choices if info else ())]
    if not choices or value in choices:
        return value
    close = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
    if close:
        return close[0]
    same = same_state(value, choices)
    return same[0] if same else value


def same_state(value: str, choices: Sequence[str]) -> list[str]:
    """The choices that leave a feature as ``value`` does: off words for an off word,
    the others for any other value."""
    off = value.lower() in OFF_WORDS
    return [c for c in choices if (c.lower() in OFF_WORDS) == off]


def _prefix_owner(spelling: str, catalog: Catalog) -> str | None:
    """The one flag of the host's argparse reads ``spelling`` as: every spelling the parser
    has that starts with it belongs to that flag (``mem-frac`` is ``mem-fraction-static``);
    None when it is a flag's own spelling, or starts none or several."""
    if not catalog.flags or catalog.knows(spelling) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", spelling):
        return None
    owners = {catalog.canonical(k) for k in _known(catalog) if k.startswith(spelling)}
    return owners.pop() if len(owners) == 1 else None


def _spelled_out_only(spelling: str, found: Meaning, catalog: Catalog) -> bool:
    """The reading of ``spelling`` is the flag argparse takes it for, value unchanged: the
    rename launches the same server (not so for a prefix argparse takes for a switch that
    refuses the word given, or a name a line break split)."""
    if found.dropped or len(found.flags) != 1 or found.flags[0][1] is not None:
        return False
    owner = _prefix_owner(spelling, catalog)
    return owner is not None and catalog.canonical(found.flags[0][0]) == owner


def _named_in(spelling: str, text: str) -> bool:
    return re.search(rf"--{re.escape(spelling)}(?![\w-])", text) is not None


def rename_edits(
    candidate: Candidate,
    catalog: Catalog,
    resolved: Mapping[str, object] | None = None,
    *,
    offline: bool = False,
    refusal: str | None = None,
) -> list[Edit]:
    """Edits that spell every unknown flag of the candidate as the parser knows it.

    ``offline``: the candidate is only what an error message showed, so a value the
    replacement takes from another flag (ep-size = tp-size) is not known and not set.
    ``refusal``: the parser's error; a prefix it took for one flag is spelled out only when
    that error names it (spelling it out otherwise launches the same server, one attempt
    later)."""
    edits: list[Edit] = []
    taken = frozenset(catalog.canonical(s) for s, _ in candidate.args if catalog.knows(s))
    for spelling in unknown_flags(candidate, catalog):
        older = older_switch(spelling, candidate.arg(spelling), catalog)
        if older is not None:
            edits.extend((Edit(EditOp.RENAME, spelling, older), Edit(EditOp.SET, older, True)))
            continue
        user_value = candidate.arg(spelling)
        found = meaning(spelling, catalog, user_value, taken)
        if found is None:
            continue
        if refusal is not None and _spelled_out_only(spelling, found, catalog) and not _named_in(spelling, refusal):
            continue
        if found.dropped:
            edits.append(Edit(EditOp.DROP, spelling))
            continue
        into = _into_key(found)
        if into is not None:
            edits.extend((Edit(EditOp.DROP, spelling), Edit(EditOp.SET_KEY, into[0], user_value, key=into[1])))
            continue
        for i, (flag, value) in enumerate(found.flags):
            if offline and isinstance(value, str) and value.startswith(_FROM):
                if i == 0:
                    edits.append(Edit(EditOp.RENAME, spelling, flag))
                continue
            concrete = _concrete(
                flag, value, user_value if i == len(found.flags) - 1 else True, candidate, catalog, resolved
            )
            if i == 0:
                if catalog.canonical(flag) in taken and _said_already(spelling, flag, candidate, catalog):
                    # The user gave the replacement a value of their own (--attention-backend
                    # torch_native beside the old --disable-flashinfer): that is said already.
                    edits.append(Edit(EditOp.DROP, spelling))
                    continue
                if len(found.flags) == 1 and concrete == user_value and _carried_nowhere(flag, user_value, catalog):
                    # A value the new flag's choices do not hold and none of them is meant by
                    # (its values were renamed too): left out now, not refused, then dropped.
                    edits.append(Edit(EditOp.DROP, spelling))
                    continue
                edits.append(Edit(EditOp.RENAME, spelling, flag))
                # No value to give (a bare flag renamed to one with no default): the
                # renamed flag keeps what the user wrote rather than being dropped again.
                if concrete is not None and concrete != user_value:
                    edits.append(_set(flag, concrete))
                elif (chosen := _choice_carried(flag, user_value, candidate, catalog)) is not None:
                    edits.append(_set(flag, chosen))
            elif not candidate.has(flag):
                edits.append(_set(flag, concrete))
    return edits


def _said_already(old: str, flag: str, candidate: Candidate, catalog: Catalog) -> bool:
    """The user's own value of ``flag`` says what the old switch ``old`` did: a switch that
    turned something off (--disable-flashinfer) beside a value that is not that thing
    (torch_native). A switch that turned a choice on (--enable-flashmla) chose over the
    user's value in its release, so the rename sets its choice."""
    name = normal_form(old)
    turned_off = next((name[len(p) :] for p in ("disable-", "no-") if name.startswith(p)), None)
    target = catalog.canonical(flag)
    held = next((v for s, v in candidate.args if catalog.knows(s) and catalog.canonical(s) == target), None)
    if turned_off is None or not isinstance(held, str):
        return False
    return not any(word in held.lower() for word in turned_off.split("-") if len(word) > 3)


def _carried_nowhere(flag: str, value: ArgValue | None, catalog: Catalog) -> bool:
    """A word given to a flag whose choices neither hold it nor have one it means."""
    info = catalog.flag(flag)
    choices = [str(c) for c in info.choices] if info is not None else []
    if not isinstance(value, str) or not choices or value in choices or catalog.called(flag, value) in choices:
        return False
    return not meant_choices(value, choices, [str(v) for v in catalog.domain(flag)], "")


def _choice_carried(flag: str, value: ArgValue | None, candidate: Candidate, catalog: Catalog) -> str | None:
    """The choice of ``flag`` that a value carried over to it meant, when its choices do
    not hold the value: what the parser's refusal of it would lead to, one attempt early."""
    info = catalog.flag(flag)
    choices = [str(c) for c in info.choices] if info is not None else []
    if not isinstance(value, str) or not choices or value in choices:
        return None
    called = catalog.called(flag, value)
    if called in choices:
        return called
    path = candidate.arg("model-path") if candidate.has("model-path") else None
    preferred = [str(v) for v in catalog.domain(flag)]
    meant = meant_choices(value, choices, preferred, path if isinstance(path, str) else "")
    return meant[0] if meant else None


def _into_key(found: Meaning) -> tuple[str, str] | None:
    """(flag, key) when the spelling is one key of a JSON-object flag."""
    flag, value = found.flags[0]
    if isinstance(value, str) and value.startswith(_INTO):
        return flag, value[len(_INTO) :]
    return None


def older_switch(spelling: str, value: ArgValue | None, catalog: Catalog) -> str | None:
    """The switch of the host's (older) release that a later release replaced by this flag
    and value (--enable-triton-kernel-moe became --moe-runner-backend triton_kernel): the
    flag history read backwards. None when the host has no such switch."""
    if not isinstance(value, str):
        return None
    name = normal_form(spelling)
    for old, replacement in catalog.history.replacements.items():
        info = catalog.flag(old)
        if (
            replacement.flag == name
            and replacement.value is not None
            and str(replacement.value).lower() == value.strip().lower()
            and catalog.knows(old)
            and (info is None or info.kind == "bool")
        ):
            return catalog.canonical(old)
    return None


def _set(flag: str, value: ArgValue | None) -> Edit:
    return Edit(EditOp.DROP, flag) if value is None else Edit(EditOp.SET, flag, value)


def _concrete(
    flag: str,
    value: ArgValue | None,
    user_value: ArgValue | None,
    candidate: Candidate,
    catalog: Catalog,
    resolved: Mapping[str, object] | None,
) -> ArgValue | None:
    """The value the renamed flag takes: the replacement's, another flag's, or the user's
    (a bare flag renamed to a flag that wants a value takes its parser default)."""
    info = catalog.flag(flag)
    takes_value = info is None or info.kind in ("value", "list")
    if isinstance(value, str) and value.startswith(_FROM):
        source = value[len(_FROM) :]
        spelled = next((s for s in catalog.spellings(source) if candidate.has(s)), None)
        got: object = candidate.arg(spelled) if spelled else (resolved or {}).get(source.replace("-", "_"))
        if got is None:
            default = catalog.flag(source)
            got = default.default if default else None
        return normalize_value(got)
    if value is not None:
        return value
    if takes_value and user_value is True:
        return normalize_value(info.default) if info is not None else None
    if not takes_value and user_value is not True:
        return True
    return user_value


def rename_move(
    candidate: Candidate,
    catalog: Catalog,
    resolved: Mapping[str, object] | None = None,
    *,
    offline: bool = False,
    refusal: str | None = None,
) -> Move | None:
    """All of the candidate's unknown flags renamed in one move (None: nothing to rename);
    ``refusal``: the parser's error (rename_edits)."""
    edits = rename_edits(candidate, catalog, resolved, offline=offline, refusal=refusal)
    return Move(tuple(edits), inferred=True, origin="rename") if edits else None


def base_warnings(candidate: Candidate, catalog: Catalog, version: str = "") -> list[str]:
    """One line per flag of the base that the host's parser does not know, with what it
    means there: said when the base is loaded, before anything runs."""
    where = f"SGLang {version}" if version else "the target's parser"
    out: list[str] = []
    for spelling in unknown_flags(candidate, catalog):
        found = meaning(spelling, catalog, candidate.arg(spelling))
        shown = spelling if spelling.startswith("-") else f"--{spelling}"
        if found is None:
            out.append(f"{shown} is not a flag of {where}, and no flag of it is near")
        elif found.dropped:
            out.append(f"{shown} is not a flag of {where}: {found.why}")
        elif found.why.startswith("the full name of the flag the prefix") and catalog.knows(found.flags[0][0]):
            # argparse may still take a unique prefix; say what it stands for anyway.
            out.append(f"{shown} is not a flag of {where}: it stands for --{found.flags[0][0]}")
        else:
            out.append(f"{shown} is not a flag of {where}: did you mean {found.words().split(' is ', 1)[1]}?")
    return out


_UNRECOGNIZED = re.compile(r"unrecognized arguments: (?P<rest>.*)")
_AMBIGUOUS = re.compile(r"ambiguous option: (?P<flag>--?[^\s=]+)")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def ambiguous_flags(text: str) -> list[str]:
    """The flags argparse found ambiguous, as typed (their values it does not show)."""
    return [found.group("flag").lstrip("-") for found in _AMBIGUOUS.finditer(text)]


def refused_flags(text: str) -> dict[str, ArgValue]:
    """The flags argparse's error names as the user typed them, with their values
    (``unrecognized arguments: - -trust-remote-code -page-size 16``, ``ambiguous option:
    --cuda-graph-bs could match …``): what a rename works on when the command is not at
    hand (``autofix classify`` of a pasted log)."""
    out: dict[str, ArgValue] = {}
    for found in _AMBIGUOUS.finditer(text):
        out[found.group("flag").lstrip("-")] = True
    for found in _UNRECOGNIZED.finditer(text):
        tokens = [typed_as_flag(t) or t for t in found.group("rest").split()]
        i = 0
        while i < len(tokens):
            token = tokens[i]
            i += 1
            if token == "-" and i < len(tokens) and tokens[i].startswith("-"):
                name = f"- {tokens[i]}"  # the two dashes split by a space
                i += 1
            elif token.startswith("-") and not _NUMBER.match(token):
                name = token[2:] if token.startswith("--") else token
            else:
                continue  # a value of a flag argparse took
            values: list[str] = []
            while i < len(tokens) and (not tokens[i].startswith("-") or _NUMBER.match(tokens[i])):
                values.append(tokens[i])
                i += 1
            value: ArgValue = True if not values else values[0] if len(values) == 1 else tuple(values)
            if "=" in name and not name.startswith("-"):
                name, value = name.split("=", 1)
            out[name] = value
    return out


def reported(moves: Sequence[Move]) -> list[str]:
    """Renames in the user's words (for what a winner gave up or changed)."""
    lines: list[str] = []
    for move in moves:
        for edit in move.edits:
            if edit.op is EditOp.RENAME:
                lines.append(f"--{str(edit.target).lstrip('-')} written as --{edit.value}")
    return lines
