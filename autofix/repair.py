"""(Candidate, Diagnosis) -> child candidates: curated moves first, then inferred ones. Pure.

Curated moves come from the failure class in the catalogue. Inferred moves are read off
the failure itself, for failures nobody catalogued: flags and values the message names
(``requires --speculative-eagle-topk=1``, ``incompatible with --x``), argparse's own
error (``invalid choice: 'fp8' (choose from …)`` -> the closest valid choice), and the
fields the failing assert compares (``cfg.speculative_eagle_topk is None`` -> drop it).
Pinned flags (the user's intent) are never touched.
"""

from __future__ import annotations

import ast
import itertools
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .catalog import Catalog, Component, EditSpec, FailureClass, FlagInfo, MoveSpec, ValueSpec, typed_as_flag
from .choices import LOG_LEVEL_WORDS, MODE_WORDS, closest_choices, evidently_meant, near_choice
from .classify import AVOIDED_BY, MATCH_LINE, Diagnosis, Subject, caller_frames
from .features import is_on, off_by_words, on_by_words, switched_off
from .meant import DEFAULT_WORDS, as_meant, as_number, bound_of_sweep, number_type, plain_size, without_thousands
from .model import (
    SPELLED_ORIGIN,
    ArgValue,
    Candidate,
    Edit,
    EditOp,
    Frame,
    KeyValue,
    Move,
    json_object,
    normalize_value,
)
from .optional import TurnedOn, without_optional
from .renames import OFF_WORDS, ON_WORDS, ambiguous_flags, arg_text, in_host_release, refused_flags, rename_move
from .search import counted_over_nodes, more_gpus
from .source import (
    PRODUCT,
    UNKNOWN,
    Conjunction,
    CountOf,
    FieldRef,
    Requirement,
    alternatives,
    evaluate,
    failing_site,
    requirements_naming,
)
from .tracebacks import BLAMES_OPTION


@dataclass(frozen=True)
class Proposal:
    move: Move
    child: Candidate
    rank: int
    # The move orphans or gives up a primary choice the message does not name: the search
    # costs it more than any move that keeps them (not only ranks it after its siblings).
    gives_up: bool = False


class Flags:
    """Flag-name helper bound to one candidate: aliases, field names, pinned flags."""

    def __init__(
        self,
        candidate: Candidate,
        catalog: Catalog,
        pinned: Iterable[str] = (),
        *,
        assume_present: bool = False,
        resolved: Mapping[str, object] | None = None,
    ) -> None:
        self.candidate = candidate
        self.catalog = catalog
        self.pinned = {catalog.canonical(p) for p in pinned}
        # What SGLang resolved for this candidate (fields it derived from other flags).
        self.resolved: Mapping[str, object] = resolved or {}
        # Offline classification has no candidate: treat every named flag as set.
        self.assume_present = assume_present

    def spelling(self, flag: str) -> str | None:
        """How the candidate writes this flag (``tp`` for ``tp-size``), None if absent."""
        for name in self.catalog.spellings(flag):
            if self.candidate.has(name):
                return name
        return flag if self.assume_present else None

    def known(self, flag: str) -> bool:
        """Whether the candidate itself sets this flag (its value is known): offline, a flag
        is assumed set but its value is not, so a failed check cannot be found to hold."""
        return any(self.candidate.has(name) for name in self.catalog.spellings(flag))

    def required(self, flag: str) -> bool:
        """Whether a flag the message says is required can be the one to turn on: unset in
        the candidate, or (offline) not known to be set. A message asking for --x says x is
        not set, whatever offline assumes of the flags it names."""
        return self.spelling(flag) is None or (self.assume_present and not self.known(flag))

    def target(self, flag: str) -> str:
        """The spelling to edit: the candidate's own, else the flag as given."""
        return self.spelling(flag) or flag

    def value(self, flag: str, resolved: Mapping[str, object]) -> object:
        flag, dot, key = flag.partition(".")
        spelling = self.spelling(flag)
        if dot:  # a key inside a JSON-valued flag: the candidate's, else what resolved
            found = self.candidate.json_key(spelling, key) if spelling is not None else None
            return found if found is not None else resolved.get(f"{field_name(self.catalog.canonical(flag))}.{key}")
        if spelling is not None:
            return self.candidate.arg(spelling)
        return resolved.get(field_name(self.catalog.canonical(flag)))

    def is_pinned(self, flag: str, key: str | None = None) -> bool:
        """Pinned flags never change; inside a JSON-valued flag, ``flag.key`` pins one key."""
        if key is not None and f"{self.catalog.canonical(flag)}.{key}" in self.pinned:
            return True
        return self.catalog.canonical(flag) in self.pinned or self.is_host_fact(flag)

    def is_host_fact(self, flag: str) -> bool:
        return self.catalog.canonical(flag) in self.catalog.host_facts


def field_name(flag: str) -> str:
    return flag.replace("-", "_")


def flag_name(field: str) -> str:
    return field.replace("_", "-")


# --- applying ------------------------------------------------------------------------------


def apply(candidate: Candidate, move: Move) -> Candidate:
    out = candidate
    for edit in move.edits:
        if edit.op is EditOp.RENAME:
            out = out.renamed(edit.target, str(edit.value))
        elif edit.op is EditOp.DROP:
            out = out.without_arg(edit.target)
        elif edit.op in (EditOp.SET, EditOp.SCALE):
            value = normalize_value(edit.value)
            out = out.with_arg(edit.target, value) if value is not None else out.without_arg(edit.target)
        elif edit.op is EditOp.SET_ENV:
            out = out.with_env(edit.target, str(edit.value))
        elif edit.op is EditOp.UNSET_ENV:
            out = out.without_env(edit.target)
        elif edit.op is EditOp.SET_KEY and edit.key is not None:
            out = out.with_key(edit.target, edit.key, _key_value(edit.value))
        elif edit.op is EditOp.DROP_KEY and edit.key is not None:
            out = out.without_key(edit.target, edit.key)
    return out


