"""What the engine proposes for one failure message, with no class to match (inference only):
the helper the message-reading tests share."""

from __future__ import annotations

from collections.abc import Mapping

from autofix.catalog import Catalog, load_catalog
from autofix.classify import Diagnosis, Subject, classify
from autofix.model import Candidate, Failure, Frame, Gate, Move
from autofix.renames import rename_move
from autofix.repair import Proposal, apply, offline_moves, propose
from autofix.search import Child, Search
from autofix.tracebacks import parse_text

BARE = load_catalog().without_classes()


def proposed(
    args: dict[str, object],
    exception: str,
    message: str,
    *,
    gate: Gate = Gate.PREFLIGHT,
    catalog: Catalog = BARE,
    resolved: Mapping[str, object] | None = None,
) -> tuple[Candidate, list[Proposal]]:
    """The candidate ``args`` make (with a pinned model path) and the moves proposed when
    ``gate`` (preflight unless said) fails with ``exception: message``; ``resolved``: what
    SGLang resolved for that candidate."""
    candidate = Candidate.build({"model-path": "/m", **args})
    subject = Subject(exception, message, None)
    failure = Failure(gate=gate, class_id=None, fingerprint="f", exception=exception, message=message)
    return candidate, propose(
        candidate, Diagnosis(failure, subject), catalog, pinned=("model-path",), resolved=resolved
    )


def source_labels(
    args: dict[str, object],
    message: str,
    source: str,
    *,
    catalog: Catalog,
    line: int,
    function: str,
    exception: str = "AssertionError",
) -> list[str]:
    """The labels of the moves proposed when preflight fails with ``exception: message`` at
    ``line`` of ``function`` in ``source`` (the failing file as installed, read whole)."""
    candidate = Candidate.build({"model-path": "/m", **args})
    frame = Frame(file="/x/server_args.py", line=line, function=function, source="assert")
    failure = Failure(Gate.PREFLIGHT, None, "f", exception, message)
    diagnosis = Diagnosis(failure, Subject(exception, message, frame))
    found = propose(candidate, diagnosis, catalog, pinned=("model-path",), source=source)
    return [p.move.label() for p in found]


def proposed_labels(args: dict[str, object], exception: str, message: str, *, catalog: Catalog = BARE) -> list[str]:
    """The labels of the moves proposed (in their order) for the candidate ``args`` make
    when preflight fails with ``exception: message``."""
    _, proposals = proposed(args, exception, message, catalog=catalog)
    return [p.move.label() for p in proposals]


def choice_refused(flag: str, given: str, choices: tuple[str, ...] | list[str], args: dict[str, object]) -> list[str]:
    """The labels of the moves proposed (in their order) when argparse refuses ``given`` for
    ``--flag`` among ``choices`` (SGLang's wording), ``args`` set beside it."""
    listed = ", ".join(f"'{c}'" for c in choices)
    message = f"launch_server.py: error: argument --{flag}: invalid choice: '{given}' (choose from {listed})"
    return proposed_labels({flag: given, **args}, "SystemExit", message)


FULL = load_catalog()


def subject_of(text: str, catalog: Catalog = FULL) -> str:
    """What the classifier reads as a pasted log's failure (at launch): ``Exception: message``."""
    subject = classify(parse_text(text), catalog, Gate.START).subject
    return f"{subject.exception}: {subject.message}"


def offline_labels(exception: str, message: str, catalog: Catalog = FULL) -> list[str]:
    """The labels of the moves ``autofix classify`` gives (no command: values unknown) for a
    traceback whose frame is ours and whose exception line is ``exception: message``."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/sglang/srt/toy_args.py", line 40, in check\n'
        "    check(args)\n"
        f"{exception}: {message}\n"
    )
    return [m.label() for m in offline_moves(classify(parse_text(text), catalog, Gate.PREFLIGHT), catalog)]


def renamed(args: dict[str, object], catalog: Catalog = FULL) -> Candidate:
    """The candidate ``args`` make (with a model path) after the one move that spells every
    flag the parser does not know as SGLang's."""
    base = Candidate.build({"model-path": "/m", **args})
    move = rename_move(base, catalog, {})
    assert move is not None
    return apply(base, move)


def pasted(text: str, args: Mapping[str, object], catalog: Catalog = FULL) -> tuple[str | None, Move | None]:
    """The class a pasted log (at launch) is given and the first move proposed for the
    candidate ``args`` make (with a model path); None for either when there is none."""
    diagnosis = classify(parse_text(text), catalog, Gate.START)
    moves = propose(Candidate.build({"model-path": "/m", **args}), diagnosis, catalog)
    return diagnosis.failure.class_id, moves[0].move if moves else None


def tried_after_base(base: Candidate, proposals: list[Proposal]) -> str:
    """The label of the move a search tries first once ``base`` failed with ``proposals``
    its children (what the search weighs, not only the order proposed)."""
    search = Search(base)
    first = search.ask()
    assert first is not None
    search.tell(first.candidate.key, "failed", [Child(p.child, p.move, p.rank) for p in proposals], None, "f")
    picked = search.ask()
    assert picked is not None and picked.move is not None
    return picked.move.label()
