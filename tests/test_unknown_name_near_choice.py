"""Issue 14 round 33c, written before the change: a name the code does not know, that is a
known one spelled otherwise.

``Unknown speculative algorithm name: EAGLE-3`` comes from the code, not from argparse (the
flag lists no choices), so no choice list follows it. The names SGLang has for the flag are
facts (``domains``); the one the user evidently meant (EAGLE-3 is EAGLE3, ngram-spec is NGRAM)
is the first move, before anything a class proposes for names it cannot read (MTP)."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .proposing import tried_after_base

FULL = load_catalog()
BARE = FULL.without_classes()


def _labels(value: str, catalog=FULL) -> list[str]:  # type: ignore[no-untyped-def]
    candidate = Candidate.build(
        {"model-path": "/m", "speculative-algorithm": value, "speculative-draft-model-path": "/d"}
    )
    text = (
        "Traceback (most recent call last):\n"
        '  File "/x/sglang/srt/speculative/spec_info.py", line 65, in from_string\n'
        '    raise ValueError(f"Unknown speculative algorithm name: {name}")\n'
        f"ValueError: Unknown speculative algorithm name: {value}\n"
    )
    diagnosis = classify(parse_text(text), catalog, Gate.PREFLIGHT)
    return [p.move.label() for p in propose(candidate, diagnosis, catalog, pinned=("model-path",))]


def test_a_name_spelled_otherwise_is_the_name_it_stands_for() -> None:
    assert _labels("EAGLE-3")[0] == "set speculative-algorithm=EAGLE3"
    assert _labels("eagle_3")[0] == "set speculative-algorithm=EAGLE3"
    assert _labels("ngram-spec")[0] == "set speculative-algorithm=NGRAM"


def test_without_the_class_too() -> None:
    assert _labels("EAGLE-3", BARE)[0] == "set speculative-algorithm=EAGLE3"


def test_a_name_near_none_leaves_the_class_its_moves() -> None:
    assert _labels("MTP")[0] == "set speculative-algorithm=NEXTN"


def test_names_are_facts_checked_like_the_rest() -> None:
    import pytest

    from autofix.catalog import parse_catalog
    from autofix.errors import CatalogError

    assert parse_catalog({"t.yaml": "names:\n  speculative-algorithm: [EAGLE, NGRAM]\n"}).names == {
        "speculative-algorithm": ("EAGLE", "NGRAM")
    }
    with pytest.raises(CatalogError, match=r"names\.speculative-algorithm"):
        parse_catalog({"t.yaml": "names:\n  speculative-algorithm: EAGLE\n"})


def test_names_are_never_values_to_try() -> None:
    """A check that a branch for one algorithm fails is not steered around by switching to
    another algorithm because names lists it (offline, the source read as with --python)."""
    from autofix.classify import Diagnosis, Subject
    from autofix.model import Failure, Frame
    from autofix.repair import offline_moves

    source = "def check(cfg):\n    if cfg.speculative_algorithm == 'DFLASH':\n        assert cfg.window >= 16, 'w'\n"
    frame = Frame(file="/x/spec_hook.py", line=3, function="check", source="assert cfg.window >= 16, 'w'")
    subject = Subject("AssertionError", "w", frame)
    diagnosis = Diagnosis(Failure(Gate.PREFLIGHT, None, "f", "AssertionError", "w"), subject)
    labels = [m.label() for m in offline_moves(diagnosis, FULL, source)]
    assert not any(label.startswith("set speculative-algorithm=") for label in labels)


def test_the_search_tries_the_name_meant_before_the_class_guesses() -> None:
    """The name the user evidently meant keeps what they asked for, as a renamed flag does:
    the search tries it before a class's curated guesses (NEXTN) that replace it."""
    candidate = Candidate.build(
        {"model-path": "/m", "speculative-algorithm": "EAGLE-3", "speculative-draft-model-path": "/d"}
    )
    text = "ValueError: Unknown speculative algorithm name: EAGLE-3\n"
    diagnosis = classify(parse_text(text), FULL, Gate.PREFLIGHT)
    proposals = propose(candidate, diagnosis, FULL, pinned=("model-path",))
    assert tried_after_base(candidate, proposals) == "set speculative-algorithm=EAGLE3"


def test_a_name_the_message_lists_wins_over_the_parser_choice_it_refuses() -> None:
    """Issue 14 round 36d, written before the change: "Unknown quantization method: gptq.
    Must be one of [...]" where gptq is still a parser choice but the code's own list (in
    the message) has only gptq_marlin: the name it lists for what was given is what the user
    meant, tried before a value set on another flag (the draft's quantization)."""
    base = Candidate.build({"model-path": "/m", "quantization": "gptq", "tp-size": 2})
    text = (
        "Traceback (most recent call last):\n"
        '  File "/x/sglang/srt/configs/model_config.py", line 900, in _verify_quantization\n'
        '    raise ValueError(f"Unknown quantization method: {self.quantization}. Must be one of {supported}.")\n'
        "ValueError: Unknown quantization method: gptq. Must be one of ['fp8', 'awq', 'awq_marlin', "
        "'gptq_marlin', 'w8a8_int8'].\n"
    )
    diagnosis = classify(parse_text(text), BARE, Gate.PREFLIGHT)
    proposals = propose(
        base, diagnosis, BARE, pinned=("model-path",), resolved={"speculative-draft-model-quantization": "gptq"}
    )
    assert proposals[0].move.label() == "set quantization=gptq_marlin"
    assert tried_after_base(base, proposals) == "set quantization=gptq_marlin"