def _key_value(value: object) -> KeyValue:
    """What a set_key move writes: JSON scalars as they are, a tuple as a JSON list; a
    number in text as a number (a value taken from a message), other text as text."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, tuple | list):
        return [_key_value(v) for v in value]
    text = str(value)
    try:
        number = float(text)
    except ValueError:
        return {"true": True, "false": False}.get(text.lower(), text)
    return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number


def propose(
    candidate: Candidate,
    diagnosis: Diagnosis,
    catalog: Catalog,
    *,
    pinned: Iterable[str] = (),
    resolved: Mapping[str, object] | None = None,
    source: str | None = None,
    extra: Sequence[Move] = (),
) -> list[Proposal]:
    """Every child worth trying, best first: curated, then inferred (``extra`` last).

    ``source`` is the text of the failing frame's file as installed on the host; with it
    the whole failing statement and its enclosing ``if`` tests are read, not just the
    line the traceback shows.
    """
    resolved = resolved or {}
    flags = Flags(candidate, catalog, pinned, resolved=resolved)
    # The log's own advice for this failure first: it knows its server.
    moves: list[Move] = advice_moves(diagnosis.subject.advice, flags)
    # A name the code does not know that evidently means one it does (EAGLE-3): that one,
    # before what a class proposes for names it cannot read.
    moves.extend(unknown_name_meant(diagnosis.subject.said or "", flags))
    cls = diagnosis.failure_class
    failure_text = f"{diagnosis.subject.exception}: {diagnosis.subject.said or ''}"
    if diagnosis.failure.gate.on_gpus:
        # A crash that names the user's own choice: that pick is the suspect, before the
        # general moves of its kind of failure (its class) and what is read off the text.
        moves.extend(_chosen_value_named(failure_text, flags))
        # A switch the user turned on that the failure writes out (--enable-x): the suspect
        # it names, before the parts the process died in.
        moves.extend(_switch_written_out(failure_text, flags))
    if cls is not None:
        curated = _class_moves(cls, diagnosis, flags, resolved, tuning=cls.suspects_tuning)
        moves.extend(curated)
        if curated:
            # A class with a move for this candidate is the operator's answer: the failing
            # file is read only where none of its moves applies (its backend is not set).
            source = None
    renamed = (
        rename_move(candidate, catalog, resolved, refusal=_parser_text(diagnosis.subject))
        if _parser_refused(diagnosis.subject)
        else None
    )
    refused = _refused_together(diagnosis.subject, candidate)
    if renamed is not None:
        renamed = _answering_all(renamed, candidate, refused)
    moves.extend(infer(diagnosis.subject, flags, resolved, source, running=diagnosis.failure.gate.on_gpus))
    moves.extend(extra)
    if not moves and renamed is None and (cls is None or cls.moves):
        # Nothing read anything: the flags the message's words point at, a last resort
        # (not for a class that says no flag fixes its failure: a damaged checkpoint).
        # The user's own flags the report blames ("--x is unsupported in ..."), first.
        moves.extend(blamed_by_report(diagnosis.subject.blaming, flags))
        moves.extend(_chosen_choice_refused(diagnosis.subject.said or "", flags))
        moves.extend(_related_by_words(failure_text, flags))
    # A variable the message says to set to a value (a switch: "Set X=1 to use the Triton
    # path"): one way among the message's others, after them and the last resort (round 46g).
    moves.extend(_env_switches(diagnosis.subject.said or "", flags))
    if diagnosis.failure.gate.on_gpus and cls is None:
        # A running server's failure no class names: relaunch without each optional
        # feature the user turned on, after everything read off the failure.
        moves.extend(without_optional(_failure_and_frames(diagnosis.subject), _optional_turned_on(flags)))

    children: list[tuple[int, Move, Candidate]] = []
    seen: set[str] = {candidate.key}
    # A child that launches the server the candidate launched (a flag dropped that held its
    # default) is a wasted launch that can only fail the same way. (Two children that launch
    # one server under two spellings both stay: the search weighs a value set and a flag
    # taken away differently, and which spelling comes first decides the line it follows.)
    own = same_launch(candidate, catalog).key

    def consider(found: Move) -> None:
        # A move written for another release's flags (a class's, the log's own advice) is
        # made in the host's; one the host has nothing for is no move.
        move = in_host_release(found, candidate, catalog)
        if move is None:
            return
        move = _groups_with_switch(move, flags)
        if source:
            move = with_requirements(move, candidate, source, flags)
        # A rename keeps the user's value under the parser's name: never a pinned-flag edit;
        # nor is keeping the first of the values a pinned flag was given.
        if any(_edits_pin(e, candidate, flags) for e in move.edits):
            return
        child = apply(candidate, move)
        if child.key in seen or any(child.has(flag) for flag in refused) or same_launch(child, catalog).key == own:
            return
        tier = _tier(move, candidate, child, catalog, diagnosis.subject.said or "")
        if tier == GIVES_UP_TIER and move.origin == WORDS_ORIGIN and diagnosis.failure.gate.on_gpus:
            # A running server's failure that only mentions a primary choice (a title's
            # "tp-4 start timeout") does not refuse it, as a parser or validator would.
            return
        seen.add(child.key)
        children.append((tier, move, child))

    for found in ([renamed] if renamed else []) + moves:
        consider(found)
    if children and all(_changes_role(candidate, c, catalog) for _, _, c in children):
        # Every move read off the failure changes the role the user set (the message names
        # the one a feature needs): the flags the message's words point at come in, so a
        # feature it names ("DWDP requires ...") can go before the role.
        for found in _related_by_words(failure_text, flags):
            consider(found)
    if not any(move.origin == FOLD_ORIGIN for _, move, _ in children):
        # Leaving GPUs idle is a cost only beside a fold that keeps them all (a size the
        # message refuses may count replicas the user never meant: dp beside attention DP).
        children = [(KEEPS_TIER if t == FEWER_GPUS_TIER else t, m, c) for t, m, c in children]
    # Renames first (nothing else is read until the parser takes the argv), a move that
    # orphans what the user asked for last; otherwise in the order found.
    children.sort(key=lambda t: t[0])
    return [Proposal(move, child, i, tier == GIVES_UP_TIER) for i, (tier, move, child) in enumerate(children)]


def blamed_by_report(lines: Sequence[str], flags: Flags) -> list[Move]:
    """A move per flag the user set that ``lines`` blame for the failure, in their order:
    relaunch without it (back to the parser's default)."""
    out: list[Move] = []
    for line in lines:
        for found in BLAMES_OPTION.finditer(line):
            for named in _TYPED_FLAG.finditer(found.group("named") or found.group("named_after")):
                spelling = flags.spelling(flags.catalog.canonical(named.group(1)))
                if spelling is None or not flags.candidate.has(spelling) or flags.is_pinned(spelling):
                    continue
                move = _inferred([Edit(EditOp.DROP, spelling)], REPORT_ORIGIN)
                if move not in out:
                    out.append(move)
    return out


def _env_switches(message: str, flags: Flags) -> list[Move]:
    from .wording import env_the_message_sets  # it builds on this module's helpers

    return env_the_message_sets(message, flags, bounds=False)


def propose_outward(
    candidate: Candidate,
    diagnosis: Diagnosis,
    catalog: Catalog,
    source_of: Callable[[Frame], str | None],
    *,
    pinned: Iterable[str] = (),
    resolved: Mapping[str, object] | None = None,
) -> list[Proposal]:
    """What ``propose`` finds with the failing frame's file (``source_of`` reads a frame's
    file on the host); when that is nothing, the same read at each caller in the target's
    code in turn (a probe that raised inside a helper: the validator's branch that called
    it names the choice that led there)."""
    frame = diagnosis.subject.frame
    found = propose(
        candidate, diagnosis, catalog, pinned=pinned, resolved=resolved, source=source_of(frame) if frame else None
    )
    for caller in caller_frames(diagnosis.subject) if not found else ():
        outer = replace(diagnosis, subject=replace(diagnosis.subject, frame=caller))
        found = propose(candidate, outer, catalog, pinned=pinned, resolved=resolved, source=source_of(caller))
        if found:
            break
    return found


def _groups_with_switch(move: Move, flags: Flags) -> Move:
    """A move that turns off a switch under which a size splits the GPUs (``gpu_shares``:
    DP attention's dp-size) also drops that size, when the user set it above 1 and the move
    leaves it alone: its groups lived inside TP, and would count replicas without it."""
    extra: list[Edit] = []
    for size, switch in flags.catalog.gpu_shares.items():
        on, sized = flags.spelling(switch), flags.spelling(size)
        if on is None or sized is None or (as_number(flags.candidate.arg(sized)) or 0) <= 1:
            continue
        if any(e.target == sized for e in move.edits):
            continue
        if any(e.target == on and (e.op is EditOp.DROP or not is_on(e.value)) for e in move.edits):
            extra.append(Edit(EditOp.DROP, sized))
    return replace(move, edits=move.edits + tuple(extra)) if extra else move


def same_launch(candidate: Candidate, catalog: Catalog) -> Candidate:
    """The candidate without the flags that hold their parser default: the same server,
    written the shortest way (argparse gives those flags that value either way)."""
    out = candidate
    for name, value in candidate.args:
        if catalog.holds_default(name, value):
            out = out.without_arg(name)
    return out


def _failure_and_frames(subject: Subject) -> str:
    """The failure's text with where it ran: its frames' files and lines."""
    tb = subject.traceback or subject.cut
    frames = tb.frames if tb is not None else ()
    return "\n".join([f"{subject.exception}: {subject.said or ''}", *(f"{f.file} {f.source or ''}" for f in frames)])


def _optional_turned_on(flags: Flags) -> list[TurnedOn]:
    """The flags the user set that turn on an optional feature (a switch on) or pick an
    implementation other than the parser's default (catalogue ``optional``), in order."""
    out: list[TurnedOn] = []
    for spelling, value in flags.candidate.args:
        name = flags.catalog.canonical(spelling)
        if flags.is_pinned(spelling) or flags.is_host_fact(name):
            continue
        if not any(p.search(name) for p in flags.catalog.optional):
            continue
        info = flags.catalog.flags.get(name)
        switch = info.kind == "bool" if info is not None else name.startswith("enable-")
        if switch and not is_on(value):
            continue
        if flags.catalog.holds_default(name, value):
            continue
        out.append(TurnedOn(name, spelling, arg_text(value), _portable_beside(name, arg_text(value), info, flags)))
    return out


def _portable_beside(name: str, value: str, info: FlagInfo | None, flags: Flags) -> str | None:
    """The flag's choice that runs on every GPU (catalogue ``portable``), when the parser
    offers it and the user picked another."""
    portable = flags.catalog.portable.get(name)
    if portable is None or info is None or portable == value:
        return None
    return portable if portable in map(str, info.choices) else None


def _flag_views(flags: Flags) -> dict[str, tuple[str, object | None, tuple[object, ...]]]:
    """Every flag the user may change, as features.FlagViews: its spelling, its value in
    the candidate (None when unset) and the parser's choices."""
    out: dict[str, tuple[str, object | None, tuple[object, ...]]] = {}
    for name, info in flags.catalog.flags.items():
        if flags.is_pinned(name):
            continue
        spelling = flags.spelling(name)
        value = flags.candidate.arg(spelling) if spelling is not None and flags.known(name) else None
        out[name] = (spelling or name, value, info.choices)
    return out


def _refused_together(subject: Subject, candidate: Candidate) -> list[str]:
    """The candidate's flags argparse named as unrecognized, as typed. argparse names all
    of them in one line, so a child that keeps any of them fails the same way again."""
    return _unrecognized_flags(_parser_text(subject), candidate)


def _unrecognized_flags(text: str, candidate: Candidate) -> list[str]:
    """The candidate's flags an "unrecognized arguments" line names, as the user typed
    them (underscores and capitals too)."""
    unknown = _UNRECOGNIZED.search(text)
    if unknown is None:
        return []
    named = [*_TYPED_FLAG.findall(unknown.group(1)), *_SHORT_OPTION.findall(unknown.group(1))]
    return [flag for flag in named if candidate.has(flag)]


def _answering_all(move: Move, candidate: Candidate, refused: Sequence[str]) -> Move:
    """A rename move that also drops each refused flag it leaves: no reading says what it
    was, and argparse refuses it, so no child that keeps it parses."""
    child = apply(candidate, move)
    left = tuple(Edit(EditOp.DROP, flag) for flag in refused if child.has(flag))
    return replace(move, edits=move.edits + left) if left else move


def _parser_refused(subject: Subject) -> bool:
    """The target's argument parser refused the argv (argparse's own error)."""
    text = _parser_text(subject)
    return subject.exception in ("argparse_error", "SystemExit") or any(
        w in text for w in ("unrecognized arguments", "ambiguous option", "error: argument")
    )


# The order children are tried in, by what each gives up: a rename nothing; a move that
# fits the host and keeps the user's choices nothing; then one that leaves GPUs the user
# has idle while a fold keeps them (pp 2 dropped where tp 16 keeps all 16), one that gives up a
# primary choice, one that asks for more hardware.
RENAME_TIER, MEANT_NOTHING_TIER, KEEPS_TIER, FEWER_GPUS_TIER, GIVES_UP_TIER, MORE_GPUS_TIER = range(6)
# The origin of the last-resort moves read off a message's words (_related_by_words).
WORDS_ORIGIN = "words"
REPORT_ORIGIN = "report"  # a flag the report blames (blamed_by_report)
# The origin of a move that folds a refused size into another, keeping the GPUs (_folded).
FOLD_ORIGIN = "fold"


def _tier(move: Move, base: Candidate, child: Candidate, catalog: Catalog, message: str) -> int:
    if any(e.op is EditOp.RENAME for e in move.edits):
        return RENAME_TIER
    if all(e.op is EditOp.DROP and _means_nothing(base.arg(e.target), catalog.flag(e.target)) for e in move.edits):
        # The user wrote "none" for a flag that keeps the word as a string: leaving the
        # flag out is what they meant, and gives nothing up.
        return MEANT_NOTHING_TIER
    if orphans(base, child, catalog, message) or gives_up_primary(base, child, catalog, message):
        return GIVES_UP_TIER
    counts, shares = catalog.gpu_count_spellings(), catalog.gpu_share_spellings()
    # A move that asks the operator for hardware (a larger tp, pp, dp, node count) comes
    # after every move that fits the host.
    if more_gpus(base, child, counts, shares):
        return MORE_GPUS_TIER
    return FEWER_GPUS_TIER if more_gpus(child, base, counts, shares) else KEEPS_TIER


def _means_nothing(value: ArgValue | None, info: FlagInfo | None) -> bool:
    """A value that is a word for nothing set ('none', 'null', 'unset') and none of the
    flag's choices, nor spelled otherwise among them (--grammar-backend none is a backend
    of its own)."""
    if not isinstance(value, str) or value.strip().lower() not in _NOTHING_WORDS:
        return False
    # (among choices that spell nothing otherwise, 'unquant' or 'off', it means that one)
    return info is None or _asks_for_default(value, [str(c) for c in info.choices])


# The words for a default that say nothing is set ('auto' and 'default' pick something).
_NOTHING_WORDS = DEFAULT_WORDS - {"auto", "default"}


def value_of(candidate: Candidate, flag: str, catalog: Catalog) -> ArgValue | None:
    """The candidate's value of ``flag`` under whichever of its spellings it uses."""
    return next((candidate.arg(s) for s in catalog.spellings(flag) if candidate.has(s)), None)


def orphans(base: Candidate, child: Candidate, catalog: Catalog, message: str = "") -> bool:
    """Whether ``child`` leaves off an intent flag of ``base`` while what it serves stays
    as the user set it (for ``[]``: at all), and the failure's message did not ask for it."""

    def value(c: Candidate, flag: str) -> ArgValue | None:
        return value_of(c, flag, catalog)

    for flag, serves in catalog.intent.items():
        if value(base, flag) is None or value(child, flag) is not None or f"--{flag}" in message:
            continue
        if not serves or any(value(child, s) is not None and value(child, s) == value(base, s) for s in serves):
            return True
    return False


def gives_up_primary(base: Candidate, child: Candidate, catalog: Catalog, message: str = "") -> bool:
    """Whether ``child`` changes or drops a primary choice the user set (the speculative
    algorithm, quantization, a parallel size …) that the failure's message does not name:
    neither by its flag or field nor, for a word value, by the value the user gave it
    ("… compatible with NGRAM or EAGLE, not STANDALONE")."""
    prose = _FLAG_TOKEN.sub(" ", message)

    def value(c: Candidate, flag: str) -> ArgValue | None:
        return value_of(c, flag, catalog)

    for flag in catalog.primary:
        before = value(base, flag)
        if before is None or value(child, flag) == before:
            continue
        if _over_the_nodes(flag, before, value(child, flag), base, catalog):
            continue  # a size given per node, counted over the nodes: the same GPUs
        if flag in catalog.roles and not _parser_refused_flag(flag, catalog, message):
            return True  # the deployment's shape, kept whatever the message names
        # A drafter that goes with the algorithm it serves is judged with that algorithm.
        if any(value(child, served) != value(base, served) for served in catalog.intent.get(flag, ())):
            continue
        context_only = _context_only(flag, base, catalog, message)
        if context_only and _tied(flag, base, catalog):
            # The message is about another flag; this choice (with the drafter the user
            # chose for it) is only the condition that flag met.
            return True
        if _required_for_feature(flag, before, catalog, message):
            return True  # what a feature requires of it: the feature is the option
        if _message_names(flag, catalog, message) and not context_only:
            continue
        if _names_word(prose, before):
            continue
        # The size a named one folds into (pp into tp) takes its GPUs: no choice given up.
        if any(into == flag and _message_names(size, catalog, message) for size, into in catalog.folds.items()):
            continue
        return True
    return False


def _required_for_feature(flag: str, held: ArgValue, catalog: Catalog, message: str) -> bool:
    """The message states the value a feature requires of ``flag`` ("modelopt_fp4
    quantization is required for Flashinfer MOE") and does not name the user's own value:
    it asks nothing of the user's choice but for that feature."""
    names = "|".join(re.escape(n) for n in {field_name(flag), *catalog.spellings(flag)})
    found = re.search(rf"(?i)(?<![\w-])(?P<value>[\w.-]+) (?:{names}) (?:is|are) required (?:for|by)\b", message)
    if found is None or not isinstance(held, str) or _same_family(found.group("value"), held):
        return False
    return re.search(rf"(?i)(?<![\w-]){re.escape(held)}(?![\w-])", message) is None


MIN_FAMILY_WORD = 3  # shorter words (v2, 1) are shared by unrelated values


def _same_family(one: str, other: str) -> bool:
    """Two values of a choice that share a word, one inside the other's (fp4 in nvfp4, the
    modelopt of modelopt_fp4): another kernel or spelling of the same thing."""
    words = [[w for w in re.split(r"[_-]", v.lower()) if len(w) >= MIN_FAMILY_WORD] for v in (one, other)]
    return any(a in b or b in a for a in words[0] for b in words[1])


def caused_by(move: Move, message: str, catalog: Catalog) -> bool:
    """Whether a failure's message names a flag ``move`` edited: the move made it (a
    dropped backend that another flag requires), it got no further."""
    return any(not e.op.on_env and _message_names(e.target, catalog, message) for e in move.edits)


def _over_the_nodes(
    flag: str, before: ArgValue | None, after: ArgValue | None, base: Candidate, catalog: Catalog
) -> bool:
    """``after`` is ``before``, a size that counts GPUs, times the base's node count: the
    user gave the size per node (TP 8 on two nodes of 8), and the move keeps every node's
    GPUs."""
    nodes = as_number(value_of(base, "nnodes", catalog))
    return flag in catalog.gpu_counts and nodes is not None and counted_over_nodes(before, after, nodes)


def _changes_role(base: Candidate, child: Candidate, catalog: Catalog) -> bool:
    """``child`` changes or drops a role the user set (the disaggregation mode)."""
    return any(
        value_of(base, flag, catalog) is not None and value_of(child, flag, catalog) != value_of(base, flag, catalog)
        for flag in catalog.roles
    )


def _parser_refused_flag(flag: str, catalog: Catalog, message: str) -> bool:
    """argparse refused the value given to ``flag`` (any spelling): mending it is no change
    of what the user chose."""
    return any(re.search(rf"argument --{re.escape(s)}\b[^:]*: invalid", message) for s in catalog.spellings(flag))


_TOLD_TO_CHANGE = re.compile(
    r"(?i)\b(?:drop|remove|unset|set|use|pass|change|lower|raise|reduce|increase|disable|enable)\s+[`'\"]?--[a-z]"
)
_SUBJECT_FLAG = re.compile(r"^\W{0,3}--(?P<flag>[a-z0-9][a-z0-9-]*)")


def _tied(flag: str, base: Candidate, catalog: Catalog) -> bool:
    """Whether the user set a flag that serves this choice (a drafter for its algorithm,
    ``intent``): changing the choice leaves that one mismatched."""
    return any(
        flag in serves and value_of(base, other, catalog) is not None for other, serves in catalog.intent.items()
    )


def _context_only(flag: str, base: Candidate, catalog: Catalog, message: str) -> bool:
    """The message is about another flag the user set (it opens with it: "--x is not
    supported with --disaggregation-mode=decode") that is no primary choice: the primary
    one it names after it is the context the refused option met, not what is refused."""
    subject = _check_subject(message, catalog)
    if subject is None or _required_of(flag, catalog, message):
        return False  # (what the feature requires of the flag: "requires attn_cp_size == 1")
    return subject != flag and value_of(base, subject, catalog) is not None


def _check_subject(message: str, catalog: Catalog) -> str | None:
    """The flag a check opens with and is about ("--x is not supported with ..."), when it
    is no primary choice and the message does not tell what to do with a flag (then it
    names that one as the fix)."""
    found = _SUBJECT_FLAG.match(message.strip())
    if found is None or _TOLD_TO_CHANGE.search(message):
        return None
    subject = catalog.canonical(found.group("flag"))
    return None if subject in catalog.primary else subject


def _required_of(flag: str, catalog: Catalog, message: str) -> bool:
    """The message states a value the flag must hold ("requires attn_cp_size == 1",
    "requires --pp-size to be 1"). A relation to another size ("requires tp_size ==
    attn_dp_size") states no value of its own: either side may move, so it is context."""
    names = [re.escape(f"--{s}") for s in catalog.spellings(flag)] + [re.escape(field_name(flag))]
    relation = r"(?:==|=|!=|<=|>=|<|>|to be|must be|must)"
    constant = r"['\"`]?(?:-?\d|true\b|false\b|none\b|[a-z]+['\"`]?(?![\w.]))"
    return bool(re.search(rf"(?i)\brequires?\s+(?:that\s+)?(?:{'|'.join(names)})\s*{relation}\s*{constant}", message))


def _message_names(flag: str, catalog: Catalog, message: str) -> bool:
    """The message names the flag: any spelling as ``--x`` (or ``x-y`` alone), its field ``x_y``, or the words
    the catalogue says name it in prose ("Pipeline parallelism ...": pp-size)."""
    if any(f"--{s}" in message for s in catalog.spellings(flag)) or field_name(flag) in message:
        return True
    # (a name of several words written with its dashes and without the two in front:
    # "Please set a dp-size > 1")
    if any("-" in s and re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", message) for s in catalog.spellings(flag)):
        return True
    phrases = catalog.words.get(catalog.canonical(flag), ())
    return bool(phrases) and any(p in message.lower() for p in phrases)


_FLAG_TOKEN = re.compile(r"--[a-z0-9][a-z0-9-]*")


def _names_word(text: str, value: ArgValue) -> bool:
    """Whether ``text`` refuses ``value`` by name ("…, not STANDALONE", "got NGRAM", "NGRAM
    is not supported"): a value named only as context ("(prefill side)") is not refused.
    Word values of three letters or more (numbers and short words occur for other reasons)."""
    if not isinstance(value, str) or len(value) < 3 or as_number(value) is not None:
        return False
    word = re.escape(value)
    refused = (
        rf"(?i:\bnot|\bgot|\bbut|\bnor)\s+['\"`]?{word}(?![\w-])"
        rf"|(?<![\w-]){word}['\"`]?\s+(?i:is not|isn't|is unsupported|are not|cannot|can't|is incompatible)"
    )
    return re.search(refused, text) is not None


# --- curated moves: specs -> concrete edits ------------------------------------------------


def realize(
    spec: MoveSpec,
    flags: Flags,
    resolved: Mapping[str, object],
    groups: Mapping[str, str],
    *,
    origin: str,
    suspects_tuning: bool = False,
) -> Move | None:
    """A move spec made concrete for this candidate; None when it cannot apply."""
    if not all(_set_by_command(flag, flags) for flag in spec.when_set):
        return None
    edits: list[Edit] = []
    for edit in spec.edits:
        concrete = _realize_edit(edit, flags, resolved, groups, suspects_tuning)
        if concrete is None:
            return None
        if not flags.assume_present and _is_noop(concrete, flags.candidate):
            continue
        edits.append(concrete)
    return Move(tuple(edits), inferred=False, origin=origin) if edits else None


def _set_by_command(name: str, flags: Flags) -> bool:
    """Whether the candidate itself sets a flag, or (``flag.key``) that key of its JSON."""
    flag, _, key = name.partition(".")
    return flags.known(flag) and (not key or flags.value(name, {}) is not None)


def _realize_edit(
    spec: EditSpec,
    flags: Flags,
    resolved: Mapping[str, object],
    groups: Mapping[str, str],
    suspects_tuning: bool = False,
) -> Edit | None:
    target = spec.target
    if isinstance(target, ValueSpec):
        name = _compute(target, flags, resolved, groups)
        if name is None:
            return None
        target = str(name)
    if spec.op.on_key:
        return _realize_key_edit(spec, target, flags, resolved, groups)
    if spec.op is EditOp.DROP:
        return Edit(EditOp.DROP, flags.target(target))
    if spec.op is EditOp.UNSET_ENV:
        valid = flags.catalog.env_domains.get(target)
        current = flags.candidate.env_value(target)
        if not suspects_tuning and valid is not None and current is not None and valid.match(current):
            return None  # a value the variable accepts: unsetting it cannot be the fix
        return Edit(EditOp.UNSET_ENV, target)
    if spec.op is EditOp.SCALE:
        base = flags.value(target, resolved)
        number = as_number(base)
        if not number:  # nothing to scale (absent, or 0: a size the server then picks itself)
            return None
        factor = float(spec.value)
        return Edit(EditOp.SCALE, flags.target(target), _tidy(round(number * factor, 3)))
    value = spec.value
    if isinstance(value, ValueSpec):
        value = _compute(value, flags, resolved, groups)
        if value is None:
            return None
    if spec.op is EditOp.SET_ENV:
        return Edit(EditOp.SET_ENV, target, str(value))
    normalized = normalize_value(value)
    if normalized is None:
        return Edit(EditOp.DROP, flags.target(target))
    return Edit(EditOp.SET, flags.target(target), normalized)


def _realize_key_edit(
    spec: EditSpec, target: str, flags: Flags, resolved: Mapping[str, object], groups: Mapping[str, str]
) -> Edit | None:
    """set_key / drop_key on ``flag.key``: only where the candidate's flag holds a JSON
    object (or, offline, is assumed to)."""
    flag, _, key = target.partition(".")
    spelling = flags.spelling(flag)
    if spelling is None or (not flags.assume_present and json_object(flags.candidate.arg(spelling)) is None):
        return None
    if spec.op is EditOp.DROP_KEY:
        return Edit(EditOp.DROP_KEY, spelling, key=key)
    value = spec.value
    if isinstance(value, ValueSpec):
        value = _compute(value, flags, resolved, groups)
        if value is None:
            return None
    written = _key_value(value)
    return Edit(EditOp.SET_KEY, spelling, tuple(written) if isinstance(written, list) else written, key=key)


def _compute(spec: ValueSpec, flags: Flags, resolved: Mapping[str, object], groups: Mapping[str, str]) -> Any:
    base: object = None
    if spec.group is not None:
        base = groups.get(spec.group)
    elif spec.source is not None:
        base = flags.value(spec.source, resolved)
        if base is None and (spec.round_up_to or spec.divisor_of) and (info := flags.catalog.flag(spec.source)):
            # Left out and left alone by SGLang (it reports only what it changed): the size
            # the server ran with is the parser's default (tp 1), which the rounding moves.
            base = info.default
    if base is None or base is True:
        base = spec.default
    if base is None:
        return None
    if spec.replace is not None:
        base = str(base).replace(*spec.replace)
    plain = spec.add == 0 and spec.mul == 1 and spec.minimum is None and spec.maximum is None
    if plain and spec.round_up_to is None and spec.divisor_of is None:
        return base
    number = as_number(base)
    if number is None:
        return None
    result = number * spec.mul + spec.add
    if spec.round_up_to is not None:
        step = as_number(flags.value(spec.round_up_to, resolved))
        if not step or step <= 0:
            return None
        result = math.ceil(result / step) * step
    if spec.divisor_of is not None:
        whole = as_number(flags.value(spec.divisor_of, resolved))
        if not whole or whole <= 0 or not float(whole).is_integer():
            return None
        result = max(d for d in range(1, int(whole) + 1) if int(whole) % d == 0 and d <= max(result, 1))
    if spec.minimum is not None:
        result = max(result, float(spec.minimum))
    if spec.maximum is not None:
        result = min(result, float(spec.maximum))
    if spec.round_to is not None:
        result = round(result, spec.round_to)
    return _tidy(result)


def _tidy(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def offline_moves(diagnosis: Diagnosis, catalog: Catalog, source: str | None = None, command: str = "") -> list[Move]:
    """Moves for a failure seen outside a search (``autofix classify``).

    ``command``: the launch command the log shows, if any; its argv is the candidate, and
    the moves are the ones the search would make for it. Without one, computed values that
    need the candidate's flags are left out and every flag the failure names is assumed
    set, so the inferred moves show what would be tried.
    """
    known = _pasted_candidate(command)
    if known is not None:
        proposed = [p.move for p in propose(known, diagnosis, catalog, source=source)]
        if proposed:
            return proposed
    text = _parser_text(diagnosis.subject)
    shown = {f: v for f, v in shown_values(text).items() if catalog.knows(f)}
    for name, value in prose_values(text, catalog).items():
        shown.setdefault(name, value)
    for switch in exclusive_switches(text, catalog):
        shown.setdefault(switch, True)
    shown.update(_lone_value(text, catalog, shown))
    flags = Flags(_built(shown), catalog, assume_present=True)
    moves: list[Move] = []
    if _parser_refused(diagnosis.subject):
        # The flags argparse refused, as typed: renamed as the search would rename them.
        typed = refused_flags(text)
        renamed = rename_move(Candidate.build(typed), catalog, offline=True) if typed else None
        if renamed is not None:
            moves.append(_values_unseen(renamed, ambiguous_flags(text)))
    cls = diagnosis.failure_class
    if cls is not None:
        moves.extend(_class_moves(cls, diagnosis, flags, {}))
    moves.extend(infer(diagnosis.subject, flags, {}, source, running=diagnosis.failure.gate.on_gpus))
    unique: dict[str, Move] = {}
    for move in moves:
        unique.setdefault(move.label(), move)
    # As the search ranks them: a move on a primary choice the message does not name goes
    # after the rest (any such flag is assumed set, as every flag named is).
    message = diagnosis.subject.said or ""
    return sorted(
        unique.values(),
        key=lambda m: _edits_unnamed_primary(m, catalog, message) or _edits_context_choice(m, catalog, message),
    )


# The one value a message shows as refused: "Invalid value: 'x'", "got 'x'".
_REFUSED_VALUE_SHOWN = re.compile(r"(?i)\b(?:invalid value|got)\s*:?\s*['\"](?P<value>[^'\"\n]{1,200})['\"]")


def _lone_value(text: str, catalog: Catalog, shown: Mapping[str, ArgValue]) -> dict[str, ArgValue]:
    """The value a message shows refused, as the value of the one flag it names (by its
    field or --name); nothing when it names several or none, or shows values already."""
    values = _REFUSED_VALUE_SHOWN.findall(text)
    named = {
        catalog.canonical(n.replace("_", "-"))
        for n in _NAME_IN_TEXT.findall(text)
        if catalog.knows(n.replace("_", "-"))
    }
    if shown or len(values) != 1 or len(named) != 1:
        return {}
    return {named.pop(): values[0]}


def _values_unseen(move: Move, unseen: Sequence[str]) -> Move:
    """The rename without a value set for a flag whose value the message did not show
    (argparse's ambiguous option): the value the user gave goes with the rename."""
    renamed_to = {str(e.value) for e in move.edits if e.op is EditOp.RENAME and e.target in unseen}
    kept = tuple(e for e in move.edits if not (e.op is EditOp.SET and e.target in renamed_to))
    return replace(move, edits=kept)


# Values a message shows for a flag: argparse's refused value, a check's "got v", "field=v".
_ARGPARSE_VALUE = re.compile(r"argument --(?P<flag>[a-z0-9][a-z0-9-]*)(?:/[^:]*)?: [^\n]*?value: '(?P<value>[^'\n]*)'")
_GOT_VALUE = re.compile(
    r"--(?P<flag>[a-z0-9][a-z0-9-]*)[^\n,;]{0,80}?,? got (?P<value>\[[^\]\n]*\]|'[^'\n]*'|\"[^\"\n]*\"|[^\s,;]+)"
)
_FIELD_VALUE = re.compile(
    r"(?<![\w.])(?:self\.|server_args\.)?(?P<field>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)=(?P<value>'[^'\n]*'|-?\d+(?:\.\d+)?\b|[A-Za-z_][\w.-]*)"
)


# "Unknown model-config parser 'huggingface'": words right before a quoted value; the
# longest run of them that ends there and spells a flag's whole name (two words or more:
# one word, "quantization 'fp9'", is too often the prose's own) names the value's flag.
_WORDS_THEN_QUOTED = re.compile(
    r"(?<![A-Za-z0-9])(?P<words>[A-Za-z][A-Za-z0-9]*(?:[-_ ][A-Za-z0-9]+){1,6}) "
    r"(?P<quote>['\"])(?P<value>[^'\"\n]{1,80})(?P=quote)"
)


def prose_values(message: str, catalog: Catalog) -> dict[str, ArgValue]:
    """Flag values a message shows after the flag's name written in words, by flag name."""
    out: dict[str, ArgValue] = {}
    for found in _WORDS_THEN_QUOTED.finditer(message):
        words = re.split(r"[-_ ]+", found.group("words").lower())
        for start in range(len(words) - 1):
            name = "-".join(words[start:])
            if name in catalog.flags:
                out.setdefault(name, found.group("value"))
                break
    return out


def shown_values(message: str) -> dict[str, ArgValue]:
    """Flag values a failure message shows (``argument --x: invalid int value: '2.0'``,
    ``--x must be non-negative, got [1, -1]``, ``page_size=64``), by flag name."""
    out: dict[str, ArgValue] = {}
    for found in _ARGPARSE_VALUE.finditer(message):
        out.setdefault(found.group("flag"), found.group("value"))
    for found in _GOT_VALUE.finditer(message):
        out.setdefault(found.group("flag"), _shown(found.group("value").rstrip(".")))
    for found in _FIELD_VALUE.finditer(message):
        out.setdefault(flag_name(found.group("field")), _shown(found.group("value")))
    return out


# "--a and --b are mutually exclusive", "Cannot enable both --a and --b", "Cannot set --a and
# --b together", "--a cannot be combined / used / set together with --b": one sentence that
# says two choices exclude each other (SGLang's wordings), so both are on.
_EXCLUSIVE = re.compile(
    r"(?i:mutually exclusive|cannot (?:enable|use|set|have) both|cannot (?:enable|use|set) [^.;\n]{1,80}? together"
    r"|cannot be (?:combined|used|set|enabled)"
    r"(?: together)?(?: with)?|are incompatible(?: with each other)?)"
)
_SENTENCE = re.compile(r"[^.;\n]+(?:\.(?=\S)[^.;\n]*)*")


# A flag's name in a sentence, with its dashes or without ("enable-hierarchical-cache").
_NAME_IN_TEXT = re.compile(r"(?<![\w-])(?:--)?([a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)")


def _exclusive_dropped(message: str, flags: Flags) -> list[Move]:
    """Flags the user set that a sentence says exclude each other, each dropped in turn: one
    that turns a default off first (dropping it gives back the server's own behaviour; the
    other turns on what the user asked for), else the one named last first (round 29c: a
    symmetric wording singles out neither, and the object's drop goes first)."""
    out: list[Move] = []
    for sentence in _SENTENCE.findall(message):
        if not _EXCLUSIVE.search(sentence):
            continue
        named: list[str] = []
        for name in _NAME_IN_TEXT.findall(sentence):
            flag = flags.catalog.canonical(name.replace("_", "-"))
            if flag in named or flags.catalog.flag(flag) is None or not flags.known(flag) or flags.is_pinned(flag):
                continue
            named.append(flag)
        if len(named) < 2:
            continue
        named.reverse()
        named.sort(key=lambda flag: not _turns_default_off(flag, flags.catalog))
        out += [_inferred([Edit(EditOp.DROP, flags.target(flag))], "exclusive") for flag in named]
    return out


# "X is not supported unless dp attention!", "... cannot be used unless you enable Y."
_UNLESS = re.compile(
    r"(?i)\b(?:not (?:supported|allowed|possible)|cannot be used|can't be used|only works?|fails?)\b"
    r"[^.!;\n]{0,60}?\bunless\s+(?:you\s+)?(?:enable|use|turn on|set)?\s*(?:the\s+)?(?P<phrase>[^.!;\n]{3,60})"
)


def _unless_feature(message: str, flags: Flags) -> list[Move]:
    """The feature a refusal says would make it supported ("... not supported unless dp
    attention"), turned on while it is off."""
    found = _UNLESS.search(message)
    if found is None:
        return []
    phrase = re.sub(r"(?i)\s+(?:is|are)\s+(?:enabled|on|set|used)\s*$", "", found.group("phrase").strip())
    return on_by_words(phrase, _flag_views(flags))


def _turns_default_off(flag: str, catalog: Catalog) -> bool:
    info = catalog.flag(flag)
    return (info is not None and info.kind == "bool_false") or flag.startswith(("disable-", "no-"))


def exclusive_switches(message: str, catalog: Catalog) -> list[str]:
    """The on/off switches a sentence of the message says exclude each other: both are on
    (what an offline reading, with no argv, may assume of them)."""
    out: list[str] = []
    for sentence in _SENTENCE.findall(message):
        if not _EXCLUSIVE.search(sentence):
            continue
        for named in _FLAG_IN_TEXT.findall(sentence) or _bare_flags(sentence, catalog):
            info = catalog.flag(named)
            if info is not None and info.kind == "bool" and catalog.canonical(named) not in out:
                out.append(catalog.canonical(named))
    return out


# A flag's name written without its dashes: two hyphens or more, so an English compound
# ("two-batch") is not read as one.
_BARE_FLAG = re.compile(r"(?<![\w-])([a-z][a-z0-9]*(?:-[a-z0-9]+){2,})(?![\w-])")


def _bare_flags(text: str, catalog: Catalog) -> list[str]:
    """The flags ``text`` names by their parser name without dashes, in order."""
    return [name for name in _BARE_FLAG.findall(text) if catalog.knows(name)]


def _shown(text: str) -> ArgValue:
    if text.startswith("[") and text.endswith("]"):
        return tuple(_listed_items(text[1:-1]))
    return text.strip("'\"")


def _listed_items(text: str, quotes: str = "'\"") -> list[str]:
    """The items of a comma list a message prints ("'fp8', 'awq'"), their quotes taken off."""
    return [p.strip().strip(quotes) for p in text.split(",") if p.strip()]


def _parser_text(subject: Subject) -> str:
    """A failure's message with the argparse error line its output holds."""
    return f"{subject.said or ''}\n{argparse_line(subject)}"


def _built(values: Mapping[str, ArgValue]) -> Candidate:
    try:
        return Candidate.build({f: list(v) if isinstance(v, tuple) else v for f, v in values.items()})
    except (TypeError, ValueError):
        return Candidate(())


def _pasted_candidate(command: str) -> Candidate | None:
    """The candidate a launch command seen in a log stands for (None: none readable)."""
    if not command:
        return None
    from .importing import command_args  # pure, like this module; imported late (it is larger)

    args = command_args(command)
    if not args:
        return None
    try:
        return Candidate.build(args)
    except (TypeError, ValueError):
        return None


def _edits_unnamed_primary(move: Move, catalog: Catalog, message: str) -> bool:
    """Offline twin of :func:`gives_up_primary`: the move drops a primary flag that the
    message names neither by flag nor by field. (A set may add the flag as well as change
    it: with no argv to tell, only a drop surely gives a choice up.)"""
    edited = {catalog.canonical(e.target) for e in move.edits if not e.op.on_env}
    for edit in move.edits:
        if edit.op is not EditOp.DROP:
            continue
        flag = catalog.canonical(edit.target)
        if any(served in edited for served in catalog.intent.get(flag, ())):
            continue  # a drafter that goes with the algorithm it serves
        if flag in catalog.primary and not _message_names(flag, catalog, message):
            return True
    return False


# A check that shows the condition's flag holds nothing: "..., got None."
_NOTHING_GOT = re.compile(r"\bgot ['\"]?(?:None|none|null)\b")


def _edits_context_choice(move: Move, catalog: Catalog, message: str) -> bool:
    """Offline twin of the search's context rule (:func:`_context_only` with :func:`_tied`):
    the message is about another flag ("--x is only supported with speculative_algorithm ==
    EAGLE, got EAGLE3") and the move changes a primary choice a drafter may serve, or a role,
    that the message names only as the condition that flag met."""
    subject = _check_subject(message, catalog)
    if subject is None:
        return False
    served = {flag for serves in catalog.intent.values() for flag in serves}
    for edit in move.edits:
        flag = catalog.canonical(edit.target)
        if edit.op.on_env or flag == subject or _required_of(flag, catalog, message):
            continue
        if edit.op is EditOp.SET and _NOTHING_GOT.search(message):
            continue  # ("..., got None": the choice is unset; setting it gives nothing up)
        if flag in catalog.roles or (flag in catalog.primary and flag in served):
            return True
    return False


def _is_noop(edit: Edit, candidate: Candidate) -> bool:
    if edit.op.on_key:
        return apply(candidate, Move((edit,))) == candidate
    if edit.op is EditOp.DROP:
        return not candidate.has(edit.target)
    if edit.op is EditOp.UNSET_ENV:
        return candidate.env_value(edit.target) is None
    if edit.op is EditOp.SET_ENV:
        return candidate.env_value(edit.target) == edit.value
    return candidate.arg(edit.target) == normalize_value(edit.value)


# --- inferred moves ------------------------------------------------------------------------

_FLAG_IN_TEXT = re.compile(r"--([a-z0-9][a-z0-9-]*)")
_TYPED_FLAG = re.compile(r"--([A-Za-z0-9][A-Za-z0-9_-]*)")
# A short option as typed (-O3, -tp): the command keeps it under its dash.
_SHORT_OPTION = re.compile(r"(?<![\w-])(-[A-Za-z][A-Za-z0-9_]*)(?![\w-])")
_VALUE = r"'?\"?(?P<value>[A-Za-z0-9_][\w.:/-]*)"
_SUGGESTED_VALUE = re.compile(
    r"(?i:requires|use|set|pass|run with|only supports|must be|needs?)\s+--(?P<flag>[a-z0-9][a-z0-9-]*)(?:\s*=\s*|\s+)"
    + _VALUE
)
# A value the message recommends: "(--page-size 64 recommended)", "recommended: --x v".
_RECOMMENDED = re.compile(
    r"--(?P<flag>[a-z0-9][a-z0-9-]*)(?:\s*=\s*|\s+)'?\"?(?P<value>[A-Za-z0-9_][\w.:/-]*)'?\"?\s+(?:is\s+)?"
    r"(?i:recommended|suggested|preferred)"
    r"|(?i:recommended|suggested|preferred|e\.g\.|for example)[:,]?\s+--(?P<flag2>[a-z0-9][a-z0-9-]*)(?:\s*=\s*|\s+)"
    r"'?\"?(?P<value2>[A-Za-z0-9_][\w.:/-]*)"
)
_PAREN_VALUE = re.compile(r"\((?P<flag>[a-z][a-z0-9-]*[a-z0-9])=(?P<value>[\w.-]+)\)")
# "--a must be less than or equal to double --b": one size bounded by a multiple of another.
_BOUND_BY_MULTIPLE = re.compile(
    r"--(?P<a>[a-z0-9][a-z0-9-]*) must be (?:(?P<upper>less|smaller|lower)|greater|larger|more|higher) than"
    r"(?P<equal> or equal to)? (?:(?P<double>double|twice)|(?P<half>half)(?: of)?"
    r"|(?P<times>\d+(?:\.\d+)?) ?(?:times|x)) (?:the )?--(?P<b>[a-z0-9][a-z0-9-]*)"
)
_MUST_BE_NUMBER = re.compile(r"--(?P<flag>[a-z0-9][a-z0-9-]*) must be [^:]*:\s*(?P<value>-?\d+(?:\.\d+)?)\s*\.?$")
_TURN_ON = re.compile(
    r"(?i:requires|run with|needs?|use|enable|specify|pass)\s+(?:both\s+)?--(?P<flag>[a-z0-9][a-z0-9-]*)"
)
# A flag asked for in parentheses after its feature's words: "use attention DP (--attn-dp-size)
# across nodes", "requires the hierarchical cache (--enable-hierarchical-cache)", "attention DP
# (--attn-dp-size) is required". (After "not supported" a parenthesis names what is refused.)
_ASKED_IN_PARENS = re.compile(
    r"\b(?i:requires?|use|needs?|enable|specify|pass)\b(?:\s+[\w-]+){0,3}?\s+\(--(?P<flag>[a-z0-9][a-z0-9-]*)\)"
    r"|\(--(?P<flag2>[a-z0-9][a-z0-9-]*)\)\s+(?i:is|are)\s+(?i:required|needed|necessary)\b"
)
# "--cp-strategy must be set when ...": the flag is asked for (not "must be set to <value>").
# A field named as the flag's snake_case name is asked for the same way: "requires
# elastic_ep_backend to be set".
_MUST_BE_SET = re.compile(
    r"(?:--(?P<flag>[a-z0-9][a-z0-9-]*)|\b(?P<field>[a-z][a-z0-9]*(?:_[a-z0-9]+)+))"
    r"\s+(?i:must|should|needs? to|to)\s+be\s+(?i:set|specified|provided|given)\b(?!\s+to\b)"
)
# "requires the fa3 prefill attention backend": a value and, spelt out, the flag that holds it.
_REQUIRES_THE = re.compile(r"(?i)\brequires?\s+(?:the\s+|an?\s+)?(?P<what>[^.,;:()]{1,50})")
_AND_FLAG = re.compile(r"--(?P<a>[a-z0-9][a-z0-9-]*)\s+and\s+--(?P<b>[a-z0-9][a-z0-9-]*)")
# Words that make "--a and --b" a pair refused, not asked for.
_REFUSED_PAIR = re.compile(r"(?i)\b(?:cannot|can't|can not|not|never|together|mutually|incompatible)\b")


def _sentence_at(text: str, at: int) -> str:
    """The sentence of ``text`` that holds position ``at``."""
    start = max(text.rfind(". ", 0, at), text.rfind("\n", 0, at)) + 1
    ends = [i for i in (text.find(". ", at), text.find("\n", at)) if i >= 0]
    return text[start : min(ends) if ends else len(text)]


_TO_BE_ENABLED = re.compile(r"requires (?P<words>[a-z][a-z ]+?) to be enabled")
# "Please enable dp attention when setting enable_dp_lm_head": a feature asked for in words.
_PLEASE_ENABLE = re.compile(
    r"(?i)\bplease (?:enable|turn on|switch on) (?:the )?(?P<words>[a-z][a-z0-9 _-]{2,60}?)"
    r"(?= (?:when|if|with|before|for|to)\b|[.,;:]|$)"
)
# "Pipeline parallelism is not compatible with overlap schedule, speculative decoding, mixed
# chunked prefill": the features a check refuses beside its subject, listed in words.
_INCOMPATIBLE_LIST = re.compile(r"(?i)\b(?:not compatible|incompatible) with (?P<items>[a-z][a-z0-9 ,_-]{2,200})")
_LIST_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_TO_BE_OFF = re.compile(
    r"(?i)\brequires? (?:the )?(?P<words>[a-z][a-z0-9 _-]{2,60}?) to be (?:disabled|turned off|switched off|off)\b"
)
_NOT_IN_LIST = re.compile(r"--(?P<flag>[a-z0-9][a-z0-9-]*)[= ](?P<value>\S+?) is not in [^\[]*\[(?P<items>[^\]]*)\]")
_DROP_OBJECT = re.compile(
    r"(?:incompatible with|cannot be combined with|not supported (?:together )?with"
    r"|does not support|(?<![a-z])drop)\s+--([a-z0-9][a-z0-9-]*)"
)
# "--A is incompatible with --B", "--A is not supported with --B": A is what the check
# refuses (its subject), B the setting it met; A's drop goes before the object's
# (_DROP_OBJECT). The symmetric wordings ("not supported together with", "cannot be
# combined with": the two together) single out neither and keep the object's first.
_REFUSED_SUBJECT = re.compile(
    r"^--(?P<flag>[a-z0-9][a-z0-9-]*)(?:[= ]\S+)?\s+(?:is|are)\s+(?:incompatible|not supported) with\s+--[a-z0-9]"
)
_NOT_SUPPORTED = re.compile(r"^--(?P<flag>[a-z0-9][a-z0-9-]*)(?:[= ]\S+)? is not supported(?! (?:together )?with)")
_CONFLICTS = re.compile(r"^--(?P<flag>[a-z0-9][a-z0-9-]*)\S* conflicts with")
_NEEDS_HARDWARE = re.compile(
    r"^--(?P<flag>[a-z0-9][a-z0-9-]*)(?:=|\s+)(?P<value>[\w.-]+) (?:requires|is only supported on|only supports)"
    r"\s+(?:an? )?(?:NVIDIA|CUDA|SM\d|Hopper|Blackwell|ROCm|.*GPU)"
)
_OUT_OF_RANGE = re.compile(
    r"--(?P<flag>[a-z0-9][a-z0-9-]*)\S* (?:should be in range|must be (?:positive|between|a positive|> ?0|>= ?1))"
)
# (argparse shows the value's repr: in double quotes when it holds a single quote)
_INVALID_CHOICE = re.compile(
    r"argument (?:--)?(?P<flag>[a-z0-9][a-z0-9-]*)(?:/[^:]*)?: invalid choice: "
    r"(?:\"(?P<quoted>[^\"]*)\"|'?(?P<given>[^'(]*?)'?) \(choose from (?P<listed>.*)\)"
)
_BAD_TYPE = re.compile(
    r"argument (?:--)?(?P<flag>[a-z0-9][a-z0-9-]*)(?:/[^:]*)?: invalid (?P<type>int|float) value: '(?P<value>[^']*)'"
)
_UNRECOGNIZED = re.compile(r"unrecognized arguments: (.*)")
_NO_VALUE = re.compile(r": expected (?:one|at least one) argument")
_BAD_VALUE = re.compile(r"argument (?:--)?([a-z0-9][a-z0-9-]*)(?:/[^:]*)?: (?:expected|invalid \w+ value)")
_DIRECTION_WORD = r"smaller|lower|decrease|reduce|larger|higher|bigger|increase|raise"
# (no other direction word between the verb and the flag: in "raise the environment value
# or lower --x" the flag is lowered)
_DIRECTION = re.compile(
    rf"(?i:(?P<down>smaller|lower|decrease|reduce)|larger|higher|bigger|increase|raise)\b"
    rf"(?:(?!\b(?i:{_DIRECTION_WORD})\b)[^.;]){{0,40}}?"
    r"--(?P<flag>[a-z0-9][a-z0-9-]*)(?:[^.;]{0,30}?at least (?P<least>\d+))?"
)
_RANGE = re.compile(
    r"--(?P<flag>[a-z0-9][a-z0-9-]*)[^.;]*?\b(?:in (?:the )?range|between|within|in(?=\s*[\[(]))\s*(?P<open>[\[(])?\s*"
    r"(?P<lo>-?\d+(?:\.\d+)?)\s*(?:,|and|to)\s*(?P<hi>-?\d+(?:\.\d+)?)\s*(?P<close>[\])])?"
)
_HARDWARE_ONLY = re.compile(
    r"(?i)^(?P<what>.{1,80}?)\s+(?:only supports|is (?:currently )?(?:only )?supported only on"
    r"|is (?:currently )?only supported on|only runs on|requires|needs)\s+(?:an?\s+)?"
    r"(?:CUDA|NVIDIA|ROCm|HIP|NPU|XPU|GPUs?\b|SM\s?\d+|Hopper|Blackwell)"
)
# The same in other words: "DFLASH speculative decoding is not supported by SRTPlatform on
# device 'cpu'" (what is refused, then the device or platform that refuses it).
_NOT_ON_DEVICE = re.compile(
    r"(?i)^(?P<what>.{1,80}?)\s+(?:is|are) not (?:yet |currently )?supported (?:by|on)\b[^.\n]{0,60}?"
    r"\b(?:device|platform|cpu|gpu|npu|xpu|hpu|hardware)\b"
)
_REFUSAL = re.compile(
    r"(?i)not (?:currently )?supported|incompatible|does not support|cannot be used|not compatible|not available"
)
# "X is only supported for decode side" / "only available with fa3": a value the message
# requires, named in prose; the flag whose parser choices hold it is set to it.
_ONLY_FOR_VALUE = re.compile(
    r"(?i)\bonly (?:supported|available|valid|allowed|works?) (?:for|with|in|when using)\s+(?:the\s+)?"
    r"(?P<what>[^.,;:()]{1,40})"
)
# What a refusal is about, up to the end of its sentence ("does not support dp attention.").
_REFUSED_OBJECT = re.compile(
    r"(?i)(?:does not support|do not support|is not supported with|not compatible with|incompatible with"
    r"|cannot be used with)\s+(?P<what>[^.;:()]{1,60})"
)
_FIELD_IN_TEXT = re.compile(r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b")
_STOPWORDS = frozenset({"to", "be", "and", "or", "is", "the", "a", "an", "with", "for", "as", "well", "in", "of"})


_ARGPARSE_LINE = re.compile(r"error: (?:argument |unrecognized arguments|ambiguous option)")


def argparse_line(subject: Subject) -> str:
    """argparse's own ``prog: error: …`` line when the chosen exception is one of its
    causes (``invalid literal for int()`` under ``invalid int value: '2.0'``)."""
    if _ARGPARSE_LINE.search(subject.said or ""):
        return ""
    lines = subject.traceback.preceding if subject.traceback is not None else ()
    return next((ln for ln in reversed(lines) if _ARGPARSE_LINE.search(ln)), "")


def infer(
    subject: Subject,
    flags: Flags,
    resolved: Mapping[str, object],
    source: str | None = None,
    *,
    running: bool = False,
) -> list[Move]:
    """Moves read off the failure text and the failing code; all labelled inferred.
    ``running``: the server failed at run time (a launch gate, not argument validation)."""
    from .jsonargs import json_moves
    from .validation import validation_moves  # it builds on this module's helpers
    from .wording import (
        env_the_message_sets,
        got_refused,
        host_only,
        none_compared,
        required_absent,
        set_to_named_size,
        set_to_one_of,
        wording_moves,
    )

    moves: list[Move] = []
    message = subject.said or ""
    moves.extend(set_to_one_of(message, flags))  # the message names its own fix
    moves.extend(env_the_message_sets(message, flags, bounds=True))  # ... or the amount a variable needs
    moves.extend(set_to_named_size(message, flags))
    moves.extend(_zero_meant_no_limit(message, flags))
    moves.extend(host_only(message, flags))
    moves.extend(_hardware_missing(message, flags))
    moves.extend(_told_to_turn_off(message, flags))
    moves.extend(_exclusive_dropped(message, flags))
    moves.extend(_unless_feature(message, flags))
    moves.extend(required_absent(message, flags))
    moves.extend(validation_moves(subject, flags))  # vLLM's pydantic config errors; else none
    lists = frozenset(name for name, _ in flags.candidate.args if flags.catalog.takes_list(name))
    moves.extend(json_moves(subject, flags.candidate.args, lists))  # JSON-valued flags: mend, rekey
    moves.extend(_sizes_with_units(subject, flags))
    moves.extend(_numbers_refused(message, flags))
    moves.extend(_bound_shown(message, flags))
    moves.extend(_bound_named_first(message, flags))
    moves.extend(_compared_in_message(message, flags))
    moves.extend(_sizes_related(message, flags, resolved))
    moves.extend(_past_bound(message, flags))
    moves.extend(_numbers_compared(message, flags))
    moves.extend(_cap_raised(message, flags))
    moves.extend(_within_capacity(message, flags))
    moves.extend(_value_made_divisible(message, flags))
    moves.extend(_named_made_divisible(message, flags, resolved))
    moves.extend(_file_of_refused_kind(message, flags))
    parser_text = _parser_text(subject)
    moves.extend(_from_argparse(parser_text, flags))
    moves.extend(_switch_given_value(parser_text, flags))
    moves.extend(got_refused(message, flags))  # a value changed before a flag is dropped
    moves.extend(_from_message(message, flags))
    moves.extend(_held_value_refused(message, flags, resolved))
    moves.extend(_rule_name_missing(message, flags))
    moves.extend(_log_level_meant(message, flags))
    moves.extend(_invalid_choice_configured(message, flags))
    moves.extend(_list_members(message, flags))
    moves.extend(_spelled_list(message, flags))
    moves.extend(wording_moves(message, flags))
    moves.extend(none_compared(subject.exception, message, subject.frame.source if subject.frame else None, flags))
    if subject.exception.rsplit(".", 1)[-1] == "ZeroDivisionError":
        zeros = [name for name, value in flags.candidate.args if value == "0" and not flags.is_pinned(name)]
        moves.extend(_inferred([Edit(EditOp.DROP, name)], "zero") for name in zeros)
    from_file = source_moves(source, subject.frame.line, flags) if source and subject.frame else None
    if from_file is not None:
        moves.extend(from_file)
    elif subject.frame is not None and subject.frame.source:
        moves.extend(_from_source(subject.frame.source, flags))
    moves.extend(component_moves(subject, flags, resolved))
    if running:
        # After where it died: a feature the failure names in words, while it is on.
        moves.extend(switched_off(f"{subject.exception}: {message}"[:MATCH_LINE], _flag_views(flags)))
    moves.extend(_folded(message, flags))
    moves.extend(_named_in_message(message, flags))
    moves.extend(_required_value(message, flags))
    moves.extend(_resolved_choice_refused(message, flags, resolved))
    moves.extend(_unset_choice_refused(message, flags, resolved))
    return [m for m in moves if not any(flags.is_host_fact(e.target) for e in m.edits if not e.op.on_env)]


# A file refused by the extension the check got: "must be YAML format, got: .json".
_REFUSED_EXTENSION = re.compile(r"(?i)\bgot:?\s*['\"`]?(?P<ext>\.[A-Za-z0-9]{1,8})\b['\"`]?")


def _file_of_refused_kind(message: str, flags: Flags) -> list[Move]:
    """The one flag whose value is a file with the extension a check refused ("got: .json"):
    the file is of another kind than the flag reads, so the flag goes."""
    refused = {found.group("ext").lower() for found in _REFUSED_EXTENSION.finditer(message[:MATCH_LINE])}
    holders = [
        name
        for name, value in flags.candidate.args
        if isinstance(value, str) and any(value.lower().endswith(ext) for ext in refused) and not flags.is_pinned(name)
    ]
    return [_inferred([Edit(EditOp.DROP, holders[0])], "message")] if len(holders) == 1 else []


# A value a message offers for "no limit", labelled so: "must be -1 (unlimited) or ...".
_NO_LIMIT_SENTINEL = re.compile(
    r"(?i)(?<![\w.])(?P<value>-?\d+)\s*\((?:unlimited|no limit|no cap|unbounded|infinite)\)"
)


def _zero_meant_no_limit(message: str, flags: Flags) -> list[Move]:
    """A flag the message names that the user set to 0, where the message labels another
    value as no limit: 0 is how many tools write "no cap", so that value is what was meant."""
    text = message[:MATCH_LINE]
    sentinels = [found.group("value") for found in _NO_LIMIT_SENTINEL.finditer(text)]
    out: list[Move] = []
    for flag in named_flags(text) if sentinels and sentinels[0] != "0" else ():
        spelled = flags.spelling(flag)
        if spelled is not None and not flags.is_pinned(flag) and as_number(flags.candidate.arg(spelled)) == 0:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), sentinels[0])], "bound"))
    return out


