"""Issue 14 round 46d, written before the change: vLLM's optimization level, written as its
short option glued to the level (-O3) or in full (--optimization-level 3), is read as the
SGLang flags that do its job (vLLM's own help: O0 no compilation and no CUDA graphs, O1-O3
torch.compile (Dynamo + Inductor) with CUDA graphs): -O0 is --disable-cuda-graph, a higher
level --enable-torch-compile. And an unrecognized short option the table does not know is
still left out, never no move at all (the parser names it like a long one)."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.model import Candidate
from autofix.renames import rename_move
from autofix.repair import apply

from .proposing import proposed_labels

CATALOG = load_catalog()


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        ({"-O3": True}, "enable-torch-compile"),
        ({"-O1": True}, "enable-torch-compile"),
        ({"-O0": True}, "disable-cuda-graph"),
        ({"optimization-level": "3"}, "enable-torch-compile"),
        ({"optimization-level": "0"}, "disable-cuda-graph"),
        ({"-O": "2"}, "enable-torch-compile"),
    ],
)
def test_vllms_optimization_level_is_sglangs_compile_or_graph_switch(args: dict[str, object], flag: str) -> None:
    base = Candidate.build({"model-path": "/m", **args})
    move = rename_move(base, CATALOG, {})
    assert move is not None
    child = apply(base, move)
    assert child.arg(flag) is True or str(child.arg(flag)).lower() == "true", child
    assert not any(child.has(name) for name in args)


def test_an_unknown_short_option_the_parser_refused_is_left_out() -> None:
    labels = proposed_labels({"model-path": "/m", "-Zq": True}, "argparse_error", "error: unrecognized arguments: -Zq")
    assert "drop -Zq" in labels
