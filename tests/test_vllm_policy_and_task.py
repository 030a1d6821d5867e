"""Issue 14 round 48j, written before the data change: two vLLM launch flags that both the
0.5.11 and the 0.4.10.post2 blind sets of round 48 met, read as SGLang's: vLLM's
`--scheduling-policy priority` (requests handled by the priority they carry, lower values
first) is SGLang's priority scheduling with low values first, `fcfs` its default; vLLM's
`--task embed` (or `embedding`) serves the model as an embedding model, SGLang's
`--is-embedding`, and `generate` is SGLang's default. Facts from vLLM's own docs and
SGLang's parser help; in sample for those two sets from this change on."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.model import Candidate
from autofix.renames import rename_move
from autofix.repair import apply

CATALOG = load_catalog()


def _renamed(args: dict[str, object]) -> Candidate:
    candidate = Candidate.build({"model-path": "/m", **args})
    move = rename_move(candidate, CATALOG)
    assert move is not None
    return apply(candidate, move)


def test_vllm_priority_scheduling_is_sglangs_with_low_values_first() -> None:
    child = _renamed({"scheduling-policy": "priority"})
    assert dict(child.args) == {
        "model-path": "/m",
        "enable-priority-scheduling": True,
        "schedule-low-priority-values-first": True,
    }


@pytest.mark.parametrize("task", ["embed", "embedding"])
def test_vllm_embedding_task_is_is_embedding(task: str) -> None:
    child = _renamed({"task": task})
    assert child.arg("is-embedding") is True and not child.has("task")


@pytest.mark.parametrize(("flag", "value"), [("scheduling-policy", "fcfs"), ("task", "generate")])
def test_vllm_defaults_are_left_out(flag: str, value: str) -> None:
    child = _renamed({flag: value})
    assert not child.has(flag) and not child.has("is-embedding") and not child.has("enable-priority-scheduling")