# A sentence that tells the operator to turn a flag off: "... Disable --enable-x.", "Remove --y".
_TURN_OFF_TOLD = re.compile(
    r"(?:^|[.;!?]\s+|\b(?i:please|try)\s+)(?i:disable|remove|drop|unset|turn off)\s+"
    r"[`'\"]?--(?P<flag>[a-z0-9][a-z0-9-]*)",
    re.MULTILINE,
)


# A host that lacks the hardware or driver a feature needs: "sysfs path not found:
# /sys/class/infiniband", "Please ensure InfiniBand drivers are installed".
_HARDWARE_MISSING = re.compile(
    r"(?i)\b(?:sysfs|/sys/|/dev/)\S*.{0,60}?\bnot found\b|\bensure\b.{0,60}?\bdrivers? (?:are |is )?installed\b"
)


def _hardware_missing(message: str, flags: Flags) -> list[Move]:
    """The flags a message about missing hardware names by their help's words (catalogue
    words: "InfiniBand" for --disaggregation-ib-device), left out: their default lets the
    backend pick what the host has."""
    if not _HARDWARE_MISSING.search(message):
        return []
    lowered = message.lower()
    return [
        _inferred([Edit(EditOp.DROP, flags.target(flag))], "hardware")
        for flag, phrases in flags.catalog.words.items()
        if flags.spelling(flag) is not None and not flags.is_pinned(flag) and any(p in lowered for p in phrases)
    ]


def _told_to_turn_off(message: str, flags: Flags) -> list[Move]:
    """The flags the user set that the message, in a sentence of its own, says to turn off."""
    named = [found.group("flag") for found in _TURN_OFF_TOLD.finditer(message)]
    return [
        _inferred([Edit(EditOp.DROP, flags.target(flag))], "message")
        for flag in dict.fromkeys(named)
        if flags.spelling(flag) and not flags.is_pinned(flag)
    ]


MAX_COMPONENTS = 3  # the innermost few components a traceback passes through


# A flag an advice line tells the operator to add, pass or try, with the value it gives.
_ADVISED = re.compile(
    r"(?i:add|pass|use|set|try|trying|specify|enable|with|recommend|suggest|unless)\s+[`'\"]?--(?P<flag>[a-z0-9][a-z0-9-]*)[`'\"]?"
    r"(?:(?:\s*=\s*|\s+)[`'\"]?(?P<value>[A-Za-z0-9_][\w.:/-]*))?"
)
# A server argument advised by its field name and value, as an engine's keyword argument or a
# framework's config key: "set `chunked_prefill_size = -1`", "try mem_fraction_static=0.7".
# Not after "with": "crashes with x=True" describes the launch that failed.
_ADVISED_FIELD = re.compile(
    r"(?i:add|pass|use|set|setting|try|trying|specify|recommend|suggest)\s+[`'\"]?"
    r"(?P<field>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)[`'\"]?\s*=\s*[`'\"]?(?P<value>-?[A-Za-z0-9_][\w.:/-]*)"
)


def advice_moves(advice: Sequence[str], flags: Flags) -> list[Move]:
    """What the log itself tells the operator to change, in its order: a flag to add (with
    the value given, if the parser takes it), a flag to make smaller or larger."""
    out: list[Move] = []
    for line in advice:
        advised = [(f.group("flag"), (f.group("value") or "").rstrip(".,;:)")) for f in _ADVISED.finditer(line)]
        advised.extend((next(f for f in found.groups() if f), "") for found in AVOIDED_BY.finditer(line))
        edits = [_advised_edit(flag, value, flags) for flag, value in advised]
        edits.extend(_advised_fields(line, flags))
        for edit in edits:
            # (advice to set what is set already: "true" as typed, True as parsed)
            if edit is not None and str(flags.candidate.arg(edit.target)).lower() != str(edit.value).lower():
                out.append(_inferred([edit], "advice"))
        for found in _DIRECTION.finditer(line):
            scaled = _scaled_edit(found, flags)
            if scaled is not None:
                out.append(_inferred([scaled], "advice"))
    return out


def _advised_fields(line: str, flags: Flags) -> list[Edit | None]:
    """The edits ``line`` advises by a server argument's field name (None: no edit for one):
    only names the host's parser has (a trainer's own config key is no flag of the
    server's). A switch advised off (``enable_x=False``) is dropped when the user turned it
    on, never turned on."""
    out: list[Edit | None] = []
    for found in _ADVISED_FIELD.finditer(line):
        flag, value = flag_name(found.group("field")), found.group("value").rstrip(".,;:)'\"`")
        info = flags.catalog.flag(flag)
        if info is None:
            continue
        if info.kind == "bool" and not is_on(value):
            spelling = flags.spelling(flag)
            out.append(Edit(EditOp.DROP, spelling) if spelling and flags.candidate.has(spelling) else None)
        else:
            out.append(_advised_edit(flag, value, flags))
    return out


def _advised_edit(flag: str, value: str, flags: Flags) -> Edit | None:
    if flags.catalog.flag(flag) is None and flags.catalog.flags:
        # A flag of another release (the log's own): a switch, or the number or choice it
        # gives (a word that is a choice of the flag's name in the host's release, not the
        # prose after it); the move is spelled in the host's release when proposed
        # (renames.in_host_release).
        kept = as_number(value) is not None or _choice_in_host(flag, value, flags)
        if not kept and _takes_a_value_in_host(flag, flags):
            return None  # a size or a word the advice does not give: no switch to turn on
        return Edit(EditOp.SET, flag, value if kept else True)
    if value and _valid_value(flag, value, flags):
        return Edit(EditOp.SET, flags.target(flag), value)
    on = _turn_on_value(flag, flags)
    return Edit(EditOp.SET, flags.target(flag), on) if on is not None else None


def _takes_a_value_in_host(flag: str, flags: Flags) -> bool:
    """``flag``, a name of another release, is a flag the host's parser gives a value of its
    own (a number, a word) and the move names none: --cuda-graph-max-bs is 0.5.23's
    --cuda-graph-max-bs-decode, a batch size."""
    moved = in_host_release(Move((Edit(EditOp.SET, flag, True),)), flags.candidate, flags.catalog)
    if moved is None or len(moved.edits) != 1 or moved.edits[0].value is not True:
        return False
    info = flags.catalog.flag(moved.edits[0].target)
    return info is not None and info.kind != "bool"


