"""What the engine proposes for one failure message, with no class to match (inference only):
the helper the message-reading tests share."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import Diagnosis, Subject
from autofix.model import Candidate, Failure, Gate
from autofix.repair import Proposal, propose

BARE = load_catalog().without_classes()


def proposed(args: dict[str, object], exception: str, message: str) -> tuple[Candidate, list[Proposal]]:
    """The candidate ``args`` make (with a pinned model path) and the moves proposed when
    preflight fails with ``exception: message``."""
    candidate = Candidate.build({"model-path": "/m", **args})
    subject = Subject(exception, message, None)
    failure = Failure(gate=Gate.PREFLIGHT, class_id=None, fingerprint="f", exception=exception, message=message)
    return candidate, propose(candidate, Diagnosis(failure, subject), BARE, pinned=("model-path",))
