"""Issue 14 round 45i, written before the change (round 65's FlashInfer "Invalid
configuration" on an encoder model, in our words): a running server's crash in the
implementation the user picked (--attention-backend flashinfer) is answered by leaving the
flag out (SGLang picks per model and GPU), then, since that pick may be the kernel that
crashed, by the implementation that runs on every GPU (catalogue ``portable``: triton). The
first move stays the default: the corpus' threads split between the two (round 11's aiter on
a sparse-attention model needed SGLang's own pick). A crash in the portable implementation
itself is left to the flag's default."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import Diagnosis, Subject
from autofix.model import Candidate, Failure, Gate
from autofix.repair import propose

CATALOG = load_catalog().without_classes()


def _labels(args: dict[str, object], exception: str, message: str) -> list[str]:
    candidate = Candidate.build({"model-path": "/m", **args})
    failure = Failure(Gate.START, None, "f", exception, message)
    diagnosis = Diagnosis(failure, Subject(exception, message, None))
    return [p.move.label() for p in propose(candidate, diagnosis, CATALOG, pinned=("model-path",))]


def test_the_portable_backend_follows_the_default() -> None:
    message = "flashinfer prefill kernel: Invalid configuration : NUM_MMA_Q=2 NUM_WARPS_Q=4"
    labels = _labels({"attention-backend": "flashinfer"}, "RuntimeError", message)
    assert labels.index("drop attention-backend") + 1 == labels.index("set attention-backend=triton"), labels


def test_a_crash_nothing_reads_tries_the_portable_one_after_the_default() -> None:
    message = "Invalid configuration : NUM_MMA_Q=2 NUM_WARPS_Q=4"
    labels = _labels({"attention-backend": "flashinfer", "enable-metrics": True}, "RuntimeError", message)
    assert labels.index("drop attention-backend") + 1 == labels.index("set attention-backend=triton"), labels


def test_a_crash_in_the_portable_one_is_left_to_the_default() -> None:
    message = "triton attention kernel: out of resource: shared memory, required 81920"
    labels = _labels({"attention-backend": "triton"}, "RuntimeError", message)
    assert "set attention-backend=triton" not in labels
    assert "drop attention-backend" in labels, labels


def test_the_catalogue_names_a_portable_choice_the_parser_has() -> None:
    for flag, choice in CATALOG.portable.items():
        info = CATALOG.flag(flag)
        assert info is not None and choice in map(str, info.choices), (flag, choice)