def _choice_in_host(flag: str, value: str, flags: Flags) -> bool:
    """``value`` is a parser choice of what ``flag``, a name of another release, is called in
    the host's."""
    moved = in_host_release(Move((Edit(EditOp.SET, flag, value),)), flags.candidate, flags.catalog) if value else None
    if moved is None or len(moved.edits) != 1:
        return False
    info = flags.catalog.flag(moved.edits[0].target)
    return info is not None and value in map(str, info.choices)


def _edits_pin(edit: Edit, candidate: Candidate, flags: Flags) -> bool:
    """Whether ``edit`` changes what a pinned flag holds."""
    if edit.op is EditOp.RENAME or edit.op.on_env or not flags.is_pinned(edit.target, edit.key):
        return False
    held = candidate.arg(edit.target)
    keeps_first = edit.op is EditOp.SET and isinstance(held, tuple) and bool(held) and held[0] == edit.value
    return not keeps_first


def _class_moves(
    cls: FailureClass, diagnosis: Diagnosis, flags: Flags, resolved: Mapping[str, object], *, tuning: bool = False
) -> list[Move]:
    """The class's moves in its order. For a fault of whatever kernel ran (``part_first``),
    switching off the part of the server it died in comes first, unless the class lists
    that move itself (then the class's order stands)."""
    own = [
        move
        for spec in cls.moves
        if (move := realize(spec, flags, resolved, diagnosis.groups, origin=cls.id, suspects_tuning=tuning)) is not None
    ]
    own = _refused_value_first(own, diagnosis.subject.said or "", flags)
    if not cls.part_first:
        return own
    listed = {move.label() for move in own}
    return [m for m in component_moves(diagnosis.subject, flags, resolved) if m.label() not in listed] + own


def _refused_value_first(own: list[Move], message: str, flags: Flags) -> list[Move]:
    """A class's moves in its order, except that among its drops one of a flag whose value
    the message names (the refused choice: "TRTLLM MLA backend is only supported on ...")
    comes first, preceded by that flag set to each value the user gives a flag of the same
    choices (what the user runs on this host; the message asks for "a different backend",
    not for none). Its other moves keep their places."""
    said = _words(message[:MATCH_LINE])

    def dropped(move: Move) -> str | None:
        return move.edits[0].target if len(move.edits) == 1 and move.edits[0].op is EditOp.DROP else None

    def refused(move: Move) -> str | None:
        flag = dropped(move)
        value = flags.candidate.arg(flag) if flag else None
        return value if isinstance(value, str) and len(value) >= 3 and _words(value) in said else None

    named = [m for m in own if refused(m) is not None]
    if not named:
        return own
    first: list[Move] = []
    for move in named:
        flag, value = move.edits[0].target, refused(move) or ""
        # (the class's own answer, made with the user's value: weighed as the class's move)
        beside = _values_run_beside(flag, value, flags)
        first.extend(Move((Edit(EditOp.SET, flag, other),), move.inferred, move.origin) for other in beside)
        first.append(move)
    out: list[Move] = []
    for move in own:
        if dropped(move) is not None and first:
            out.extend(first)
            first = []
        if move not in named:
            out.append(move)
    return out


def component_moves(subject: Subject, flags: Flags, resolved: Mapping[str, object]) -> list[Move]:
    """Moves of the parts of the server the failing traceback ran in, innermost first
    (catalogue ``components``): what an operator switches off after reading where it died;
    a failure line read beside a traceback cut before its exception line, by that one's."""
    tb = subject.traceback or subject.cut
    if not flags.catalog.components:
        return []
    found: list[Component] = []
    for frame in reversed(tb.frames if tb is not None else ()):
        path = frame.file.replace("\\", "/")
        for component in flags.catalog.components:
            if component not in found and component.where.search(path):
                found.append(component)
        if len(found) >= MAX_COMPONENTS:
            break
    # A part the failure names in words or by module, where no frame shows it.
    text = (subject.said or "")[:MATCH_LINE]
    for component in flags.catalog.components:
        if len(found) < MAX_COMPONENTS and component not in found and component.named and component.named.search(text):
            found.append(component)
    out: list[Move] = []
    for component in found:
        for spec in component.moves:
            move = realize(spec, flags, resolved, {}, origin=f"component:{component.id}")
            if move is not None:
                out.append(Move(move.edits, inferred=True, origin=move.origin))
    return out


def _inferred(edits: Sequence[Edit], origin: str) -> Move:
    return Move(tuple(edits), inferred=True, origin=origin)


def _from_argparse(message: str, flags: Flags) -> list[Move]:
    out: list[Move] = []
    choice = _INVALID_CHOICE.search(message)
    if choice:
        flag, listed = choice.group("flag"), choice.group("listed")
        given = choice.group("quoted") if choice.group("quoted") is not None else choice.group("given")
        choices = _listed_items(listed)
        called = flags.catalog.called(flag, given)
        if called in choices:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), called)], "argparse"))
        sibling = _sibling_choosing(flag, given, flags)
        if sibling is not None:
            out.append(_inferred([Edit(EditOp.RENAME, flags.target(flag), sibling)], "argparse"))
        switched = _value_switch(flag, given, choices, flags)
        if switched is not None:
            out.append(switched)
        joined = _joined_members(flag, given, choices, flags)
        if joined:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), joined)], "argparse"))
        mended = _members_mended(flag, choices, flags)
        if mended:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), mended)], "argparse"))
        preferred = [str(v) for v in flags.catalog.domain(flag)]
        ranked = closest_choices(given, choices, preferred, _served(flags))[:2]
        near = [c for c in ranked if evidently_meant(given, c, choices)]  # (meant_choices, ranked once)
        if _asks_for_default(given, choices) and flags.spelling(flag):
            near = []  # 'none' where no choice says nothing: the flag left out, not a choice
        for best in near:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), best)], "argparse"))
        if flags.spelling(flag):
            out.append(_inferred([Edit(EditOp.DROP, flags.target(flag))], "argparse"))
        for best in (c for c in ranked if c not in near):
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), best)], "argparse"))
    unknown = _UNRECOGNIZED.search(message)
    if unknown:
        unrecognized = _unrecognized_flags(message, flags.candidate)
        drops = [Edit(EditOp.DROP, f) for f in unrecognized]
        if drops:
            out.append(_inferred([*drops, *_ports_joined(unrecognized, flags)], "argparse"))
        out.extend(_extra_values(unknown.group(1), flags))
    typed = _BAD_TYPE.search(message)
    listed = _comma_list(typed, flags) if typed else None
    if typed and listed is not None:
        # '700,10,10' for a flag that takes several numbers: the list the user meant.
        out.append(_inferred([Edit(EditOp.SET, flags.target(typed.group("flag")), listed)], SPELLED_ORIGIN))
    elif typed and flags.spelling(typed.group("flag")):
        # '2.0' for an int, '0,85' for a float: the number the user evidently meant (their
        # own value as the parser reads it: weighed by the search as what was meant).
        given = typed.group("value")
        # ("10,000" for an int: a thousands separator, not '0,85''s decimal comma)
        grouped = without_thousands(given) if typed.group("type") == "int" and "," in given else None
        text = grouped if grouped is not None else given.replace(",", ".")
        number = as_number(text)
        if number is not None and (typed.group("type") != "int" or number.is_integer()):
            meant = str(int(number)) if typed.group("type") == "int" else text
            out.append(_inferred([Edit(EditOp.SET, flags.target(typed.group("flag")), meant)], SPELLED_ORIGIN))
        elif (
            number is None
            and isinstance(flags.value(typed.group("flag"), {}), str)
            and (read := as_meant(given, typed.group("flag"), flags.catalog)) is not None
        ):
            # '40%' for a ratio, '2k' for a token count: the number as the flag reads it (of a
            # flag holding one value: a list's refused member is mended with the list's others)
            out.append(_inferred([Edit(EditOp.SET, flags.target(typed.group("flag")), read)], SPELLED_ORIGIN))
    bad = _BAD_VALUE.search(message)
    if bad and flags.spelling(bad.group(1)):
        if _NO_VALUE.search(message):
            out.extend(_given_a_value(bad.group(1), flags))
        elif typed is not None and not typed.group("value").strip():
            # An empty value (an unset variable quoted) asks for the server's own, unless the
            # command sizes it: the whole its parts split (--tp-size '' beside attention DP 8).
            parts = _least_whole_of_parts(bad.group(1), flags)
            if parts is not None:
                out.append(_inferred([Edit(EditOp.SET, flags.target(bad.group(1)), str(parts))], "argparse"))
        out.append(_inferred([Edit(EditOp.DROP, flags.target(bad.group(1)))], "argparse"))
    return out


def _given_a_value(flag: str, flags: Flags) -> list[Move]:
    """A flag given no value: the value the command evidently means for it, the whole of
    the size it splits into groups (attention DP over every TP rank), else the least size
    the parts that split it divide (TP from attention DP and EP), else its on-values."""
    whole = _whole_it_splits(flag, flags)
    values: Sequence[ArgValue | float]
    if whole is not None:
        values = [_tidy(whole)]
    elif (parts := _least_whole_of_parts(flag, flags)) is not None:
        values = [str(parts)]
    else:
        values = on_values(flag, flags)
    return [_inferred([Edit(EditOp.SET, flags.target(flag), v)], "argparse") for v in values]


def _least_whole_of_parts(flag: str, flags: Flags) -> int | None:
    """The least size that every size the command gives to split ``flag`` into groups
    divides (attention DP 8 and EP 8 split a TP of 8); None when the command gives none."""
    name = flags.catalog.canonical(flag)
    parts = [
        as_number(flags.candidate.arg(spelled))
        for part, whole in flags.catalog.splits.items()
        if whole == name and _split_whole(part, flags) == name and (spelled := flags.spelling(part)) is not None
    ]
    sizes = [int(p) for p in parts if p is not None and p.is_integer() and p > 1]
    return math.lcm(*sizes) if sizes else None


def _sibling_choosing(flag: str, given: str, flags: Flags) -> str | None:
    """The one sibling of ``flag`` (the same first and last word, a family and a kind:
    --moe-a2a-backend beside --moe-runner-backend) the user left unset that has ``given``
    among its choices: where the value was meant to go. None when no such flag, or more
    than one, has it, and for a word any flag may take for off or its default ('none')."""
    name = flags.catalog.canonical(flag)
    if given.lower() in OFF_WORDS or given.lower() in DEFAULT_WORDS:
        return None

    def family_and_kind(spelled: str) -> tuple[str, str]:
        words = spelled.split("-")
        return words[0], words[-1]

    wanted = family_and_kind(name)
    found = [
        other
        for other, info in flags.catalog.flags.items()
        if other != name
        and family_and_kind(other) == wanted
        and given in map(str, info.choices)
        and flags.spelling(other) is None
        and not flags.is_pinned(other)
    ]
    if len(found) != 1:
        return None  # (none, or several: which one is anyone's guess)
    return found[0]


def _served(flags: Flags) -> str:
    """What the command says of the model it serves: its path (a variant's word in it)."""
    held = flags.candidate.arg("model-path") if flags.candidate.has("model-path") else None
    return held if isinstance(held, str) else ""


def _value_switch(flag: str, given: str, choices: Sequence[str], flags: Flags) -> Move | None:
    """A refused value that names a feature with a switch of its own (``--hicache-storage-backend
    lmcache`` where the parser has ``--enable-lmcache``) and is near none of the choices: the
    user asked for that feature under the wrong flag; the switch goes on and the flag goes."""
    switch = "enable-" + "-".join(re.findall(r"[a-z0-9]+", given.lower()))
    info = flags.catalog.flag(switch)
    if info is None or info.kind != "bool" or any(near_choice(given, c) for c in choices):
        return None
    drop = [Edit(EditOp.DROP, flags.target(flag))] if flags.spelling(flag) else []
    return _inferred([Edit(EditOp.SET, switch, True), *drop], "argparse")


def _asks_for_default(given: str, choices: Sequence[str]) -> bool:
    """``given`` is a word for "nothing set" ('none', 'null', 'default') and no choice
    spells it otherwise ('off', 'disabled', 'unquant'): the user asked for the default."""
    word = given.strip().lower()
    spelled = {c.lower() for c in choices}
    return word in DEFAULT_WORDS and not spelled & {word, *MODE_WORDS.get(word, ())}


# A size written with a unit: 32K, 1.5Mi, 2 GiB. IEC units (Ki, Mi, Gi) and an upper-case K
# (no SI prefix: the binary kilo of "a 32K context") count in 1024s; k, M, G, T in 1000s.
_NUMBER_REFUSED = re.compile(r"(?i)invalid (?:int|integer|float) value|suffix|not a valid (?:int|integer|number)")


def _members_mended(flag: str, choices: Sequence[str], flags: Flags) -> tuple[str, ...]:
    """A list flag's members as the user gave them, each one the parser refuses replaced by
    the choices it fuses (qkv_proj: q_proj k_proj v_proj) or else its nearest choice, and
    left out when it has neither (a module the release does not take: the others stay);
    () when the flag holds no list or no member would stay."""
    spelled = flags.spelling(flag)
    members = flags.candidate.arg(spelled) if spelled and flags.known(flag) else None
    if not flags.catalog.takes_list(flag) or not isinstance(members, tuple):
        return ()
    out: list[str] = []
    for member in members:
        if member in choices:
            out.append(member)
            continue
        near = [c for c in closest_choices(member, choices, [])[:1] if near_choice(member, c)]
        parts = _fused_parts(member, choices) or near
        out.extend(p for p in parts if p not in out)
    return tuple(out) if out and tuple(out) != members else ()


def _fused_parts(name: str, choices: Sequence[str]) -> list[str]:
    """The choices a fused name stands for: its head split into words (gate_up) or letters
    (qkv), each of which, with the name's last word, is a choice (gate_proj, up_proj)."""
    head, sep, tail = name.rpartition("_")
    if not sep or not head:
        return []
    for pieces in (head.split("_"), list(head)):
        parts = [f"{piece}_{tail}" for piece in pieces]
        if len(parts) > 1 and all(part in choices for part in parts):
            return parts
    return []


def _joined_members(flag: str, given: str, choices: Sequence[str], flags: Flags) -> tuple[str, ...]:
    """The members of a list flag's value the user joined with commas, when each is one
    of its choices (argparse takes them apart, space-separated), or wrote as one JSON or
    Python list pasted from a config file ('["q_proj","k_proj"]'); () otherwise."""
    spelled = flags.spelling(flag)
    held = flags.candidate.arg(spelled) if spelled else None
    written = held.strip() if isinstance(held, str) and held.strip().startswith("[") else given
    if written.startswith("[") and written.endswith("]"):
        written = written[1:-1]
    members = tuple(m.strip().strip("'\"").strip() for m in written.split(",") if m.strip())
    if not flags.catalog.takes_list(flag) or len(members) < 2 or not set(members) <= set(choices):
        return ()
    return members


def _sizes_with_units(subject: Subject, flags: Flags) -> list[Move]:
    """A number the parser refused for how it is written (a unit, a percentage, a
    fraction), as the plain number it means (as_meant): the flags whose value the message
    quotes, else every such value the user set."""
    text = f"{subject.exception}: {_parser_text(subject)}"
    if not _NUMBER_REFUSED.search(text):
        return []
    sized = [(n, v, p) for n, v in flags.candidate.args if (p := _value_as_meant(v, n, flags.catalog)) is not None]
    quoted = [t for t in sized if f"--{t[0]}" in text or any(f"'{m}'" in text for m in _members(t[1]))]
    # (the user's own value as the parser reads it: weighed by the search as what was meant)
    return [_inferred([Edit(EditOp.SET, name, plain)], SPELLED_ORIGIN) for name, _, plain in quoted or sized]


def _members(value: ArgValue) -> tuple[str, ...]:
    return tuple(str(m) for m in value) if isinstance(value, tuple) else (str(value),)


def _value_as_meant(value: ArgValue, flag: str, catalog: Catalog) -> ArgValue | None:
    """A value, or every member of a list, as meant (as_meant); None when nothing changes
    or a member that is no number has no reading."""
    if isinstance(value, str):
        return as_meant(value, flag, catalog)
    if not isinstance(value, tuple) or not value:
        return None
    mended = tuple(m if as_number(m) is not None else as_meant(str(m), flag, catalog) for m in value)
    if any(m is None for m in mended) or mended == value:
        return None
    return tuple(str(m) for m in mended)


# A help that writes the flag's one value as names joined by commas: "comma-separated",
# "<name1>,<name2>,...", "a,b".
_COMMA_JOINED_HELP = re.compile(r"(?i)\bcomma[- ]separated\b|>\s?,\s?<|\w,\w+,\s?\.\.\.")


def _extra_values(left_over: str, flags: Flags) -> list[Move]:
    """Words argparse could not place that are the second and later values the user gave
    a flag that takes one (vLLM's --served-model-name takes several): the flag keeps its
    first value."""
    words = {w.strip("'\"") for w in left_over.split()}
    out: list[Move] = []
    for name, value in flags.candidate.args:
        info = flags.catalog.flag(name)
        if info is None or info.kind != "value" or not isinstance(value, tuple) or len(value) < 2:
            continue
        if {str(w).strip().strip("'\"") for w in value[1:]} <= words:
            joined = " ".join(value)
            if _is_json(joined) and not flags.is_pinned(name):
                # JSON a shell split at its spaces (an unquoted variable): joined again.
                out.append(_inferred([Edit(EditOp.SET, name, joined)], "argparse"))
            elif _reads_json_list(info) and not flags.is_pinned(name):
                # The members of the one JSON list the flag reads, given as words.
                out.append(_inferred([Edit(EditOp.SET, name, _json_list_of(value))], "argparse"))
            elif (listed := _list_flag_beside(name, flags)) is not None and not flags.is_pinned(name):
                # The values of a list flag given to the one-value flag named like it with
                # one word more (--cuda-graph-max-bs 1 2 4 for --cuda-graph-bs).
                out.append(_inferred([Edit(EditOp.RENAME, name, listed)], "argparse"))
            elif number_type(info.type) is None and _COMMA_JOINED_HELP.search(info.help) and not flags.is_pinned(name):
                # Names the help writes joined by commas ("a,b"), given as words (not a
                # number's help that lists examples: "GPU 0,2,4,...").
                out.append(_inferred([Edit(EditOp.SET, name, ",".join(map(str, value)))], "argparse"))
            elif _ADDRESS_FLAG.search(name) and _port_written_apart(value) and not flags.is_pinned(name):
                # An address and its port as two words (a space where the colon goes).
                out.append(_inferred([Edit(EditOp.SET, name, f"{value[0]}:{value[1]}")], "argparse"))
            bound = bound_of_sweep(name, value)
            if bound is not None and not flags.is_pinned(name):
                # A sweep given to a maximum (minimum): its largest (smallest) is the bound.
                out.append(_inferred([Edit(EditOp.SET, name, bound)], "argparse"))
            # (of a pinned flag too: its first value is the one the user pinned)
            inside = _flags_inside(value[1:], flags)
            # Flags after an escaped space (' --tp-size'): the words are the user's flags, set
            # as such (the first value alone would leave them out); else extra values.
            out.append(_inferred([Edit(EditOp.SET, name, value[0]), *inside], "argparse"))
    return out


def _flags_inside(words: Sequence[str], flags: Flags) -> list[Edit]:
    """The flags of the parser that ``words`` name with a space before them (' --tp-size',
    '2', ' --enable-x') or behind an editor's dash ('\u2014context-length'), set to the words
    after each (a switch: on); [] unless every flag-like
    word names one the user has not set, and the words open with one."""
    edits: list[Edit] = []
    for word in words:
        text = str(word)
        typed = typed_as_flag(text.strip())  # ("\u2014context-length": an editor's dash)
        if (text.strip().startswith("--") and text[:1].isspace()) or typed is not None:
            name = (typed or text.strip())[2:]
            info = flags.catalog.flag(name)
            if info is None or flags.spelling(name) is not None:
                return []
            edits.append(Edit(EditOp.SET, name, True))
        elif not edits:
            return []
        elif edits[-1].value is True:
            edits[-1] = Edit(EditOp.SET, edits[-1].target, text.strip())
        else:
            return []  # a second value: not a flag and its value as written
    return edits


def _list_flag_beside(name: str, flags: Flags) -> str | None:
    """The host's one flag taking a list whose name is ``name``'s without one of its words."""
    words = flags.catalog.canonical(name).split("-")
    shorter = {"-".join(words[:i] + words[i + 1 :]) for i in range(len(words))} if len(words) > 2 else set()
    lists = [f for f in sorted(shorter) if (info := flags.catalog.flag(f)) is not None and info.kind == "list"]
    return lists[0] if len(lists) == 1 else None


# A host: an IPv4 address or a DNS name (labels of letters, digits and dashes), no port.
_HOST = re.compile(r"^(?:\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*)$")
# A flag whose value is where to connect (dist-init-addr, host, a store's url or endpoint).
_ADDRESS_FLAG = re.compile(r"(?:^|-)(?:addr|address|host|url|endpoint)(?:-|$)")


def _ports_joined(unknown: Sequence[str], flags: Flags) -> list[Edit]:
    """For an unknown ``<x>-port N`` beside the user's ``<x>-addr host`` (no port in it):
    the address with that port (--dist-init-port 5000 with --dist-init-addr 10.0.0.1)."""
    edits: list[Edit] = []
    for name in unknown:
        stem, dash, last = name.rpartition("-")
        port = flags.candidate.arg(name)
        if not dash or last != "port" or not isinstance(port, str) or not port.isdigit():
            continue
        for word in ("addr", "address", "host"):
            if flags.catalog.flag(f"{stem}-{word}") is None:
                continue  # (no such flag of the parser's: unknown too, left out with the port)
            spelled = flags.spelling(f"{stem}-{word}")
            host = flags.candidate.arg(spelled) if spelled else None
            if isinstance(host, str) and _HOST.match(host) and not flags.is_pinned(spelled or ""):
                edits.append(Edit(EditOp.SET, flags.target(f"{stem}-{word}"), f"{host}:{port}"))
                break
    return edits


def _port_written_apart(words: Sequence[str]) -> bool:
    """``words`` are a host with no port and then a port number."""
    if len(words) != 2 or not _HOST.match(str(words[0])) or not str(words[1]).isdigit():
        return False
    return 0 < int(words[1]) <= MAX_PORT


def _deprecated_for(name: str, flags: Flags) -> str | None:
    """The flag a past release named as ``name``'s replacement, when the host has it and it
    takes a value (the replacement of a switch kept as a deprecation notice)."""
    replacement = flags.catalog.history.replacements.get(flags.catalog.canonical(name))
    if replacement is None or replacement.value is not None or replacement.value_from is not None:
        return None
    info = flags.catalog.flag(replacement.flag)
    return replacement.flag if info is not None and info.kind in ("value", "list") else None


def _reads_json_list(info: FlagInfo) -> bool:
    """The parser reads the flag's one value as a JSON list (SGLang's json_list_type)."""
    kind = (info.type or "").lower()
    return "json" in kind and "list" in kind


def _json_list_of(words: Sequence[str]) -> str:
    """Words as one JSON list: numbers as numbers, other words as strings."""
    return json.dumps(
        [int(w) if re.fullmatch(r"-?\d+", w) else as_number(w) if as_number(w) is not None else w for w in words]
    )


def _is_json(text: str) -> bool:
    """Whether ``text`` is a JSON object or list."""
    if not text.lstrip().startswith(("{", "[")):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _switch_given_value(message: str, flags: Flags) -> list[Move]:
    """An on/off switch the user wrote with a value, the value left over by the parser:
    a word for on makes it the bare switch, a word for off drops it (and, for a switch on
    by default, writes its --no- form when the parser has one)."""
    found = _UNRECOGNIZED.search(message)
    if found is None:
        return []
    left = {w.strip("'\"").lower() for w in found.group(1).split()}
    out: list[Move] = []
    for name, value in flags.candidate.args:
        info = flags.catalog.flag(name)
        if info is None or info.kind != "bool" or not isinstance(value, str) or value.lower() not in left:
            continue
        if flags.is_pinned(name):
            continue
        successor = _deprecated_for(name, flags)
        if successor is not None:
            # A renamed flag the host keeps only as a deprecation notice (no argument): the
            # value goes to what replaced it.
            out.append(_inferred([Edit(EditOp.RENAME, name, successor)], "switch"))
        if value.lower() in ON_WORDS:
            out.append(_inferred([Edit(EditOp.SET, name, True)], "switch"))
            continue
        negative = f"no-{flags.catalog.canonical(name)}"
        edits = [Edit(EditOp.DROP, name)]
        # (not for a switch off by default: dropping it says the same)
        if info.default is not False and flags.catalog.knows(negative):
            edits.append(Edit(EditOp.SET, negative, True))
        out.append(_inferred(edits, "switch"))
    return out


