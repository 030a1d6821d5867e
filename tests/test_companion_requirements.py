"""A value chosen to replace a refused one brings what the host's own checks require of it.

An operator who reads the failing file before choosing the next value sees the checks that
value must pass, when the checks' messages name it: "no_buffer ... page_size=1", "no_buffer
... overlap schedule". Setting the value alone fails one of them on the next attempt; setting
it with what those checks ask passes at once. The source below is written here (our own
words, the shape such hook files have), not copied from any release.
"""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import Diagnosis, Subject
from autofix.model import Candidate, Failure, Frame, Gate
from autofix.repair import propose

from .proposing import tried_after_base

BARE = load_catalog().without_classes()

SOURCE = """def check_snapshots(view):
    assert snapshots_supported(), "extra_buffer needs state snapshots on this platform."


def check_plain_cache(view):
    assert view.page_size in (1, None), "no_buffer works with page_size=1 only."
    assert view.disable_overlap_schedule, "no_buffer cannot overlap; turn the overlap schedule off."
    if view.attention_backend == "trtllm_mha":
        raise ValueError("no_buffer cannot run on trtllm_mha.")
    if view.speculative_algorithm:
        assert view.speculative_eagle_topk in (1, None), "no_buffer keeps one draft branch."
    assert view.mamba_radix_cache_strategy != "no_buffer" or view.page_size, "no_buffer: odd"


def check_lora_paths(view):
    rank = view.max_lora_rank
    if rank is None:
        return
    assert view.lora_backend == "csgmv", "LoRA needs csgmv (not no_buffer-aware)."


def check_early_return_on_a_field(view):
    if view.enable_lora is None:
        return
    assert view.max_loras_per_batch > 64, "no_buffer wants many LoRAs per batch."


def check_dispatch(view):
    if view.moe_a2a_backend not in ("deepep", "no_buffer", "mori"):
        raise ValueError("dispatch wants one of deepep, no_buffer or mori.")
"""
FAILING_LINE = 2
MESSAGE = "extra_buffer needs state snapshots on this platform."


def _labels(args: dict[str, object], source: str | None = SOURCE) -> list[str]:
    candidate = Candidate.build({"model-path": "/m", "mamba-radix-cache-strategy": "extra_buffer", **args})
    frame = Frame(file="/x/cache_hook.py", line=FAILING_LINE, function="check_snapshots", source="assert x")
    subject = Subject("AssertionError", MESSAGE, frame)
    failure = Failure(Gate.PREFLIGHT, None, "f", "AssertionError", MESSAGE)
    proposals = propose(candidate, Diagnosis(failure, subject), BARE, pinned=("model-path",), source=source)
    return [p.move.label() for p in proposals]


def test_the_value_comes_with_what_its_checks_ask() -> None:
    labels = _labels({})
    assert labels[0] == "set mamba-radix-cache-strategy=no_buffer; set disable-overlap-schedule=True"


def test_a_size_the_user_set_is_brought_within_the_check() -> None:
    labels = _labels({"page-size": 64})
    assert labels[0] == ("set mamba-radix-cache-strategy=no_buffer; set page-size=1; set disable-overlap-schedule=True")


def test_a_check_that_raises_under_an_if_is_steered_around() -> None:
    labels = _labels({"attention-backend": "trtllm_mha", "disable-overlap-schedule": True})
    assert labels[0] == "set mamba-radix-cache-strategy=no_buffer; drop attention-backend"


def test_checks_already_met_add_nothing() -> None:
    assert _labels({"disable-overlap-schedule": True})[0] == "set mamba-radix-cache-strategy=no_buffer"


def test_a_check_under_an_if_that_does_not_hold_is_not_asked() -> None:
    """The draft-branch check only runs with a speculative algorithm: none is set, so its
    topk is not touched; with one set, a topk of 4 is brought to 1."""
    labels = _labels({"disable-overlap-schedule": True, "speculative-eagle-topk": 4})
    assert labels[0] == "set mamba-radix-cache-strategy=no_buffer"
    labels = _labels({"disable-overlap-schedule": True, "speculative-algorithm": "EAGLE", "speculative-eagle-topk": 4})
    assert labels[0] == "set mamba-radix-cache-strategy=no_buffer; set speculative-eagle-topk=1"


def test_other_values_bring_nothing_and_no_source_brings_nothing() -> None:
    assert "drop mamba-radix-cache-strategy" in _labels({})  # back to its default: no check names it
    assert _labels({}, source=None)[0] == "set mamba-radix-cache-strategy=no_buffer"


def test_checks_past_an_early_return_or_listing_the_value_among_others_are_not_asked() -> None:
    """A check after ``if rank is None: return`` runs only for what that return lets
    through (not known here, or known not to); a message that lists the value among a
    flag's allowed ones is about that flag, not about what the value needs."""
    labels = _labels({"disable-overlap-schedule": True, "moe-a2a-backend": "flashinfer"})
    assert labels[0] == "set mamba-radix-cache-strategy=no_buffer"


def test_the_search_weighs_a_value_with_its_checks_as_the_line_of_fixes_it_saves() -> None:
    """The value with what its checks ask edits more than dropping the flag, but it meets a
    check the next attempt would fail: the search weighs it as that line of two fixes (each
    step that gets further costs less), so it is tried before the drop that only resolves
    the refused value again."""
    candidate = Candidate.build({"model-path": "/m", "mamba-radix-cache-strategy": "extra_buffer"})
    frame = Frame(file="/x/cache_hook.py", line=FAILING_LINE, function="check_snapshots", source="assert x")
    subject = Subject("AssertionError", MESSAGE, frame)
    failure = Failure(Gate.PREFLIGHT, None, "f", "AssertionError", MESSAGE)
    proposals = propose(candidate, Diagnosis(failure, subject), BARE, pinned=("model-path",), source=SOURCE)
    assert tried_after_base(candidate, proposals) == (
        "set mamba-radix-cache-strategy=no_buffer; set disable-overlap-schedule=True"
    )
