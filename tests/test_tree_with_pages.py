"""Issue 14 round 37b, written before the change: an EAGLE draft tree (topk > 1) with pages
of more than one token on a backend that cannot page a tree. When the user wrote the page
size, the pages give way (page size 1, or a backend that pages trees) and the tree stays:
the tree is the speculative decoding they asked for. When the page size is the backend's
own (the seed: trtllm_mla's 64 pages, no --page-size), the tree becomes a chain (topk 1),
as the seed's operator did. Both of SGLang's wordings of the check are the one failure.
The tracebacks are ours, in the shape of SGLang 0.5.23's and 0.5.11's."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

CATALOG = load_catalog()

NEW = """Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/server_args.py", line 5210, in __post_init__
    self._handle_speculative_decoding()
ValueError: speculative_eagle_topk > 1 with page_size > 1 is only supported on (flashinfer, fa3, triton); got attention_backend=torch_native
"""
OLD = """Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/server_args.py", line 1890, in _handle_speculative_decoding
    raise ValueError(
ValueError: speculative_eagle_topk > 1 with page_size > 1 is unstable and produces incorrect results for paged attention backends. This combination is only supported for the 'flashinfer' backend.
"""

TREE = {
    "model-path": "/m",
    "speculative-algorithm": "EAGLE",
    "speculative-draft-model-path": "/d",
    "speculative-num-steps": "3",
    "speculative-eagle-topk": "4",
    "speculative-num-draft-tokens": "8",
}


def _labels(args: dict[str, object], text: str, resolved: dict[str, object] | None = None) -> list[str]:
    diagnosis = classify(parse_text(text), CATALOG, Gate.PREFLIGHT)
    assert diagnosis.failure_class is not None and diagnosis.failure_class.id == "spec-topk-paged-backend"
    found = propose(Candidate.build(args), diagnosis, CATALOG, pinned=("model-path",), resolved=resolved or {})
    return [p.move.label() for p in found]


def test_pages_the_user_wrote_give_way_to_the_tree() -> None:
    labels = _labels({**TREE, "page-size": "16"}, NEW)
    assert labels[0] == "set page-size=1", labels
    assert labels.index("set speculative-eagle-topk=1") > labels.index("set attention-backend=triton"), labels


# Round 40e (written before the change): 0.5.11's wording names the one backend that pages
# a tree ("only supported for the 'flashinfer' backend"): that backend keeps the tree and
# the pages the user wrote, and is the message's own answer, before any other backend.


@pytest.mark.parametrize("pages", [{"page-size": "16"}, {}])
def test_the_one_backend_the_message_names_comes_first(pages: dict[str, str]) -> None:
    labels = _labels({**TREE, **pages, "attention-backend": "triton"}, OLD, {"page_size": 64})
    assert labels[0] == "set attention-backend=flashinfer", labels


def test_the_backends_own_pages_make_the_tree_a_chain() -> None:
    labels = _labels({**TREE, "attention-backend": "trtllm_mla"}, NEW, {"page_size": 64})
    assert labels[0] == "set speculative-eagle-topk=1", labels


def test_pages_the_user_wrote_under_a_tree_sglang_chose_keep_both() -> None:
    """Round 37t: no draft shape given, so SGLang chose the tree (topk > 1) and the backend;
    the user wrote only the pages. Neither tree nor backend is theirs: the backend that
    pages trees comes first, keeping the pages and the drafting SGLang chose."""
    args = {k: v for k, v in TREE.items() if k.startswith(("model", "speculative-algorithm", "speculative-draft"))}
    labels = _labels({**args, "page-size": "64"}, NEW)
    assert labels[0] == "set attention-backend=triton", labels