# Python's own refusal of a string as a number, quoting it and naming no flag.
_NOT_A_NUMBER = re.compile(
    r"could not convert string to (?:float|int): '(?P<value>[^'\n]{1,200})'"
    r"|invalid literal for int\(\) with base \d+: '(?P<value2>[^'\n]{1,200})'"
)


def _numbers_refused(message: str, flags: Flags) -> list[Move]:
    """The flag holding a value ``int()``/``float()`` refused, whole or as a list member,
    with that value (and the list's other members written alike) as the number(s) it
    means (see _as_numbers)."""
    out: list[Move] = []
    for found in _NOT_A_NUMBER.finditer(message):
        refused = found.group("value") or found.group("value2")
        for name, value in flags.candidate.args:
            members = value if isinstance(value, tuple) else (value,) if isinstance(value, str) else ()
            if refused not in members or flags.is_pinned(name):
                continue
            # (read as this flag reads it: a token count's 8k is 8192)
            numbers = _as_numbers(refused, name, flags.catalog)
            if numbers is None:
                continue
            if len(numbers) > 1 and not isinstance(value, tuple) and not flags.catalog.takes_list(name):
                continue  # several numbers for a flag that takes one: not what it meant
            # Every member written the same way is refused next: all mended at once.
            mended = tuple(
                n for m in members for n in (numbers if m == refused else _as_numbers(m, name, flags.catalog) or (m,))
            )
            # (the user's own value, written as the parser reads it: the search counts it as
            # what was meant, so a later move is weighed from the number)
            out.append(
                _inferred(
                    [Edit(EditOp.SET, name, mended if isinstance(value, tuple) or len(mended) > 1 else mended[0])],
                    SPELLED_ORIGIN,
                )
            )
    return out


# "context_length (60000) is greater than the derived context_length (40960)": a field's
# value and, within the sentence, the bound it passed, each in parentheses.
_PAST_BOUND = re.compile(
    r"\b(?P<field>[a-z][a-z0-9_]{1,60}) \((?P<value>-?\d+(?:\.\d+)?)\) (?:is |was )?"
    r"(?:(?P<over>greater than|larger than|bigger than|more than|exceeds?|above)|less than|smaller than|below)"
    r"\b[^()\n]{0,80}?\((?P<bound>-?\d+(?:\.\d+)?)\)"
)


# How a check relates a size to its bound, in words or symbols (a group per relation).
_RELATION_WORDS = (
    r"(?:(?P<most>(?:less|smaller)(?: than)? or equal to|at most|no (?:more|greater|larger) than|<=)"
    r"|(?P<least>(?:greater|larger)(?: than)? or equal to|at least|no (?:less|fewer|smaller) than|>=)"
    r"|(?P<below>less than|smaller than|fewer than|<)|(?P<above>greater than|larger than|more than|>))"
)
# A size's name in a check: its flag or its field.
_NAME = r"(?:--[a-z0-9][a-z0-9-]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
# A bound computed from other sizes, its value shown after the expression: "x must be less
# than or equal to y - 1 (3)", "x must be at least y * 4 (16)".
_BOUND_SHOWN = re.compile(
    rf"(?<![\w-])(?P<a>{_NAME}) (?:must|should) be {_RELATION_WORDS} "
    r"(?P<expr>[^()\n.;,]{1,80}?[a-z_][^()\n.;,]{0,80}?) \((?P<bound>-?\d+(?:\.\d+)?)\)"
)
# Two sizes related by name with nothing computed after the second: "a should be greater
# than or equal to b", "--a must be less than --b".
_SIZES_RELATED = re.compile(
    rf"(?<![\w-])(?P<a>{_NAME}) (?:must|should) be {_RELATION_WORDS} "
    rf"(?:the )?(?P<b>{_NAME})(?=\s*(?:[.;,)]|$|\n|\s(?![-+*/x\d(])))"
)
_RELATION_OF_GROUP = {"most": "<=", "least": ">=", "below": "<", "above": ">"}


# The bound named first, its value in parentheses, the user's size after it:
# "SGLANG_X (default 4096) must be larger or equal to chunked_prefill_size".
_BOUND_FIRST = re.compile(
    rf"(?<![\w-])[A-Za-z_][\w.]* \((?:default:? |= ?)?(?P<bound>-?\d+(?:\.\d+)?)\) (?:must|should) be "
    rf"{_RELATION_WORDS} (?:the )?(?P<a>{_NAME})(?![\w-])"
)
# A relation read from the other side (bound <= x is x >= bound).
_FLIPPED = {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}


def _bound_named_first(message: str, flags: Flags) -> list[Move]:
    """The user's size a check names after its bound ("B (4096) must be at least x"): set
    to the bound (one past it for a strict one on an int), when its value is on the wrong
    side."""
    found = (
        _set_to_bound(m.group("a"), _FLIPPED[_relation(m)], float(m.group("bound")), flags)
        for m in _BOUND_FIRST.finditer(message)
    )
    return [move for move in found if move is not None]


def _bound_shown(message: str, flags: Flags) -> list[Move]:
    """The flag set to the bound a check computes and shows ("(3)"), one past it for a
    strict bound on an int; the user's value, where known, must be on the wrong side."""
    found = (
        _set_to_bound(m.group("a"), _relation(m), float(m.group("bound")), flags)
        for m in _BOUND_SHOWN.finditer(message)
    )
    return [move for move in found if move is not None]


def _set_to_bound(name: str, relation: str, bound: float, flags: Flags) -> Move | None:
    """The flag ``name`` writes set to the value nearest ``bound`` that holds ``relation``
    to it, unless the user's value does already (then the bound is not what failed)."""
    flag = _name_of(name)
    spelled = flags.spelling(flag)
    if spelled is None or flags.is_pinned(flag):
        return None
    value, held = _value_meeting(relation, bound, flag, flags), as_number(flags.candidate.arg(spelled))
    if value is None or (held is not None and _already_meets(relation, held, value)):
        return None
    return _inferred([Edit(EditOp.SET, flags.target(flag), _tidy(value))], "bound")


def _sizes_related(message: str, flags: Flags, resolved: Mapping[str, object]) -> list[Move]:
    """The size a check is about set to the value of the size it is bounded by (one past
    it for a strict bound on ints), where that one's value is known and the first is on
    the wrong side of it."""
    out: list[Move] = []
    for found in _SIZES_RELATED.finditer(message):
        a, b = (_name_of(found.group(k)) for k in ("a", "b"))
        spelled = flags.spelling(a)
        if a == b or spelled is None or flags.is_pinned(a):
            continue
        other = as_number(flags.value(b, resolved))
        held = as_number(flags.candidate.arg(spelled))
        value = _value_meeting(_relation(found), other, a, flags) if other is not None else None
        if value is not None and held is not None and not _already_meets(_relation(found), held, value):
            out.append(_inferred([Edit(EditOp.SET, flags.target(a), _tidy(value))], "bound"))
    return out


# A condition a message states as a comparison: "1 < dp-size <= tp-size", "--x >= 2".
_OPERAND = r"(?:--?[a-z][a-z0-9-]*|[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+|-?\d+(?:\.\d+)?)"
_COMPARISON = re.compile(rf"(?<![\w-]){_OPERAND}(?:\s*(?:<=|>=|==|!=|<|>)\s*{_OPERAND})+(?![\w-])")
_COMPARISON_PARTS = re.compile(rf"({_OPERAND})|(<=|>=|==|!=|<|>)")


def _compared_in_message(message: str, flags: Flags) -> list[Move]:
    """A message's comparison of flag names (with or without dashes, or their fields) read
    as the failing statement of an assert would be: each comparison of a chain in turn."""
    out: list[Move] = []
    text = message[:MATCH_LINE]
    for found in _COMPARISON.finditer(text):
        if not _ASKED_BEFORE.search(_sentence_before(text, found.start())):
            continue  # a situation the message states ("x != y is only supported when ..."), not asked
        parts = [m.group(0) for m in _COMPARISON_PARTS.finditer(found.group(0))]
        operands = [_as_field(p, flags) if i % 2 == 0 else p for i, p in enumerate(parts)]
        if any(o is None for o in operands) or not any(str(o).startswith("self.") for o in operands[::2]):
            continue
        pairs = [f"{operands[i]} {operands[i + 1]} {operands[i + 2]}" for i in range(0, len(operands) - 2, 2)]
        out.extend(_from_source(f"assert {' and '.join(pairs)}", flags))
    return list(dict.fromkeys(out))


# Words that ask for the comparison after them: "Please set a x > 1", "You can use 1 < x <= y",
# "x must be ...", "only supported when x == 1".
_ASKED_BEFORE = re.compile(
    r"(?i)\b(?:set|use|need|needs|must|should|require|requires|required|expect|expects|expected|ensure)\b"
    r"|\bonly (?:supported|works?|allowed|valid|available) (?:when|if)\b"
)


def _sentence_before(text: str, at: int) -> str:
    """The words of ``text``'s sentence before ``at``."""
    start = max(text.rfind(". ", 0, at), text.rfind("; ", 0, at), text.rfind("\n", 0, at))
    return text[start + 1 : at]


def _as_field(operand: str, flags: Flags) -> str | None:
    """A comparison's operand as the source reader reads it: a number, or ``self.<field>``
    of a flag the parser has (None: a word that is no flag)."""
    if as_number(operand) is not None:
        return operand
    name = operand.lstrip("-").replace("_", "-")
    info = flags.catalog.flag(name)
    return f"self.{field_name(flags.catalog.canonical(name))}" if info is not None else None


def _relation(found: re.Match[str]) -> str:
    """The relation a match of ``_RELATION_WORDS`` states, as its symbol."""
    return next(symbol for group, symbol in _RELATION_OF_GROUP.items() if found.group(group))


def _value_meeting(relation: str, bound: float, flag: str, flags: Flags) -> float | None:
    """The value of ``flag`` nearest ``bound`` that meets ``relation``: the bound, or one
    past it for a strict one on an int flag; None for a strict one otherwise."""
    whole = bound.is_integer() and _takes_int(flag, flags)
    if relation in ("<", ">") and not whole:
        return None  # (no value just past a strict bound on a float)
    return _edge(relation, bound, 1.0)


def _already_meets(relation: str, held: float, value: float) -> bool:
    """The user's value is already on the side of ``value`` ``relation`` asks for: the
    bound is not what failed."""
    return held <= value if relation in ("<", "<=") else held >= value


def _edge(relation: str, bound: float, step: float) -> float:
    """The value nearest ``bound`` that holds ``relation`` to it: the bound itself, or a
    ``step`` past it for a strict one."""
    return {">": bound + step, ">=": bound, "<": bound - step, "<=": bound}[relation]


def _name_of(written: str) -> str:
    return written[2:] if written.startswith("--") else flag_name(written)


def _takes_int(flag: str, flags: Flags) -> bool:
    info = flags.catalog.flag(flag)
    return info is not None and info.type == "int"


def _past_bound(message: str, flags: Flags) -> list[Move]:
    """The user's value of a flag a message finds past a bound it names (the model's derived
    context length, a pool's capacity): set to that bound, which the check accepts."""
    out: list[Move] = []
    for found in _PAST_BOUND.finditer(message):
        flag = flag_name(found.group("field"))
        spelled = flags.spelling(flag)
        held = as_number(flags.candidate.arg(spelled)) if spelled else None
        if held is None and spelled is not None and flags.assume_present:
            held = float(found.group("value"))  # offline: the message shows the user's value
        bound = found.group("bound")
        if spelled is None or flags.is_pinned(flag) or held is None or held != float(found.group("value")):
            continue
        if (held > float(bound)) == (found.group("over") is not None):
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), bound)], "bound"))
    return out


# A violation shown as two numbers and a symbol, the user's value on the left: "aligned size
# 65536 > 40960".
_NUMBERS_COMPARED = re.compile(
    r"(?<![\w.-])(?P<a>-?\d+(?:\.\d+)?)\s*(?P<op><=|>=|<|>)\s*(?P<b>-?\d+(?:\.\d+)?)(?![\w.])"
)
# What holds where the shown relation fails.
_HOLDS_UNLESS = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}


def _numbers_compared(message: str, flags: Flags) -> list[Move]:
    """The one flag a message names, whose value it shows failing a bound by a symbol
    ("--x exceeds ...: 65536 > 40960"), set to the nearest value on the right side of that
    bound; a comparison the message asks for ("must satisfy ...") states none."""
    text = message[:MATCH_LINE]
    named = [f for f in named_flags(text) if flags.spelling(f) is not None and not flags.is_pinned(f)]
    if len(named) != 1:
        return []
    flag = named[0]
    held = as_number(flags.candidate.arg(flags.spelling(flag) or flag))
    out: list[Move] = []
    for found in _NUMBERS_COMPARED.finditer(text):
        asked = _ASKED_BEFORE.search(_sentence_before(text, found.start()))
        if held is None or float(found.group("a")) != held or asked:
            continue
        value = _value_meeting(_HOLDS_UNLESS[found.group("op")], float(found.group("b")), flag, flags)
        if value is not None:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), _tidy(value))], "bound"))
    return out


# A cap a check finds exceeded, named by its flag or field: "should not exceed
# max_loaded_loras", "exceeds --max-ep-size"; the values follow by name ("max_ep_size=8").
_CAP_EXCEEDED = re.compile(rf"(?:(?:should|must|cannot|can ?not|may) not exceed|exceeds?) (?:the )?(?P<cap>{_NAME})")
_SHOWN_BY_NAME = re.compile(r"\b(?P<field>[a-z][a-z0-9_]{0,60})=(?P<value>\d+)\b")


def _cap_raised(message: str, flags: Flags) -> list[Move]:
    """A cap raised to the count that passed it, both shown by name ("max_loaded_loras=2,
    lora_paths=4"): what the user asked for stays, under a cap that holds it."""
    out: list[Move] = []
    shown = {found.group("field"): int(found.group("value")) for found in _SHOWN_BY_NAME.finditer(message)}
    for found in _CAP_EXCEEDED.finditer(message):
        cap = _name_of(found.group("cap"))
        held = shown.get(field_name(cap))
        counts = [v for field, v in shown.items() if field != field_name(cap)]
        if held is None or flags.spelling(cap) is None or flags.is_pinned(cap) or not counts:
            continue
        if max(counts) > held:
            out.append(_inferred([Edit(EditOp.SET, flags.target(cap), str(max(counts)))], "bound"))
    return out


# A capacity shown with its number bounding a size a parenthesis names: "SGLANG_X_PER_RANK
# (default 4096) must be >= the per-rank dispatch tokens (chunked_prefill_size by default)".
_CAPACITY_SHOWN = re.compile(
    r"\((?:default:?\s*)?(?P<bound>\d+(?:\.\d+)?)\)\s+must be\s+"
    r"(?:>=|at least|no less than|greater than or equal to|larger than or equal to)\s+"
    r"(?P<rest>[^.;\n]{1,160})"
)


def _within_capacity(message: str, flags: Flags) -> list[Move]:
    """A size the user set past a capacity the message shows by its number, brought down to
    it: the check holds and the feature stays on (turning the size off comes later)."""
    out: list[Move] = []
    for found in _CAPACITY_SHOWN.finditer(message):
        bound = found.group("bound")
        for field in re.findall(r"\(([a-z][a-z0-9_]{1,60})\b", found.group("rest")):
            spelled = flags.spelling(flag_name(field))
            held = as_number(flags.candidate.arg(spelled)) if spelled else None
            if spelled and not flags.is_pinned(spelled) and held is not None and held > float(bound):
                out.append(_inferred([Edit(EditOp.SET, flags.target(spelled), bound)], "bound"))
    return out


def _as_numbers(text: str, flag: str = "", catalog: Catalog | None = None) -> tuple[str, ...] | None:
    """'2k' -> ('2000',), '100,1000' -> ('100', '1000'): each part a number or a size with a
    unit (as ``flag`` reads it when given, else plain_size); None when a part is neither, or
    nothing would change."""
    parts = [p.strip() for p in text.split(",")] if "," in text else [text.strip()]
    out: list[str] = []
    for part in parts:
        meant = as_meant(part, flag, catalog) if flag and catalog is not None and "," not in text else None
        plain = part if as_number(part) is not None else meant or plain_size(part)
        if not part or plain is None:
            return None
        out.append(plain)
    return tuple(out) if tuple(out) != (text,) else None


# What a check says of each member of a list: (words, which members go).
_MEMBER_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?i)non-?negative|>= ?0\b|must not be negative|cannot be negative"), "negative"),
    (re.compile(r"(?i)(?<!non-)(?<!non)\bpositive|> ?0\b"), "not-positive"),
    (re.compile(r"(?i)duplicate|unique|distinct"), "duplicate"),
)


# A list the message spells out as the one to give: "should only have one parameter: ['default']".
_SPELLED_LIST = re.compile(r"(?i)\b(?:should|must)\b[^.:;\n]{0,60}?:\s*\[(?P<items>(?:\s*'[^'\n]{1,40}'\s*,?){1,20})\]")


def _spelled_list(message: str, flags: Flags) -> list[Move]:
    """The list flag the message names set to the list it spells out."""
    found = _SPELLED_LIST.search(message)
    if found is None:
        return []
    items = tuple(re.findall(r"'([^'\n]*)'", found.group("items")))
    return [
        _inferred([Edit(EditOp.SET, name, items)], "members")
        for name, value in flags.candidate.args
        if isinstance(value, tuple) and (f"--{name}" in message or field_name(name) in message) and value != items
    ]


def _list_members(message: str, flags: Flags) -> list[Move]:
    """A list the message names whose members break its rule (non-negative, positive,
    no duplicates): the members that break it are taken out, the others kept."""
    out: list[Move] = []
    for name, value in flags.candidate.args:
        if not isinstance(value, tuple) or len(value) < 2 or flags.is_pinned(name):
            continue
        if not (f"--{name}" in message or field_name(name) in message):
            continue
        for pattern, rule in _MEMBER_RULES:
            if not pattern.search(message):
                continue
            kept = _members_kept(value, rule)
            if kept and kept != value and any(as_number(v) is not None for v in kept):
                out.append(_inferred([Edit(EditOp.SET, name, kept)], "members"))
    return out


# "Unsupported --x rule type: '100'. Must be one of: 'tse', 'default', 'custom'": the
# first member of a list must name its rule.
_RULE_NAME_REFUSED = re.compile(
    r"--(?P<flag>[a-z0-9][a-z0-9-]*)\s+(?:rule|type|mode|kind)(?:\s+type)?:?\s+'(?P<given>[^']*)'"
    r"[^:]{0,40}(?:one of|choose from|supported|allowed)[^:]{0,20}:\s*(?P<names>(?:'[\w-]+'(?:,\s*|\s+or\s+)?){2,})"
)
# The names of a rule that takes the values the user gives (the others compute them).
_USER_VALUES = frozenset(["custom", "manual", "explicit", "user", "list", "fixed", "values"])


def _rule_name_missing(message: str, flags: Flags) -> list[Move]:
    """A list flag given only the values of a rule whose name goes first: each name the
    message lists put in front of them, the one meaning values the user gives first."""
    found = _RULE_NAME_REFUSED.search(message)
    spelled = flags.spelling(found.group("flag")) if found else None
    if found is None or spelled is None or flags.is_pinned(spelled):
        return []
    value = flags.candidate.arg(spelled)
    if not isinstance(value, tuple) or not value or as_number(value[0]) is None or value[0] != found.group("given"):
        return []
    names = re.findall(r"'([\w-]+)'", found.group("names"))
    names.sort(key=lambda n: n.lower() not in _USER_VALUES)
    return [_inferred([Edit(EditOp.SET, flags.target(spelled), (name, *value))], "members") for name in names]


def _members_kept(value: tuple[str, ...], rule: str) -> tuple[str, ...]:
    if rule == "duplicate":
        return tuple(dict.fromkeys(value))
    keep = []
    for member in value:
        number = as_number(member)
        if number is not None and (number < 0 if rule == "negative" else number <= 0):
            continue
        keep.append(member)
    return tuple(keep)


# A list as YAML, JSON or Python writes it: [0, 1], (2, 4).
_WRAPPED_LIST = re.compile(r"^\s*[\[(](?P<inner>.*)[\])]\s*$")


def _comma_list(typed: re.Match[str], flags: Flags) -> tuple[str, ...] | None:
    """The values of a list flag written with commas ('700,10,10') or as YAML or JSON
    writes a list ('[0, 1]', whole or split by a shell), when each is a number of the
    flag's type; None otherwise."""
    spelling = flags.spelling(typed.group("flag"))
    if not flags.catalog.takes_list(typed.group("flag")) or not spelling:
        return None
    written = typed.group("value")
    held = flags.candidate.arg(spelling)
    members = _members(held) if held is not None else ()
    if written in members and _WRAPPED_LIST.match(" ".join(members)):
        written = " ".join(members)  # '[0,' '1]': a list a shell split
    wrapped = _WRAPPED_LIST.match(written)
    inner = wrapped.group("inner") if wrapped else written
    if wrapped is None and "," not in inner:
        return None
    parts = [p for p in re.split(r"\s*,\s*|\s+", inner.strip()) if p] if wrapped else inner.split(",")
    parts = [p.strip() for p in parts]
    if len(parts) < (1 if wrapped else 2):
        return None
    numbers = [as_number(p) for p in parts]
    if any(n is None or (typed.group("type") == "int" and not n.is_integer()) for n in numbers):
        return None
    return tuple(parts)


MAX_PORT = 65535  # the last TCP port
MAX_ON_VALUES = 3


MIN_BESIDE = 3  # shorter values (1, on, v2) are too often other flags' words


def on_values(flag: str, flags: Flags) -> list[ArgValue]:
    """Values that switch a value flag on, best first: a choice the user gives another flag,
    the catalogue's documented values, then the parser's own choices that do not mean off,
    in the parser's order. Empty when none says anything (no value is invented)."""
    info = flags.catalog.flag(flag)
    domain = [str(v) for v in flags.catalog.domain(flag)]
    choices = [str(c) for c in (info.choices if info else ()) if str(c).lower() not in OFF_WORDS]
    # A choice the user runs under another flag of this command (--disaggregation-transfer-backend
    # nixl: the NIXL store) belongs to the deployment already.
    runs = {value for _, value in flags.candidate.args if isinstance(value, str)}
    beside = [c for c in choices if c in runs and len(c) >= MIN_BESIDE]
    out = [normalize_value(v) for v in dict.fromkeys([*beside, *domain, *choices])]
    if not out and info is not None and info.type == "int" and flags.catalog.canonical(flag).endswith("-port"):
        out = [_next_free_port(flags)]
    return [v for v in out if v is not None][:MAX_ON_VALUES]


def _next_free_port(flags: Flags) -> str | None:
    """The port next to the server's own (--port, else the parser's default) that no other
    port flag of the command holds: where a second listener of the same server goes."""
    spelled = flags.spelling("port")
    info = flags.catalog.flag("port")
    server = as_number(flags.candidate.arg(spelled)) if spelled else as_number(info.default if info else None)
    if server is None or not server.is_integer():
        return None
    taken = {
        as_number(value)
        for name, value in flags.candidate.args
        if flags.catalog.canonical(name).endswith("port") and isinstance(value, str)
    }
    port = int(server) + 1
    while port in taken:
        port += 1
    return str(port) if port <= MAX_PORT else None


def _turn_on_value(flag: str, flags: Flags) -> ArgValue | None:
    """The value that sets a flag that is not set: a bare flag, or the first on-value."""
    info = flags.catalog.flag(flag)
    if info is not None and info.kind == "bool":
        return True
    values = on_values(flag, flags)
    return values[0] if values else None


def _made_to_match(message: str, flags: Flags) -> list[Move]:
    """Two values a message says must agree, shown in parentheses, one of them a named value
    the user gave a flag the message names: that flag set to the other (the checkpoint's
    "(fp8)" for the user's "(compressed-tensors)"), when the flag can take it."""
    if not _MUST_AGREE.search(message):
        return []
    shown = _PAREN_SHOWN.findall(message)
    out: list[Move] = []
    for name, value in flags.candidate.args:
        flag = flags.catalog.canonical(name)
        if not isinstance(value, str) or value not in shown or flags.is_pinned(flag):
            continue
        if flags.catalog.flag(flag) is None or as_number(value) is not None:
            continue  # (sizes that must be equal: the relation rules move the subject)
        if not _message_names(flag, flags.catalog, message):
            continue
        for other in dict.fromkeys(shown):
            if other != value and _valid_value(flag, other, flags):
                out.append(_inferred([Edit(EditOp.SET, name, other)], "message"))
    return out


