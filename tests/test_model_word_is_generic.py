"""Issue 14 round 45b, written before the change (round 64's AWQ MoE log, in our words): the
word "model" is in nearly every failure of a model server ("Tensor model parallel group is
not initialized") and in half the flags' names; like "size" or "config" it says nothing of
which flag failed. The last resort that drops the flags whose words a message uses does not
drop the model path (the one flag SGLang requires) for it; a flag's own word beside it still
counts."""

from __future__ import annotations

from autofix.classify import Diagnosis, Subject
from autofix.model import Candidate, Failure, Gate
from autofix.repair import propose

from .proposing import BARE, proposed_labels


def test_the_model_path_is_not_dropped_for_the_word_model() -> None:
    # (nothing pinned: a pasted log read with the command the thread shows)
    message = "Tensor model parallel group is not initialized"
    candidate = Candidate.build({"model-path": "swift/Qwen3-30B-A3B-AWQ"})
    failure = Failure(Gate.START, None, "f", "AssertionError", message)
    labels = [
        p.move.label() for p in propose(candidate, Diagnosis(failure, Subject("AssertionError", message, None)), BARE)
    ]
    assert not any("model-path" in label for label in labels), labels


def test_a_flag_named_by_its_other_words_still_goes() -> None:
    labels = proposed_labels(
        {"model-impl": "transformers"}, "AttributeError", "'TransformersForCausalLM' object has no attribute 'tp_size'"
    )
    assert labels[:1] == ["drop model-impl"], labels
