"""Issue 14 round 37m, written before the change: "User-specified context_length (131072) is
greater than the derived context_length (40960)". An operator who set a RoPE scaling in
--json-model-override-args (YaRN x4) asked for the longer context on purpose: the override
also says how many positions the model now has (max_position_embeddings = the context asked
for), and --context-length stays. Without a scaling the context goes back to what the model
derives (the flag dropped, or set to the derived size). The engine lowered the user's
context first in every case. The traceback is ours, in the shape SGLang prints."""

from __future__ import annotations

import json

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import apply, propose
from autofix.tracebacks import parse_text

CATALOG = load_catalog()
TEXT = """Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/configs/model_config.py", line 1313, in _derive_context_length
    raise ValueError(
ValueError: Warning: User-specified context_length (131072) is greater than the derived context_length (40960). This may lead to incorrect model outputs or CUDA errors. To allow overriding this maximum, set the env var SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1
"""
YARN = {"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}


def _children(args: dict[str, object]) -> list[Candidate]:
    candidate = Candidate.build({"model-path": "/m", **args})
    diagnosis = classify(parse_text(TEXT), CATALOG, Gate.PREFLIGHT)
    return [apply(candidate, p.move) for p in propose(candidate, diagnosis, CATALOG, pinned=("model-path",))]


def test_a_rope_scaling_override_also_sets_the_positions_asked_for() -> None:
    first = _children({"json-model-override-args": json.dumps(YARN), "context-length": "131072"})[0]
    assert first.arg("context-length") == "131072"
    override = json.loads(str(first.arg("json-model-override-args")))
    assert override == {**YARN, "max_position_embeddings": 131072}


def test_without_a_scaling_the_context_goes_back_to_the_derived_one() -> None:
    first = _children({"context-length": "131072"})[0]
    assert first.arg("context-length") in (None, "40960")
    assert first.arg("json-model-override-args") is None