_MUST_AGREE = re.compile(r"(?i)\bdo(?:es)?(?:n't| not) match\b|\bmismatch|\bmust (?:match|agree|equal)\b")
_PAREN_SHOWN = re.compile(r"\(([\w.:/-]+)\)")


# The value written right after a flag a message asks for ("requires --x none.").
_STATED_VALUE = re.compile(r"[ =](?P<value>[A-Za-z0-9_][\w.-]*?)[.,;)]?(?:\s|$)")


# "requires --a equal to --b", "--a must be equal to --b": one size set to the other's value.
_EQUAL_TO = re.compile(
    r"(?i:requires?|needs?|must be|should be)\s+--(?P<a>[a-z0-9][a-z0-9-]*)\s+(?i:(?:to )?(?:be )?equal to|"
    r"the same as)\s+--(?P<b>[a-z0-9][a-z0-9-]*)"
    r"|--(?P<a2>[a-z0-9][a-z0-9-]*)\s+(?i:must|should)\s+(?i:be\s+)?(?i:equal to|the same as)"
    r"\s+--(?P<b2>[a-z0-9][a-z0-9-]*)"
)


def _made_equal(a: str | None, b: str | None, flags: Flags) -> Edit | None:
    """``a`` set to ``b``'s value, when b's is known and a's is another number."""
    if a is None or b is None or a == b or flags.is_pinned(a) or flags.catalog.flag(a) is None:
        return None
    if flags.assume_present:
        return None  # (offline no size is known)
    number = as_number(_field_value(b, flags))
    spelled_a = flags.spelling(a)
    held = as_number(flags.candidate.arg(spelled_a)) if spelled_a else None
    if number is None or held == number:
        return None
    return Edit(EditOp.SET, flags.target(a), _tidy(number))


# The flag a sentence opens with ("--x requires ..."), right before the verb.
_ASKING_FLAG = re.compile(r"--(?P<flag>[a-z0-9][a-z0-9-]*)\s+$")


def _asked_by_users_flag(message: str, at: int, flag: str, value: str, flags: Flags) -> bool:
    """ "--x requires --flag value" where the user set --x and chose another value for --flag:
    x asks, and the user's own choice stays (x is dropped by the rules for named flags). A
    number is no such choice: a size retuned keeps both (topk 4 -> 1 for rejection
    sampling); offline no value is known."""
    spelled = flags.spelling(flag)
    if flags.assume_present or as_number(value) is not None:
        return False
    if spelled is None or str(flags.candidate.arg(spelled)) == value:
        return False
    asking = _ASKING_FLAG.search(message, max(0, at - 80), at)
    return asking is not None and flags.spelling(asking.group("flag")) is not None


def _stated_fits(flag: str, value: str, flags: Flags) -> bool:
    """A word written after a flag is its value: a valid one (_valid_value) of a flag with
    choices or one that takes a number (after any other flag a word may be the sentence
    going on: "equal to", "when")."""
    info = flags.catalog.flag(flag)
    if info is None or not (info.choices or info.type in ("int", "float")):
        return False
    return _valid_value(flag, value, flags)


def _overriders(message: str, flags: Flags) -> list[Move]:
    """Each on/off switch the user turned on that the message does not name, dropped: one
    of them makes SGLang override a value the user gave (--enable-waterfill picks deepep)."""
    named = set(named_flags(message))
    return [
        _inferred([Edit(EditOp.DROP, name)], "override")
        for name, value in flags.candidate.args
        if (info := flags.catalog.flag(name)) is not None
        and info.kind == "bool"
        and is_on(value)
        and flags.catalog.canonical(name) not in named
        and not flags.is_pinned(name)
    ]


def _asked_for(flag: str, flags: Flags) -> Move | None:
    """The move that gives a flag a message asks for, while it is not set: a switch or a
    choice turned on; a size the user gave under a name the asked-for one contains (dp-size
    in attn-dp-size) moved there with its value; a size that splits another's GPUs
    (catalogue ``splits``) given the whole of it. None when nothing gives a value."""
    if not flags.required(flag) or flags.catalog.flag(flag) is None:
        return None
    value = _turn_on_value(flag, flags)
    if value is not None:
        return _inferred([Edit(EditOp.SET, flag, value)], "message")
    words = set(flag.split("-"))
    for name, given in flags.candidate.args:
        if name != flag and set(name.split("-")) < words and _as_int(given) is not None and not flags.is_pinned(name):
            return _inferred([Edit(EditOp.RENAME, name, flag)], "message")
    whole = _split_whole(flag, flags)
    size = _as_int(flags.candidate.arg(flags.spelling(whole) or whole)) if whole else None
    if size is not None and size > 1:
        return _inferred([Edit(EditOp.SET, flag, str(size))], "message")
    return None


def _as_int(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


def _valid_value(flag: str, value: str, flags: Flags) -> bool:
    if value.lower() in _STOPWORDS:
        return False
    info = flags.catalog.flag(flag)
    if info is None:
        return not flags.catalog.flags  # no flag table: take the message's word for it
    if info.kind in ("bool", "bool_false"):
        return False
    if info.type in ("int", "float") and as_number(value) is None:
        return False  # a word after a size's flag is the sentence going on ("equal to")
    return not info.choices or value in [str(c) for c in info.choices]


def _nearest(value: str, items: Sequence[str]) -> str | None:
    try:
        target = float(value)
        numbers = [(float(i), i) for i in items]
    except ValueError:
        return None
    if not numbers:
        return None
    return min(numbers, key=lambda n: (abs(n[0] - target), -n[0]))[1]


# "EP size 10 must be divisible by attention replica size 4": a size named by its value in prose.
_VALUE_DIVISIBLE = re.compile(
    r"(?P<words>[A-Za-z][A-Za-z_ -]{0,40}?) (?P<value>\d+) (?:must|should) be (?:evenly )?divisible by"
    r" [A-Za-z_ -]{0,40}?(?P<divisor>\d+)\b"
)


def _value_made_divisible(message: str, flags: Flags) -> list[Move]:
    """The flag holding a value a message says must be divisible by another (the one
    whose name's words the message uses, when several hold it): the next multiple, then
    the one below if it is not under the divisor."""
    out: list[Move] = []
    for found in _VALUE_DIVISIBLE.finditer(message):
        value, divisor = int(found.group("value")), int(found.group("divisor"))
        holder = _flag_set_to(value, found.group("words"), flags)
        if holder is None or divisor <= 0 or value % divisor == 0:
            continue
        for multiple in _multiples_beside(value, divisor):
            out.append(_inferred([Edit(EditOp.SET, flags.target(holder), str(multiple))], "divisible"))
    return out


# "chunked_prefill_size must be divisible by page_size": two sizes named, no values shown.
_NAMED_DIVISIBLE = re.compile(
    rf"(?<![\w-])(?P<a>{_NAME}) (?:must|should) be (?:(?:evenly )?divisible by|a multiple of) (?:the )?(?P<b>{_NAME})"
)
# A size written in decimal thousands (8000) stands for binary ones (8 x 1024) where a
# power-of-two page size has to divide it.
DECIMAL_K, BINARY_K = 1000, 1024


def _named_made_divisible(message: str, flags: Flags, resolved: Mapping[str, object]) -> list[Move]:
    """The size the user set that a message says must be divisible by another named size
    whose value is known (the user's, or what SGLang resolved): set to a multiple of it.
    (A page size SGLang forced for a backend is no value of the user's: the source's
    reading of ``a % b == 0`` knows only those.)"""
    out: list[Move] = []
    for found in _NAMED_DIVISIBLE.finditer(message):
        a, b = (_name_of(found.group(k)) for k in ("a", "b"))
        spelled = flags.spelling(a)
        if a == b or spelled is None or flags.is_pinned(a) or flags.catalog.canonical(a) in flags.catalog.gpu_counts:
            continue  # (a GPU count is not raised to fit a group: the source's reading orders that)
        value, divisor = as_number(flags.candidate.arg(spelled)), as_number(flags.value(b, resolved))
        if value is None or divisor is None or not value.is_integer() or not divisor.is_integer() or divisor <= 0:
            continue
        out.extend(
            _inferred([Edit(EditOp.SET, flags.target(a), str(m))], "divisible")
            for m in _multiples_near(int(value), int(divisor))
        )
    return out


# "<field or --flag> cannot be '<value>'": the value that flag holds, refused.
_CANNOT_BE = re.compile(
    rf"(?<![\w-])(?P<name>{_NAME}) (?:cannot|can't|must not|should not) be ['\"`]?(?P<value>[\w.-]+)"
)


def _held_value_refused(message: str, flags: Flags, resolved: Mapping[str, object]) -> list[Move]:
    """A flag a message says cannot hold the value it holds (the user's, what SGLang
    resolved, else the parser's default): set to its other choices, first those the user's
    own flags point at (--deepep-mode belongs to deepep); an off value refused is not
    answered by another word for off."""
    out: list[Move] = []
    for found in _CANNOT_BE.finditer(message):
        flag, refused = _name_of(found.group("name")), found.group("value")
        info = flags.catalog.flag(flag)
        if info is None or not info.choices or flags.is_pinned(flag):
            continue
        held = flags.value(flag, resolved)
        if str(info.default if held is None else held).lower() != refused.lower():
            continue
        off = refused.lower() in OFF_WORDS
        others = [str(c) for c in info.choices if str(c) != refused and not (off and str(c).lower() in OFF_WORDS)]
        pointed = [c for c in others if any(name.startswith(f"{c}-") for name, _ in flags.candidate.args)]
        for choice in list(dict.fromkeys([*pointed, *others]))[:MAX_SIBLINGS]:
            out.append(_inferred([Edit(EditOp.SET, flags.target(flag), choice)], "message"))
    return out


def _multiples_near(value: int, divisor: int) -> list[int]:
    """Multiples of ``divisor`` an operator would write for ``value`` (none if it is one):
    its binary reading (8000: 8192) when that is one, the next one up, the one below."""
    if value % divisor == 0:
        return []
    binary = value // DECIMAL_K * BINARY_K
    found = [binary] if value % DECIMAL_K == 0 and binary % divisor == 0 else []
    return list(dict.fromkeys([*found, *_multiples_beside(value, divisor)]))


def _multiples_beside(value: int, divisor: int) -> list[int]:
    """The multiples of ``divisor`` next to ``value``: the one above, then the one below
    (when it is not under the divisor)."""
    below = value // divisor * divisor
    return [below + divisor, below] if below >= divisor else [below + divisor]


def _flag_set_to(value: int, words: str, flags: Flags) -> str | None:
    """The flag the user set to ``value``; among several, the one whose name's words
    ``words`` uses most (None: none, or no one word decides)."""
    holders = [
        name
        for name, held in flags.candidate.args
        if as_number(held) == value and not isinstance(held, bool) and not flags.is_pinned(name)
    ]
    if len(holders) <= 1:
        return holders[0] if holders else None
    said = set(re.split(r"[^a-z0-9]+", words.lower()))
    scored = sorted((-len(set(h.split("-")) & said), h) for h in holders)
    return scored[0][1] if scored[0][0] < scored[1][0] else None


def _other_side_of_bound(found: re.Match[str], flags: Flags) -> Edit | None:
    """The second size of "--a must be at most k times --b" moved until the bound holds
    for the first as it is (the nearest whole value), when the bound fails now."""
    a, b = found.group("a"), found.group("b")
    held_a, held_b = (as_number(flags.value(n, {})) if flags.spelling(n) else None for n in (a, b))
    if held_a is None or held_b is None or flags.is_pinned(b):
        return None
    k = 2.0 if found.group("double") else 0.5 if found.group("half") else float(found.group("times"))
    upper, strict = found.group("upper") is not None, found.group("equal") is None
    if k <= 0 or (held_a < k * held_b if upper else held_a > k * held_b) or (held_a == k * held_b and not strict):
        return None
    exact = held_a / k
    if upper:  # a <= k*b: b at least a/k
        needed = math.floor(exact) + 1 if strict else math.ceil(exact)
    else:  # a >= k*b: b at most a/k
        needed = math.ceil(exact) - 1 if strict else math.floor(exact)
    if needed < 1 or needed == held_b:
        return None
    return Edit(EditOp.SET, flags.target(b), str(needed))


# "Invalid expert_pack configuration: ... must be 1, got 4; ...": a value the user chose, and
# what it needs listed after it.
_INVALID_CONFIGURATION = re.compile(r"(?i)\binvalid (?P<value>[\w.-]{2,60}) (?:configuration|config|setup)\b")


def _invalid_choice_configured(message: str, flags: Flags) -> list[Move]:
    """The user's flag holding the value whose configuration the message calls invalid,
    dropped: the choice out before the layout is dismantled to meet what it needs."""
    found = _INVALID_CONFIGURATION.search(message)
    if found is None:
        return []
    value = found.group("value").lower()
    return [
        _inferred([Edit(EditOp.DROP, name)], "message")
        for name, held in flags.candidate.args
        if isinstance(held, str) and held.lower() == value and not flags.is_pinned(name)
    ]


# Python's logging module asked for a level it does not have (SGLang looks the word up on it).
_NO_LOG_LEVEL = re.compile(r"module 'logging' has no attribute '(?P<name>\w+)'")


def _log_level_meant(message: str, flags: Flags) -> list[Move]:
    """The flag holding a level word Python's logging does not know ('verbose', 'trace') set to
    the level it means there (choices.LOG_LEVEL_WORDS)."""
    found = _NO_LOG_LEVEL.search(message)
    if found is None:
        return []
    out: list[Move] = []
    for name, value in flags.candidate.args:
        meant = LOG_LEVEL_WORDS.get(str(value).lower()) if str(value).upper() == found.group("name") else None
        if meant is not None and not flags.is_pinned(name):
            out.append(_inferred([Edit(EditOp.SET, name, meant)], "message"))
    meant = LOG_LEVEL_WORDS.get(found.group("name").lower())
    if not out and flags.assume_present and meant is not None and flags.catalog.flag("log-level") is not None:
        # offline, the values unknown: the level flag is what SGLang looks the word up for
        out.append(_inferred([Edit(EditOp.SET, "log-level", meant)], "message"))
    return out


def _users_listed_switches(message: str, flags: Flags) -> list[Move]:
    """The user's own switches (an enable- flag set on) whose feature a list of features the
    message refuses names in words, each dropped: what an operator takes out before the
    subject of the refusal. A feature on by default is not the user's: no move from the list."""
    views = {
        flags.catalog.canonical(name): (name, value, ())
        for name, value in flags.candidate.args
        if name.startswith("enable-") and is_on(value)
    }
    out: list[Move] = []
    for found in _INCOMPATIBLE_LIST.finditer(message):
        for item in _LIST_SEPARATOR.split(found.group("items")):
            out.extend(switched_off(item, views))
    return out


def _value_moved(message: str, flags: Flags) -> list[Move]:
    """The user's value on a flag the message names (--x-decode-backend flashkda), where
    the message says to use that value on another flag ("Use --x-prefill-backend
    flashkda"): the first renamed to the second, the value kept."""
    out: list[Move] = []
    for found in _SUGGESTED_VALUE.finditer(message):
        flag, value = found.group("flag"), found.group("value").rstrip(".,;)")
        if not _valid_value(flag, value, flags) or flags.is_pinned(flag):
            continue
        for name, held in flags.candidate.args:
            moved = held == value and flags.catalog.canonical(name) != flags.catalog.canonical(flag)
            if moved and f"--{name}" in message[: found.start()] and not flags.is_pinned(name):
                # (the value kept under the flag that takes it: a rename)
                out.append(_inferred([Edit(EditOp.RENAME, name, flags.catalog.canonical(flag))], "message"))
    return out


def _from_message(message: str, flags: Flags) -> list[Move]:
    out: list[Move] = []

    def add(edits: list[Edit], origin: str = "message") -> None:
        out.append(_inferred(edits, origin))

    for found in _RECOMMENDED.finditer(message):
        flag = found.group("flag") or found.group("flag2")
        value = (found.group("value") or found.group("value2")).rstrip(".,;)")
        if _valid_value(flag, value, flags) and not flags.is_pinned(flag):
            add([Edit(EditOp.SET, flags.target(flag), value)], "recommended")
    out.extend(_value_moved(message, flags))
    unsupported = _NOT_SUPPORTED.search(message)
    if unsupported and flags.spelling(unsupported.group("flag")):
        add([Edit(EditOp.DROP, flags.target(unsupported.group("flag")))])
    for found in _NOT_IN_LIST.finditer(message):
        items = _listed_items(found.group("items"))
        best = _nearest(found.group("value"), items)
        if best is not None:
            add([Edit(EditOp.SET, flags.target(found.group("flag")), best)])
    for found in _MUST_BE_NUMBER.finditer(message):
        add([Edit(EditOp.SET, flags.target(found.group("flag")), found.group("value"))])
    for found in _BOUND_BY_MULTIPLE.finditer(message):
        other = _other_side_of_bound(found, flags)
        if other is not None:
            add([other])
    for found in _SUGGESTED_VALUE.finditer(message):
        flag, value = found.group("flag"), found.group("value").rstrip(".,;)")
        if _valid_value(flag, value, flags) and not _asked_by_users_flag(message, found.start(), flag, value, flags):
            add([Edit(EditOp.SET, flags.target(flag), value)])
    for found in _PAREN_VALUE.finditer(message):
        flag, value = found.group("flag"), found.group("value")
        if flags.catalog.flag(flag) is not None and _valid_value(flag, value, flags):
            add([Edit(EditOp.SET, flags.target(flag), value)])
    for found in _AND_FLAG.finditer(message):
        names = [found.group("a"), found.group("b")]
        if _REFUSED_PAIR.search(_sentence_at(message, found.start())):
            continue  # "cannot set --a and --b together": they exclude each other
        if all(flags.required(n) for n in names):
            values = [_turn_on_value(n, flags) for n in names]
            if all(v is not None for v in values):
                add([Edit(EditOp.SET, n, v) for n, v in zip(names, values, strict=True)])
    for found in _TURN_ON.finditer(message):
        flag = found.group("flag")
        stated = _STATED_VALUE.match(message, found.end())
        if stated is not None and _stated_fits(flag, stated.group("value"), flags):
            # "requires --flag value": that value, not the flag's usual way of turning on.
            spelled = flags.spelling(flag)
            if str(_field_value(flag, flags)) == stated.group("value"):
                # given (or the default) and refused still: a switch of the user's overrides it
                out.extend(_overriders(message, flags))
            elif not spelled:  # (a value the user chose otherwise stays: the other flag goes)
                add([Edit(EditOp.SET, flags.target(flag), stated.group("value"))])
        elif flags.required(flag):
            value = _turn_on_value(flag, flags)
            if value is not None:
                add([Edit(EditOp.SET, flag, value)])
    for found in _EQUAL_TO.finditer(message):
        edit = _made_equal(found.group("a") or found.group("a2"), found.group("b") or found.group("b2"), flags)
        if edit is not None:
            add([edit], "bound")
    for found in _ASKED_IN_PARENS.finditer(message):
        asked = _asked_for(found.group("flag") or found.group("flag2"), flags)
        if asked is not None:
            out.append(asked)
    out.extend(_made_to_match(message, flags))
    for found in _MUST_BE_SET.finditer(message):
        asked = _asked_for(found.group("flag") or flag_name(found.group("field")), flags)
        if asked is not None:
            out.append(asked)
    for found in _REQUIRES_THE.finditer(message):
        spelt = _value_with_its_flag(found.group("what"), flags)
        if spelt is not None:
            add([Edit(EditOp.SET, flags.target(spelt[0]), spelt[1])], "value")
    out.extend(_users_listed_switches(message, flags))
    turned_off = [found.group("words") for found in _TO_BE_OFF.finditer(message)]
    turned_on = [found.group("words") for found in _PLEASE_ENABLE.finditer(message)]
    if turned_off or turned_on:
        views = _flag_views(flags)  # (every flag of the parser: built once, when needed)
        for words in turned_off:
            out.extend(off_by_words(words, views))
        for words in turned_on:
            out.extend(on_by_words(words, views))
    for found in _TO_BE_ENABLED.finditer(message):
        disabling = "disable-" + "-".join(found.group("words").split())
        if flags.spelling(disabling):
            add([Edit(EditOp.DROP, flags.target(disabling))])
    # The flag a message opens with and refuses ("--A is incompatible with --B", "--A
    # conflicts with ..."): dropped before the object of the refusal.
    for subject in (_REFUSED_SUBJECT.match(message.strip()), _CONFLICTS.search(message)):
        if subject and flags.spelling(subject.group("flag")):
            add([Edit(EditOp.DROP, flags.target(subject.group("flag")))])
    for flag in _DROP_OBJECT.findall(message):
        if flags.spelling(flag):
            add([Edit(EditOp.DROP, flags.target(flag))])
    for found in _REFUSED_OBJECT.finditer(message):
        for flag in _features_named(found.group("what"), flags):
            add([Edit(EditOp.DROP, flags.target(flag))], "prose")
    hardware = _NEEDS_HARDWARE.search(message)
    if hardware and flags.spelling(hardware.group("flag")):
        flag, value = hardware.group("flag"), hardware.group("value")
        info = flags.catalog.flag(flag)
        preferred = [str(v) for v in flags.catalog.domain(flag)]
        choices = [str(c) for c in (info.choices if info else ())]
        others = [c for c in dict.fromkeys([*preferred, *choices]) if c != value and c in choices]
        if others:
            add([Edit(EditOp.SET, flags.target(flag), others[0])])
    for found in _RANGE.finditer(message):
        out.extend(_into_range(found, flags))
    out.extend(_without_feature(message, flags))
    out.extend(_refused_value_offline(message, flags))
    for found in _OUT_OF_RANGE.finditer(message):
        if flags.spelling(found.group("flag")):  # back to SGLang's own default
            add([Edit(EditOp.DROP, flags.target(found.group("flag")))])
    # "a smaller / larger --x", "increase --x", "at least N": a scale in that direction.
    for found in _DIRECTION.finditer(message):
        scaled = _scaled_edit(found, flags)
        if scaled is not None and found.group("down") is not None:
            scaled = _to_capacity(scaled, message, flags)
        if scaled is not None and found.group("least"):
            add([Edit(EditOp.SET, scaled.target, found.group("least"))])
        elif scaled is not None:
            add([scaled])
    for edit in _sized_in_words(message, flags):
        add([edit])
    out.extend(_inferred([e], "timeout") for e in _timeouts_that_fired(message, flags))
    # A value the user set, named in prose where the message says what is not supported
    # ("not supported with Flex Attention backend", attention-backend: flex_attention).
    for name, value in flags.candidate.args:
        named_flag = f"--{name}" in message or field_name(name) in message
        if isinstance(value, str) and not named_flag and _mentioned(value, message) and not flags.is_host_fact(name):
            add([Edit(EditOp.DROP, name)], "value")
    return out


# "required=1024, capacity=128": how much is needed and how much fits.
_NEED_AND_CAPACITY = re.compile(
    r"(?i)\b(?:required|requested|needs?)\s*[=:]?\s*(?P<need>\d+(?:\.\d+)?)\b[^.;\n]{0,40}?"
    r"\b(?:capacity|available|limit|cap)\s*[=:]?\s*(?P<have>\d+(?:\.\d+)?)\b"
)


def _to_capacity(scaled: Edit, message: str, flags: Flags) -> Edit:
    """A size asked to come down where the message says what is needed and what fits: down
    by that ratio (an eighth when a chunk needs 1024 of 128), not a halving at a time."""
    found = _NEED_AND_CAPACITY.search(message)
    current = as_number(flags.value(scaled.target, {}))
    if found is None or current is None:
        return scaled
    need, have = float(found.group("need")), float(found.group("have"))
    if not 0 < have < need or have / need >= 0.5:
        return scaled
    return Edit(EditOp.SCALE, scaled.target, _tidy(max(1, math.floor(current * have / need))))


# "too large tensor parallel size", "the pipeline parallel size is too small": a size named
# by its prose words (catalogue words) and a direction, within a few words of each other.
_TOO = re.compile(r"(?i)\btoo (?:(?P<big>large|big|high|many|much)|small|low|few|little)\b")
_TOO_NEAR = 40  # characters between the direction and the flag's words


def _sized_in_words(message: str, flags: Flags) -> list[Edit]:
    """Scales of the flags a message calls too large or too small in words, from the value
    the candidate holds (none offline or for a flag it does not set)."""
    lowered = message.lower()
    out: list[Edit] = []
    for found in _TOO.finditer(message):
        near = lowered[max(0, found.start() - _TOO_NEAR) : found.end() + _TOO_NEAR]
        for flag, phrases in flags.catalog.words.items():
            edit = _scale_held(flag, found.group("big") is not None, flags) if any(p in near for p in phrases) else None
            if edit is not None and edit not in out:
                out.append(edit)
    return out


def _scaled_edit(found: re.Match[str], flags: Flags) -> Edit | None:
    """The scale a "smaller / larger --x" match asks for (_scale_held)."""
    return _scale_held(found.group("flag"), found.group("down") is not None, flags)


def _scale_held(flag: str, smaller: bool, flags: Flags) -> Edit | None:
    """A scale of ``flag`` in that direction from the value the candidate holds (None: no
    value known, or offline)."""
    current = as_number(flags.value(flag, {})) if flags.spelling(flag) else None
    if current is None or flags.assume_present:
        return None
    return Edit(EditOp.SCALE, flags.target(flag), _scaled(flag, current, smaller))


# A fraction (of GPU memory …) moves by a tenth and stays below 1; other sizes halve or double.
MAX_FRACTION = 0.95


def _scaled(flag: str, current: float, smaller: bool) -> float:
    if "fraction" in flag and 0 < current <= 1:
        return _tidy(round(current * 0.9, 3)) if smaller else _tidy(round(min(MAX_FRACTION, current * 1.1), 3))
    return _tidy(round(current * (0.5 if smaller else 2.0), 3))


# (bounded runs around "timeout": an unbounded one would be retried from every letter)
_FIRED_TIMEOUT = re.compile(r"(?P<field>[a-z][a-z0-9_]{0,60}timeout[a-z0-9_]{0,30})=(?P<value>\d+(?:\.\d+)?)\b")
TIMEOUT_GROWTH = 4


def _timeouts_that_fired(message: str, flags: Flags) -> list[Edit]:
    """A timeout the failure names by its field and value ("Watchdog timeout
    (self.watchdog_timeout=300)"): it fired, so it grows (a slow first step, not a hang,
    is what a longer one lets through)."""
    if "timeout=" not in message or not re.search(r"(?i)time(?:d)? ?out", message):
        return []
    out = []
    for found in _FIRED_TIMEOUT.finditer(message):
        flag = flag_name(found.group("field"))
        if flags.catalog.flag(flag) is None or flags.is_pinned(flag):
            continue
        value = float(found.group("value")) * TIMEOUT_GROWTH
        out.append(Edit(EditOp.SET, flags.target(flag), str(int(value)) if value.is_integer() else str(value)))
    return out


_LIMITED = re.compile(
    r"(?i)\bnot (?:yet |currently )?support|\bonly supports?\b|\bincompatible\b|\bcannot be used|\bnot compatible"
    r"|\b(?:should|must) be (?:set to )?1\b|==\s*1\b"
)


def _folded(message: str, flags: Flags) -> list[Move]:
    """A size the message refuses (by name or in prose) folded into the size it multiplies
    with (catalogue ``folds``: pp 2 at tp 4 -> tp 8): the GPUs and everything else stay."""
    if not _LIMITED.search(message):
        return []
    out: list[Move] = []
    for size, into in flags.catalog.folds.items():
        spelled = flags.spelling(size)
        if spelled is None or flags.is_pinned(size) or flags.is_pinned(into):
            continue
        if not _message_names(size, flags.catalog, message):
            continue
        if not flags.known(size):  # offline, sizes unknown: the refused size goes
            out.append(_inferred([Edit(EditOp.DROP, spelled)], FOLD_ORIGIN))
            continue
        count, other = as_number(flags.candidate.arg(spelled)), as_number(flags.value(into, {}))
        if count is None or count <= 1 or not count.is_integer():
            continue
        product = int(count * (other if other and other.is_integer() else 1))
        edits = [Edit(EditOp.DROP, spelled), Edit(EditOp.SET, flags.target(into), str(product))]
        edits += _spanning(into, other, product, flags)
        out.append(_inferred(edits, FOLD_ORIGIN))
    return out


def _spanning(whole: str, before: float | None, after: int, flags: Flags) -> list[Edit]:
    """Sizes that split ``whole`` and spanned all of it (EP 4 of TP 4), set to span all of
    its new size: a fold keeps what each group covered."""
    out: list[Edit] = []
    for flag in flags.catalog.splits:
        spelled = flags.spelling(flag)
        if spelled is None or _split_whole(flag, flags) != whole or flags.is_pinned(flag):
            continue
        if before is not None and as_number(flags.candidate.arg(spelled)) == before:
            out.append(Edit(EditOp.SET, spelled, str(after)))
    return out


def _switch_written_out(text: str, flags: Flags) -> list[Move]:
    """Each on/off switch the user turned on that ``text`` writes out as --flag: dropped."""
    out: list[Move] = []
    for flag in dict.fromkeys(_FLAG_IN_TEXT.findall(text[:MATCH_LINE])):
        spelled = flags.spelling(flag)
        info = flags.catalog.flag(flag)
        if spelled is None or info is None or info.kind != "bool" or flags.is_pinned(flag):
            continue
        if is_on(flags.candidate.arg(spelled)) and flags.catalog.canonical(flag).startswith("enable-"):
            out.append(_inferred([Edit(EditOp.DROP, spelled)], "message"))
    return out


def _named_in_message(message: str, flags: Flags) -> list[Move]:
    """Last resort, after everything the message and the code say: a flag the message
    names (--x or its field x_y) goes back to its default. A flag the message asks to
    make smaller or larger, or asks for, is not dropped."""
    directed = {found.group("flag") for found in _DIRECTION.finditer(message)}
    # A flag the message asks for ("requires --is-embedding") is not one to drop (offline
    # every named flag is assumed set, this one too).
    directed |= {found.group("flag") for found in _TURN_ON.finditer(message) if flags.required(found.group("flag"))}
    return [
        _inferred([Edit(EditOp.DROP, flags.target(flag))], "message")
        for flag in named_flags(message)
        if flags.spelling(flag) and flag not in directed
    ]


# Words of flag names that say what kind of knob it is, not what it is about.
_KNOB_WORDS = frozenset(
    [
        "enable",
        "disable",
        "use",
        "force",
        "enforce",
        "size",
        "num",
        "max",
        "min",
        "backend",
        "mode",
        "path",
        "model",
        "device",
        "type",
        "config",
        "kind",
        "strategy",
        "policy",
        "method",
        "level",
        "file",
        "dir",
        "port",
        "host",
        "id",
        "ids",
        "value",
        "values",
    ]
)
_CAMEL_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
MAX_RELATED = 3


def _message_words(text: str) -> set[str]:
    """Lower-case words of ``text``: each word whole, its CamelCase parts, and the initials
    of a CamelCase word of two parts or more (InfiniBand: infiniband, infini, band, ib)."""
    out: set[str] = set()
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", text):
        parts = _CAMEL_PART.findall(word)
        out.add(word.lower())
        out.update(p.lower() for p in parts)
        if len(parts) >= 2 and all(p[:1].isalpha() for p in parts):
            out.add("".join(p[0] for p in parts).lower())
    return out


def _related_by_words(text: str, flags: Flags) -> list[Move]:
    """Last resort when nothing else is proposed: the flags the user set whose own words
    (not knob words: size, backend, mode …) or value the message uses, most shared first."""
    said = _message_words(text[:MATCH_LINE])
    scored: list[tuple[int, int, str]] = []
    for order, (name, value) in enumerate(flags.candidate.args):
        if flags.is_pinned(name) or flags.is_host_fact(name):
            continue
        words = {w for w in name.split("-") if w not in _KNOB_WORDS and len(w) >= 2}
        if isinstance(value, str) and not as_number(value) and "/" not in value:
            words |= {w for w in re.split(r"[^a-z0-9]+", value.lower()) if len(w) >= 3 and not w.isdigit()}
        shared = len(words & said)
        if shared:
            scored.append((-shared, order, name))
    return [_inferred([Edit(EditOp.DROP, name)], WORDS_ORIGIN) for _, _, name in sorted(scored)[:MAX_RELATED]]


def named_flags(message: str) -> list[str]:
    """Flags a message names, as --flag or as their field (served_model_name), in order."""
    named = [*_FLAG_IN_TEXT.findall(message), *(flag_name(f) for f in _FIELD_IN_TEXT.findall(message))]
    return list(dict.fromkeys(named))


PERCENT = 100
MIN_PERCENT = 10


def _into_range(found: re.Match[str], flags: Flags) -> list[Move]:
    """A value outside the range the message states: a percentage read as the fraction a
    range from 0 to 1 wants (80: 0.8), what the target itself would use when the flag is
    unset (its fallback or default) if that lies inside, then the nearest value inside
    (the bound; an int steps past an open one)."""
    flag = found.group("flag")
    if not flags.spelling(flag):
        return []
    lo, hi = float(found.group("lo")), float(found.group("hi"))
    lo_open, hi_open = found.group("open") == "(", found.group("close") == ")"

    def inside(x: float) -> bool:
        return (lo < x if lo_open else lo <= x) and (x < hi if hi_open else x <= hi)

    info = flags.catalog.flag(flag)
    target = flags.target(flag)
    out: list[Move] = []
    current = None if flags.assume_present else as_number(flags.candidate.arg(target))
    if (lo, hi) == (0, 1) and current is not None and float(current).is_integer() and MIN_PERCENT <= current <= PERCENT:
        # A fraction written as a percentage (80 for 0.8): what the user evidently meant
        # (a whole number from 10: 1.5 or 2 given for a fraction is no percentage).
        out.append(_inferred([Edit(EditOp.SET, target, str(_tidy(round(current / PERCENT, 6))))], "range"))
    for own in (info.fallback, info.default) if info is not None else ():
        number = as_number(own)
        if number is not None and inside(number):
            out.append(_inferred([Edit(EditOp.SET, target, str(_tidy(number)))], "range"))
            break
    if current is not None and not inside(current):
        step = 1.0 if info is not None and info.type == "int" else None
        edge = hi if current > hi else lo
        is_open = hi_open if current > hi else lo_open
        if is_open:
            edge = (edge - step if current > hi else edge + step) if step else math.nan
        if not math.isnan(edge) and inside(edge):
            out.append(_inferred([Edit(EditOp.SET, target, str(_tidy(edge)))], "range"))
    return out


def _without_feature(message: str, flags: Flags) -> list[Move]:
    """A value the user chose, named where the message says it needs hardware this host
    does not have ("UNO only supports CUDA."): that feature goes, with the options the
    user set for it (flags named after the value, or sharing the selecting flag's first
    word), then the selecting flag alone."""
    found = _HARDWARE_ONLY.search(message) or _NOT_ON_DEVICE.search(message)
    if found is None:
        return []
    what = f" {re.sub(r'[^a-z0-9]+', ' ', found.group('what').lower())} "
    out: list[Move] = []
    for name, value in flags.candidate.args:
        if not isinstance(value, str) or flags.is_pinned(name) or "/" in value or len(value) < 3:
            continue
        words = re.sub(r"[^a-z0-9]+", " ", value.lower()).strip()
        if not words or f" {words} " not in what:
            continue
        stem, head = words.replace(" ", "-"), name.split("-")[0]
        companions = [
            other
            for other, _ in flags.candidate.args
            if other != name
            and not flags.is_pinned(other)
            and (other.startswith(f"{stem}-") or other.split("-")[0] == head)
        ]
        for other in _values_run_beside(name, value, flags):
            out.append(_inferred([Edit(EditOp.SET, name, other)], "hardware"))
        if companions:
            out.append(_inferred([Edit(EditOp.DROP, n) for n in [name, *companions]], "hardware"))
        out.append(_inferred([Edit(EditOp.DROP, name)], "hardware"))
    # A switch the user turned on, named by the words of its feature ("Deterministic
    # rejection sampling is supported only on CUDA": speculative-use-rejection-sampling).
    for name, info in flags.catalog.flags.items():
        if info.kind != "bool" or name.startswith("disable-") or flags.is_pinned(name):
            continue  # (dropping a disable- switch turns its feature on)
        if flags.spelling(name) is not None and any(phrase in what for phrase in _feature_phrases(name)):
            out.append(_inferred([Edit(EditOp.DROP, flags.target(name))], "hardware"))
    return out


def _values_run_beside(name: str, refused: str, flags: Flags) -> list[str]:
    """The values the user gave other flags with the same choices as ``name`` (the decode
    backend beside the prefill one), that ``name`` takes too: the implementations the user
    runs on this hardware."""
    info = flags.catalog.flag(name)
    choices = set(map(str, info.choices)) if info is not None else set()
    out: list[str] = []
    for other, value in flags.candidate.args:
        twin = flags.catalog.flag(other)
        if other == name or twin is None or set(map(str, twin.choices)) != choices or not isinstance(value, str):
            continue
        if value in choices and value != refused and value.lower() not in _GENERIC_CHOICES:
            out.append(value)
    return list(dict.fromkeys(out))


_SWITCH_WORDS = frozenset({"enable", "use", "disable", "force", "enforce"})


def _feature_phrases(flag: str) -> list[str]:
    """The feature a switch names, as phrases of two words or more: every tail of its
    name that does not start with a switch word (speculative-use-rejection-sampling:
    'rejection sampling', 'speculative use rejection sampling' is not said)."""
    words = flag.split("-")
    tails = range(len(words) - 1)  # every tail of two words or more
    return [f" {' '.join(words[i:])} " for i in tails if words[i] not in _SWITCH_WORDS]


def _words(text: str) -> str:
    """Lower-case words separated by single blanks, padded: phrases match on word bounds."""
    return f" {re.sub(r'[^a-z0-9]+', ' ', text.lower()).strip()} "


def _holder_of_value(text: str, flags: Flags) -> tuple[str, str] | None:
    """The flag whose parser choices hold a value named in ``text`` ("TRTLLM MHA" is
    trtllm_mha), and that value. Several flags share a choice (every attention backend
    flag has trtllm_mha): the one whose own name's words the text uses most ("backend for
    prefill": prefill-attention-backend), then the most general (fewest words)."""
    named = _words(text)
    said = set(named.split())
    best: tuple[tuple[int, int, int, int], str, str] | None = None
    for order, (name, info) in enumerate(flags.catalog.flags.items()):
        if flags.is_pinned(name):
            continue
        named_choices = [
            str(c)
            for c in info.choices
            if len(str(c)) >= 3 and str(c).lower() not in OFF_WORDS and _words(str(c)) in named
        ]
        if not named_choices:
            continue
        # The fullest mention first: "TRTLLM MHA" is trtllm_mha, not a flag whose choice is trtllm.
        value = max(named_choices, key=lambda c: len(_words(c).split()))
        words = name.split("-")
        key = (-len(_words(value).split()), -sum(w in said for w in words), len(words), order)
        if best is None or key < best[0]:
            best = (key, name, value)
    return (best[1], best[2]) if best is not None else None


def _value_with_its_flag(text: str, flags: Flags) -> tuple[str, str] | None:
    """A parser choice named in ``text`` together with every word of the flag that holds it
    ("the fa3 prefill attention backend": prefill-attention-backend, fa3), while that flag
    holds another value. A value named alone ("requires flashinfer") says no flag."""
    holder = _holder_of_value(_FLAG_IN_TEXT.sub(" ", text), flags)
    if holder is None:
        return None
    flag, value = holder
    said = set(_words(text).split())
    if not set(flag.split("-")) <= said or flags.candidate.arg(flags.target(flag)) == value:
        return None
    return holder


def _required_value(message: str, flags: Flags) -> list[Move]:
    """A value the message says is the only one supported, named in prose ("only supported
    for decode side"): the flag whose choices hold it is set to it. Weaker than any flag or
    field the message names, so it comes after them."""
    out: list[Move] = []
    for found in _ONLY_FOR_VALUE.finditer(message):
        holder = _holder_of_value(_FLAG_IN_TEXT.sub(" ", found.group("what")), flags)
        if holder is not None and flags.candidate.arg(flags.target(holder[0])) != holder[1]:
            out.append(_inferred([Edit(EditOp.SET, flags.target(holder[0]), holder[1])], "value"))
    return out


def _features_named(text: str, flags: Flags) -> list[str]:
    """On/off flags a refusal's object names by their own words ("does not support dp
    attention": enable-dp-attention), set in the candidate (offline: assumed set)."""
    named = _words(_FLAG_IN_TEXT.sub(" ", text))
    out: list[str] = []
    for name, info in flags.catalog.flags.items():
        if info.kind != "bool" or not name.startswith("enable-") or flags.is_pinned(name):
            continue
        feature = _words(name.removeprefix("enable-"))
        if feature in named and flags.spelling(name) is not None:
            out.append(name)
    return out


def _refused_value_offline(message: str, flags: Flags) -> list[Move]:
    """Offline (no candidate: its values are unknown), a value the message refuses or
    says needs other hardware, named in prose, goes: the flag whose parser choices hold
    it is dropped (the search, which knows the values, drops the flag the user set)."""
    if not flags.assume_present or flags.candidate.args or _FLAG_IN_TEXT.search(message):
        return []  # a message naming its flags is read by the rules for flags
    texts: list[str] = []
    hardware = _HARDWARE_ONLY.search(message)
    if hardware is not None:
        texts.append(hardware.group("what"))
    refusal = _REFUSAL.search(message)
    if refusal is not None:
        texts.extend((message[: refusal.start()], message[refusal.start() :]))
    for text in texts:
        holder = _holder_of_value(text, flags)
        if holder is not None:
            return [_inferred([Edit(EditOp.DROP, holder[0])], "value")]
    return []


MAX_SIBLINGS = 2
# Choices that are words any log uses: naming one is no sign the crash was in it.
_GENERIC_CHOICES = frozenset({*OFF_WORDS, "auto", "default", "prefill", "decode", "normal", "null"})


def _telling_choice(value: str) -> bool:
    """A choice distinctive enough that a message naming it names that choice."""
    return len(value) >= 4 and value.lower() not in _GENERIC_CHOICES


def _names_choice(said: str, value: str) -> bool:
    """``said`` (lower case, padded with spaces) names ``value`` as a whole word."""
    return re.search(rf"(?<![a-z0-9_]){re.escape(value.lower())}(?![a-z0-9_])", said) is not None


def _other_choices(info: FlagInfo, value: str) -> list[str]:
    """The flag's distinctive choices besides ``value``: neither a generic one (auto, none)
    nor a variant of it."""
    return [str(c) for c in info.choices if str(c).lower() not in _GENERIC_CHOICES and not _variant(str(c), value)]


def _variant(choice: str, value: str) -> bool:
    """One choice is the other with more said (flashinfer_trtllm_routed of flashinfer_trtllm)."""
    return choice.startswith(value) or value.startswith(choice)


# A failure that states two sides that differ ("x does not match y", "expected x, got y").
_MISMATCH = re.compile(r"does(?: not|n't) match|mismatch|\bexpected\b.{0,80}?\bgot\b|!=")


def _chosen_value_named(text: str, flags: Flags) -> list[Move]:
    """At run time, a choice the user made (a value among its flag's parser choices) that
    the failure names: another choice the failure names as well (a mismatch's other side),
    another implementation of the same feature (sibling choices, the same family prefix:
    flashinfer_trtllm -> flashinfer_cutlass, not a variant such as
    flashinfer_trtllm_routed), then the flag's default."""
    said = f" {text[:MATCH_LINE].lower()} "
    out: list[Move] = []
    for name, value in flags.candidate.args:
        info = flags.catalog.flag(name)
        if not isinstance(value, str) or info is None or value not in map(str, info.choices):
            continue
        if flags.is_pinned(name) or not _telling_choice(value) or not _names_choice(said, value):
            continue
        if flags.catalog.canonical(name) in flags.catalog.primary:
            continue  # the role, the algorithm, the sizes: what the operator asked for
        # Another choice of the flag the failure names too: the other side of a mismatch
        # ("q is bfloat16, the plan float16").
        named = [
            str(c)
            for c in _other_choices(info, value)
            if _MISMATCH.search(said) and _telling_choice(str(c)) and _names_choice(said, str(c))
        ]
        out.extend(_inferred([Edit(EditOp.SET, name, other)], "chosen") for other in named[:1])
        family = re.split(r"[_-]", value)[0]
        # Another implementation, not a variant of the one that crashed (x_routed of x).
        siblings = [
            str(c)
            for c in info.choices
            if re.match(rf"{re.escape(family)}[_-]", str(c)) and not _variant(str(c), value)
        ]
        if flags.catalog.holds_default(name, value):
            # The default crashed: going back to it is the same launch, so every other
            # implementation is a sibling (not a generic auto / none).
            siblings += _other_choices(info, value)
        siblings = list(dict.fromkeys(siblings))[:MAX_SIBLINGS]
        out.extend(_inferred([Edit(EditOp.SET, name, sibling)], "chosen") for sibling in siblings)
        out.append(_inferred([Edit(EditOp.DROP, name)], "chosen"))
        # SGLang's own pick may be the kernel that crashed: then the one that runs everywhere.
        portable = _portable_beside(flags.catalog.canonical(name), value, info, flags)
        if portable is not None and portable not in siblings:
            out.append(_inferred([Edit(EditOp.SET, name, portable)], "chosen"))
    return out


def _resolved_choice_refused(message: str, flags: Flags, resolved: Mapping[str, object]) -> list[Move]:
    """A value SGLang resolved for a flag the user left unset (an automatic strategy made
    concrete), named by a check that refused it and names no flag: that flag set
    explicitly to another of its choices, neither the automatic one nor a variant of the
    refused value."""
    named = ((flag_name(field), value) for field, value in resolved.items())
    # A value the user gave another flag, inherited (the draft's quantization is the
    # target's): the refusal is the user's flag's, not the inheritor's.
    given = {str(value) for _, value in flags.candidate.args}
    unset = [(flag, value) for flag, value in named if flags.spelling(flag) is None and str(value) not in given]
    return _choices_refused_by_value(message, unset, flags, "resolved")


# A failure that says what a value needs ("extra_buffer needs CUDA/MUSA/NPU").
_NEEDS = re.compile(r"(?i)\b(?:needs?|requires?)\b")


def _unset_choice_refused(message: str, flags: Flags, resolved: Mapping[str, object]) -> list[Move]:
    """A distinctive choice only one flag of the parser has (an identifier), named by a failure that refuses
    it or says what it needs, where the user left that flag unset and nothing says what
    SGLang resolved (a running server's log): SGLang picked it by itself, so the flag is set
    to its other distinctive choices, as for a resolved value."""
    refusal = _REFUSAL.search(message) or _NEEDS.search(message)
    if _FLAG_IN_TEXT.search(message) or refusal is None:
        return []
    # the subject of the refusal: what comes before its words ("extra_buffer needs ...",
    # not the "Supported architectures: ..., Qwen3.5" after "is not supported")
    said = f" {message[: refusal.start()].lower()} "
    holders: dict[str, list[str]] = {}
    for flag, info in flags.catalog.flags.items():
        for choice in map(str, info.choices):
            # (an identifier, extra_buffer, not a word prose uses: "cache", "eager", "qwen3")
            if _telling_choice(choice) and re.search(r"[_-]", choice) and _names_choice(said, choice):
                holders.setdefault(choice, []).append(flag)
    unset = [
        (named[0], choice)
        for choice, named in holders.items()
        if len(named) == 1 and flags.spelling(named[0]) is None and field_name(named[0]) not in resolved
    ]
    return _choices_refused_by_value(message, unset, flags, "resolved")


# "Unknown speculative algorithm name: EAGLE-3", "unsupported backend type 'x'": the code
# refusing a value it has no name for (argparse's own wording has its pattern elsewhere).
_UNKNOWN_NAME = re.compile(
    r"(?i)\b(?:unknown|unsupported|unrecognized|invalid)\b[\w -]{0,60}?\b(?:name|type|value|mode|kind|method)"
    r"\s*[:=]?\s*['\"`]?(?P<value>[\w.+-]+)"
)
# "... Must be one of ['fp8', 'awq', ...]": the names the code takes, as it lists them.
_ONE_OF_LIST = re.compile(r"(?i)\bone of:?\s*[\[(](?P<items>[^\])]*)[\])]")


def _listed_in(message: str) -> list[str]:
    found = _ONE_OF_LIST.search(message)
    if found is None:
        return []
    return [i for i in _listed_items(found.group("items"), "'\"` ") if i]


def unknown_name_meant(message: str, flags: Flags) -> list[Move]:
    """For a value of the user's that the code says it has no name for: the flag set to
    the listed name it evidently stands for (its parser's choices, else the names SGLang
    has for it, a fact of ``names``), when one is that near."""
    found = _UNKNOWN_NAME.search(message[:MATCH_LINE])
    if found is None:
        return []
    given = found.group("value").rstrip(".")  # a name ends where its sentence does
    out: list[Move] = []
    for name, value in flags.candidate.args:
        flag = flags.catalog.canonical(name)
        if value != given or flags.is_pinned(flag):
            continue
        info = flags.catalog.flag(flag)
        listed = info.choices if info is not None and info.choices else flags.catalog.names.get(flag, ())
        # The code's own list, where the message gives one, over the parser's (a release can
        # keep a choice its code no longer serves: gptq, served as gptq_marlin).
        names = _listed_in(message) or [str(c) for c in listed]
        if not names or given in names:
            continue  # no names known; or one it has, refused for another reason
        meant = [c for c in closest_choices(given, names) if near_choice(given, c)]
        out.extend(_inferred([Edit(EditOp.SET, name, c)], SPELLED_ORIGIN) for c in meant[:1])
    return out


def _chosen_choice_refused(message: str, flags: Flags) -> list[Move]:
    """A last resort: a choice the user set, named by a check that names no flag ("extra_buffer
    requires platform support for ..."). Dropping the flag may resolve the same value again
    (an automatic strategy picks it), so the flag's other choices come first, neither the
    automatic one nor a variant of the refused value; not for what the operator asked for
    (the role, the algorithm, the sizes)."""
    catalog = flags.catalog
    chosen: list[tuple[str, object]] = []
    for name, value in flags.candidate.args:
        flag = catalog.canonical(name)
        info = catalog.flag(flag)
        if (
            isinstance(value, str)
            and info is not None
            and flag not in catalog.primary
            and value in map(str, info.choices)
        ):
            chosen.append((flag, value))
    return _choices_refused_by_value(message, chosen, flags, "chosen")


def _choices_refused_by_value(
    message: str, held: Sequence[tuple[str, object]], flags: Flags, origin: str
) -> list[Move]:
    """For each flag of ``held`` whose value (a distinctive choice of its parser) a message
    that names no flag refuses by naming it: the flag set to its other distinctive choices,
    in the candidate's spelling when it sets the flag."""
    if _FLAG_IN_TEXT.search(message):
        return []  # a message that names a flag refuses that flag; the value it shows is context
    said = f" {message[:MATCH_LINE].lower()} "
    out: list[Move] = []
    for flag, value in held:
        info = flags.catalog.flag(flag)
        if not isinstance(value, str) or info is None or not info.choices:
            continue
        if flags.is_pinned(flag) or not _telling_choice(value) or not _names_value_or_its_base(said, value, info):
            continue
        target = flags.target(flag) if flags.spelling(flag) is not None else flag
        others = _other_choices(info, value)[:MAX_SIBLINGS]
        out.extend(_inferred([Edit(EditOp.SET, target, c)], origin) for c in others)
    return out


def _names_value_or_its_base(said: str, value: str, info: FlagInfo) -> bool:
    """``said`` names ``value``, or another choice of the flag that ``value`` is a variant
    of at a word break (extra_buffer of extra_buffer_lazy): refusing the base refuses its
    variants."""
    if _names_choice(said, value):
        return True
    bases = (str(c) for c in info.choices if value.startswith(f"{c}_") or value.startswith(f"{c}-"))
    return any(_telling_choice(base) and _names_choice(said, base) for base in bases)


def _mentioned(value: str, message: str) -> bool:
    """Whether a value the user chose is named where the message refuses something."""
    if "/" in value or len(value) < 3:
        return False
    words = re.sub(r"[^a-z0-9]+", " ", value.lower()).strip()
    refusal = _REFUSAL.search(message)
    if not words or refusal is None:
        return False
    text = re.sub(r"[^a-z0-9]+", " ", message[refusal.start() :].lower())
    return f" {words} " in f" {text} "


def _parse_fragment(source: str) -> ast.expr | None:
    """Parse an assert's (possibly partial) source line as an expression."""
    text = re.sub(r"[\s,(]+$", "", source.strip())  # `assert x == 0, (` -> `assert x == 0`
    is_assert = text.startswith("assert ")
    text = re.sub(r"^(assert|if|elif|and|or|return)\s+", "", text)
    text = re.sub(r":$", "", text)
    for attempt in (text, f"({text})", text.split(",")[0]):
        try:
            expr = ast.parse(attempt, mode="eval").body
        except SyntaxError:
            continue
        # `assert test, "message"` on one line reads as a tuple: the test is its first item.
        if is_assert and isinstance(expr, ast.Tuple) and len(expr.elts) == 2:
            return expr.elts[0]
        return expr
    return None


def _from_source(source: str, flags: Flags) -> list[Move]:
    """The one failing line a traceback shows (often a fragment), read as a condition
    that must hold; used when the host's source file is not at hand."""
    expr = _parse_fragment(source)
    if expr is None:
        return []
    return _moves_for(alternatives(expr, True) or [], flags)


# --- source-aware inference: the whole failing statement and its branches ------------------


def with_requirements(move: Move, candidate: Candidate, source: str, flags: Flags) -> Move:
    """The move with what the failing file's checks ask of each value it sets, where a
    check's message names that value ("no_buffer ... page_size=1") and the value's server
    would fail it: one attempt instead of a second failure that says so."""
    child = apply(candidate, move)
    companions: list[Edit] = []
    met = 0
    for edit in move.edits:
        if edit.op is not EditOp.SET or not _distinctive(edit.value):
            continue
        moved = field_name(flags.catalog.canonical(edit.target))
        for requirement in requirements_naming(source, str(edit.value)):
            if moved in requirement.fields():
                continue  # a check on the value's own flag: not something to bring along
            edits = _meeting(requirement, Flags(child, flags.catalog, flags.pinned))
            if edits:
                companions.extend(edits)
                child = apply(child, Move(tuple(edits)))
                met += 1
    if not companions:
        return move
    return Move((*move.edits, *companions), move.inferred, move.origin, move.ahead + met)


def _distinctive(value: object) -> bool:
    """A chosen value a message can name: a word of its own, not a number or a switch."""
    if not isinstance(value, str) or len(value) < 4 or as_number(value) is not None:
        return False
    return value.lower() not in _PLAIN_VALUES


_PLAIN_VALUES = frozenset({"auto", "none", "null", "true", "false", "default", "disabled", "enabled"})


def _meeting(requirement: Requirement, flags: Flags) -> list[Edit]:
    """Edits (on flags not pinned) that make a check the candidate would fail pass; none
    when it passes, when its ``if`` tests do not clearly lead to it, or nothing can."""

    def value_of(field: str) -> object:
        return _field_value(field, flags) if flags.catalog.flag(flag_name(field)) is not None else UNKNOWN

    if any(evaluate(test, value_of) is not wanted for test, wanted in requirement.guards):
        return []
    if evaluate(requirement.test, value_of) is not (not requirement.want):
        return []  # met, or not known to fail
    for conjunction in alternatives(requirement.test, requirement.want) or []:
        for edits in [*_listed_values(conjunction, flags), *_edits_for(conjunction, flags)]:
            if edits and not any(flags.is_pinned(e.target) for e in edits):
                return edits
    return []


def _listed_values(conjunction: Conjunction, flags: Flags) -> list[list[Edit]]:
    """For a size the user set that a check wants among listed values (``page_size in
    (1, None)``): the values it lists, before taking the user's flag away."""
    if len(conjunction) != 1:
        return []
    field, relation, value = conjunction[0]
    target = flags.spelling(flag_name(field))
    if relation != "in" or not isinstance(value, tuple) or target is None:
        return []
    listed = [v for v in value if v is not None and not isinstance(v, FieldRef)]
    return [[Edit(EditOp.SET, target, normalize_value(v))] for v in listed]


def source_moves(source: str, line: int, flags: Flags) -> list[Move] | None:
    """Moves that make the failing assert hold, or the branch around it not be taken.

    None when the failing statement cannot be found in ``source`` (the caller then falls
    back to the one line the traceback shows).
    """
    site = failing_site(source, line)
    if site is None:
        return None
    held: list[Conjunction] = []
    if site.kind == "assert" and site.test is not None:
        held += alternatives(site.test, True) or []
    avoided: list[Conjunction] = []
    for test, in_body in site.branches:
        avoided += alternatives(test, not in_body) or []
    # Switching a mode on only to steer around the branch that raises (gRPC "must differ
    # from --port" skipped by turning on --smg-grpc-mode) changes what the server is: never.
    values, switched = _split_moves(held, flags)
    avoiding, _ = _split_moves(avoided, flags)
    return _unique([*values, *avoiding, *switched])


def _moves_for(conjunctions: Sequence[Conjunction], flags: Flags) -> list[Move]:
    """Inferred moves that make one of the conjunctions hold, value moves first."""
    values, switched = _split_moves(conjunctions, flags)
    return _unique([*values, *switched])


def _split_moves(conjunctions: Sequence[Conjunction], flags: Flags) -> tuple[list[Move], list[Move]]:
    """(value moves, moves that switch a feature on): switching a feature on changes what
    the operator asked for more than giving a value does, so those go last."""
    values: list[Move] = []
    turned_off: list[Move] = []
    switched: list[Move] = []
    for conjunction in conjunctions:
        for edits in _edits_for(conjunction, flags):
            move = _inferred(edits, "source")
            on = [e for e in edits if e.value is True]
            if on and all(_turns_default_off(flags.catalog.canonical(e.target), flags.catalog) for e in on):
                turned_off.append(move)
            else:
                (switched if on else values).append(move)
    # Turning off what is on by default (nobody asked for it) goes before taking away a
    # flag the user set (what was asked for); after every other value move.
    first_drop = next((i for i, m in enumerate(values) if _drops_set_flag(m, flags)), len(values))
    return [*values[:first_drop], *turned_off, *values[first_drop:]], switched


def _drops_set_flag(move: Move, flags: Flags) -> bool:
    return any(e.op is EditOp.DROP and flags.spelling(e.target) is not None for e in move.edits)


def _unique(moves: Sequence[Move]) -> list[Move]:
    unique: dict[str, Move] = {}
    for move in moves:
        unique.setdefault(move.label(), move)
    return list(unique.values())


def _edits_for(conjunction: Conjunction, flags: Flags) -> list[list[Edit]]:
    options: list[list[list[Edit]]] = []
    for field, relation, value in conjunction:
        choice = _satisfy(field, relation, value, flags)
        if choice is None:
            return []  # this condition cannot be met by a flag: the conjunction cannot
        options.append(choice)
    out: list[list[Edit]] = []
    for combo in itertools.islice(itertools.product(*options), 16):
        edits = [e for part in combo for e in part]
        targets = [e.target for e in edits]
        if edits and len(set(targets)) == len(targets):
            out.append(edits)
    return out


def _field_value(field: str, flags: Flags) -> object:
    """A field's value for this candidate: the flag as set, else the parser's default."""
    spelled = flags.spelling(flag_name(field))
    if spelled is not None and not flags.assume_present:
        return flags.candidate.arg(spelled)
    info = flags.catalog.flag(flag_name(field))
    return info.default if info is not None else None


def _resolved_value(field: str, flags: Flags) -> object:
    """A field's value for this candidate: the flag as set, else what SGLang resolved it to
    (a group size derived from another flag: 0.5.23's attn_dp_size from --dp-size), else the
    parser's default."""
    held = flags.value(flag_name(field), flags.resolved)
    return held if held is not None else _field_value(field, flags)


def _deref(value: object, flags: Flags) -> object:
    """A condition's constant with the record's fields it names replaced by their values."""
    if isinstance(value, FieldRef):
        got = _field_value(value.name, flags)
        number = as_number(got)
        return _tidy(number) if number is not None else got
    if isinstance(value, CountOf):
        items = _field_value(value.name, flags)
        return len(items) if isinstance(items, tuple) and not flags.assume_present else value
    if isinstance(value, tuple):
        return tuple(_deref(v, flags) for v in value)
    return value


def _divides(divisor: str, dividend: object, flags: Flags) -> list[list[Edit]] | None:
    """Edits that make ``divisor`` divide the product of the ``dividend`` fields: the
    divisor down to a divisor of the product (its default first), or the one-field
    dividend up to the next multiple."""
    if not isinstance(dividend, tuple):
        return None
    if flags.assume_present:  # offline, no sizes known: the divisor back to its default
        return [[Edit(EditOp.DROP, flags.target(flag_name(divisor)))]]
    numbers = [as_number(_field_value(f, flags)) for f in dividend]
    d = as_number(_resolved_value(divisor, flags))
    if d is None or d <= 0 or any(n is None for n in numbers):
        return [[]]
    product = math.prod(int(n or 0) for n in numbers)
    if product % int(d) == 0:
        return [[]]
    out: list[list[Edit]] = []
    flag = flag_name(divisor)
    info = flags.catalog.flag(flag)
    default = as_number(info.default) if info is not None else None
    if flags.spelling(flag) and default is not None and default > 0 and product % int(default) == 0:
        out.append([Edit(EditOp.DROP, flags.target(flag))])
    counts_gpus = any(flags.catalog.canonical(flag_name(f)) in flags.catalog.gpu_counts for f in dividend)
    if counts_gpus:
        # A group over the GPUs (attn-dp, attn-cp, moe-dp) that does not divide them: the
        # nearest group above 1 that does (ties: the smaller) before the group is undone;
        # never a larger one when the divisor counts hardware itself (nodes).
        hardware = flags.catalog.canonical(flag) in flags.catalog.gpu_counts
        fits = [k for k in range(2, int(d) if hardware else product + 1) if product % k == 0 and k != int(d)]
        nearest = min(fits, key=lambda k: (abs(k - d), k), default=None)
        # (a group SGLang derived from another flag the user set is not cut on its own flag:
        # the two would disagree; the user's flag's own refusal moves it)
        derived = flags.spelling(flag) is None and divisor in flags.resolved
        if nearest is not None and nearest != default and not derived:
            out.insert(0, [Edit(EditOp.SET, flags.target(flag), str(nearest))])
    else:
        lower = max((k for k in range(1, int(d)) if product % k == 0), default=None)
        if lower is not None and lower != default:
            out.append([Edit(EditOp.SET, flags.target(flag), str(lower))])
    if len(dividend) == 1 and flags.spelling(flag_name(dividend[0])):
        # The divisor is usually the unit (page size, node count): the size goes up first,
        # unless the size counts GPUs (then more GPUs is the last thing to ask for) ...
        up = [Edit(EditOp.SET, flags.target(flag_name(dividend[0])), str(int(math.ceil(product / d) * int(d))))]
        # ... or the GPU count was given per node (TP counts the ranks of all nodes): the
        # size over all nodes, first, when that holds the groups.
        nodes = _nodes(flags) if counts_gpus and not _hardware_divisor(flag, flags) else 1
        if nodes > 1 and (product * nodes) % int(d) == 0:
            out.insert(0, [Edit(EditOp.SET, flags.target(flag_name(dividend[0])), str(product * nodes))])
        out.insert(len(out) if counts_gpus else 0, up)
    if counts_gpus and flag == "nnodes" and product < d:
        # Fewer GPUs than machines: the one size the user gave (TP; PP left at its default
        # in tp x pp) is what one node holds, first over all of them.
        given = [f for f in dividend if flags.spelling(flag_name(f))]
        held = as_number(_field_value(given[0], flags)) if len(given) == 1 else None
        if held is not None and held.is_integer() and held > 0:
            out.insert(0, [Edit(EditOp.SET, flags.target(flag_name(given[0])), str(int(held) * int(d)))])
    return _unique_edits(out) or None


def _hardware_divisor(flag: str, flags: Flags) -> bool:
    """Whether the divisor counts hardware itself (a node count, DP replicas), not groups
    inside TP (DP attention's): then more TP answers nothing."""
    return flags.catalog.canonical(flag) in flags.catalog.gpu_counts and _split_whole(flag, flags) is None


def _nodes(flags: Flags) -> int:
    """The machines the command spans (--nnodes as given; 1 when unset)."""
    spelled = flags.spelling("nnodes")
    number = as_number(flags.candidate.arg(spelled)) if spelled and flags.known("nnodes") else None
    return int(number) if number and number.is_integer() and number > 1 else 1


def _unique_edits(sets: list[list[Edit]]) -> list[list[Edit]]:
    out: list[list[Edit]] = []
    for edits in sets:
        if edits not in out:
            out.append(edits)
    return out


def _satisfy(field: str, relation: str, value: object, flags: Flags) -> list[list[Edit]] | None:
    """Edit sets that make ``cfg.<field> <relation> <value>`` hold; ``[[]]``: nothing to do
    (as far as the flags say it holds); None: no flag can make it hold."""
    if PRODUCT in field:
        return _product_satisfy(field.split(PRODUCT), relation, _deref(value, flags), flags)
    flag = flag_name(field)
    info = flags.catalog.flag(flag)
    if info is None and flags.catalog.flags:
        return [[]]  # not a flag (a resolved or derived field): leave it to the rest
    present = flags.spelling(flag) is not None
    # Offline a named flag is assumed set with no value known: the check failed, so it
    # is never found to hold already (``known`` is False), and the moves that fix it stay.
    known = present and flags.known(flag)
    current = flags.candidate.arg(flags.spelling(flag)) if present else None  # type: ignore[arg-type]
    target = flags.target(flag)
    domain = [normalize_value(v) for v in flags.catalog.domain(flag)]
    is_bool = info is not None and info.kind == "bool"
    drop = [[Edit(EditOp.DROP, target)]]

    def sets(values: Iterable[object]) -> list[list[Edit]]:
        return [[Edit(EditOp.SET, target, v)] for v in values if v is not None]  # type: ignore[arg-type]

    value = _deref(value, flags)
    if relation == "divides":
        return _divides(field, value, flags)
    if (relation == "is" and value is None) or relation == "falsy" or (relation == "==" and value is False):
        return drop if present else [[]]
    if (relation == "is not" and value is None) or relation == "truthy" or (relation == "==" and value is True):
        # (a list flag given no words, an unset variable's place, is an empty list: falsy)
        if present and not (relation == "truthy" and info is not None and info.kind == "list" and current is True):
            return [[]]
        return [[Edit(EditOp.SET, target, True)]] if is_bool else (sets(on_values(flag, flags)) or None)
    if relation == "==":
        if known and str(current) == str(value):
            return [[]]
        default = info.default if info is not None else None
        return drop if present and default == value else sets([normalize_value(value)])
    if relation in ("in", "not in") and isinstance(value, tuple):
        inside = [str(v) for v in value if v is not None]
        if relation == "in":
            if known and str(current) in inside:
                return [[]]
            if None in value and present:
                return drop
            return sets(normalize_value(v) for v in value if v is not None) or None
        if not present or (known and str(current) not in inside):
            return [[]]
        return drop + sets(v for v in domain if str(v) not in inside)
    if relation == "!=":
        if known and str(current) != str(value):
            return [[]]
        # The nearest other value first (a port next to the one it must differ from).
        number = as_number(value)
        nearest = [_tidy(number + 1)] if info is not None and info.type == "int" and number is not None else []
        return sets(nearest) + (drop if present else []) + sets(v for v in domain if str(v) != str(value)) or None
    if relation in (">", ">=", "<", "<="):
        try:
            bound = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None
        test = {">": bound.__lt__, ">=": bound.__le__, "<": bound.__gt__, "<=": bound.__ge__}[relation]
        now = as_number(current) if present else as_number(_field_value(field, flags))
        if now is not None and test(now):
            return [[]]
        out: list[list[Edit]] = []
        # The parser's own default, when it holds: the flag goes back to it.
        default = as_number(info.default) if info is not None else None
        if present and default is not None and test(default):
            out += drop
        # A size that splits another's ranks into groups, raised past a floor: all of them
        # (EP over every TP rank), the layout operators use, before the smallest that passes.
        whole = _whole_it_splits(flag, flags) if relation in (">", ">=") else None
        if whole is not None and test(whole):
            out += sets([_tidy(whole)])
        # The nearest value that holds: the bound itself (an int flag steps past a strict one).
        step = 1.0 if info is not None and info.type == "int" else 0.0
        edge = _edge(relation, bound, step)
        if test(edge):
            out += sets([_tidy(edge)])
        out += sets(v for v in domain if as_number(v) is not None and test(float(as_number(v) or 0)))
        return out or None
    return None


def _whole_it_splits(flag: str, flags: Flags) -> float | None:
    """The size of what ``flag`` splits into groups (``splits``: EP's TP), as the command
    gives it; None when it splits nothing or the command leaves that size unset."""
    whole = _split_whole(flag, flags)
    if whole is None or not flags.known(whole):
        return None
    return as_number(_field_value(field_name(whole), flags))


def _split_whole(flag: str, flags: Flags) -> str | None:
    """The size ``flag`` splits into groups (``splits``), when it does for this candidate: a
    size that shares GPUs only under a switch (``gpu_shares``: dp-size under DP attention)
    splits while the switch is on, and counts replicas otherwise."""
    name = flags.catalog.canonical(flag)
    whole = flags.catalog.splits.get(name)
    switch = flags.catalog.gpu_shares.get(name)
    if whole is None or switch is None:
        return whole
    spelled = flags.spelling(switch)
    return whole if spelled is not None and is_on(flags.candidate.arg(spelled)) else None


def _size_edit(field: str, value: int, flags: Flags) -> Edit:
    """A size set to ``value``: back to the parser's default when that is the value."""
    flag = flag_name(field)
    info = flags.catalog.flag(flag)
    if info is not None and as_number(info.default) == value and flags.spelling(flag):
        return Edit(EditOp.DROP, flags.target(flag))
    return Edit(EditOp.SET, flags.target(flag), str(value))


def _product_satisfy(factors: Sequence[str], relation: str, value: object, flags: Flags) -> list[list[Edit]] | None:
    """Edits that make a product of sizes hold a relation (``dp * cp`` divides tp,
    ``ep * moe_dp <= tp``): one factor the user set lowered to the largest size that
    holds (the others kept), then, for divisibility, the one-field dividend raised to the
    next multiple. Sizes only go down here: a smaller group is what the message allows
    without buying GPUs."""
    if flags.assume_present:  # offline, no sizes known: a factor back to its default
        return [[Edit(EditOp.DROP, flags.target(flag_name(f)))] for f in factors if flags.catalog.flag(flag_name(f))]
    sizes = [as_number(_field_value(f, flags)) for f in factors]
    if any(n is None or n <= 0 or not float(n).is_integer() for n in sizes):
        return [[]]
    numbers = [int(n or 0) for n in sizes]
    total = math.prod(numbers)
    if relation == "divides":
        if not isinstance(value, tuple):
            return None
        parts = [as_number(_field_value(f, flags)) for f in value]
        if any(n is None for n in parts):
            return [[]]
        whole = math.prod(int(n or 0) for n in parts)

        def holds(p: int) -> bool:
            return whole % p == 0

    else:
        bound = as_number(value)
        if bound is None or relation not in (">", ">=", "<", "<=", "=="):
            return None
        ops = {">": float.__gt__, ">=": float.__ge__, "<": float.__lt__, "<=": float.__le__, "==": float.__eq__}

        def holds(p: int) -> bool:
            return bool(ops[relation](float(p), float(bound)))

    if holds(total):
        return [[]]
    layout = whole if relation == "divides" else as_number(value)
    out: list[list[Edit]] = []
    # A factor sized as the whole (EP over all TP ranks) is the user's layout: the others,
    # the add-ons, are lowered first.
    for i in sorted(range(len(factors)), key=lambda i: numbers[i] == layout):
        field = factors[i]
        if not flags.spelling(flag_name(field)):
            continue
        others = total // numbers[i]
        fits = [k for k in range(numbers[i] - 1, 0, -1) if holds(k * others)]
        if fits:
            out.append([_size_edit(field, fits[0], flags)])
    if relation == "divides" and isinstance(value, tuple) and len(value) == 1 and flags.spelling(flag_name(value[0])):
        current = int(as_number(_field_value(value[0], flags)) or 0)
        out.append([Edit(EditOp.SET, flags.target(flag_name(value[0])), str(math.ceil(current / total) * total))])
    return out or None
