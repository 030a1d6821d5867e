"""Issue 14 round 48f, written before the change: a class move that rounds a size up to a
multiple of another (tp up to a multiple of the attention-DP groups) reads the size the
server ran with when the command leaves it out: the parser's default (tp 1), since SGLang
reports only what it changed. A command that gives --dp-size 8 with attention DP and no
--tp-size (vLLM's wide-EP layout written for SGLang: the 0.5.23 thirty-sixth set's shape)
gets --tp-size 8: the eight GPUs it counted. Our own move spec and flags."""

from __future__ import annotations

from autofix.catalog import EditSpec, MoveSpec, ValueSpec, load_catalog
from autofix.model import Candidate, EditOp
from autofix.repair import Flags, realize

CATALOG = load_catalog()
ROUND_TP_UP = MoveSpec((EditSpec(EditOp.SET, "tp-size", ValueSpec(source="tp-size", round_up_to="attn-dp-size")),))


def _move(args: dict[str, object], resolved: dict[str, object]) -> str | None:
    flags = Flags(Candidate.build({"model-path": "/m", **args}), CATALOG, ("model-path",), resolved=resolved)
    move = realize(ROUND_TP_UP, flags, resolved, {}, origin="t")
    return move.label() if move is not None else None


def test_a_size_left_out_is_rounded_up_from_its_default() -> None:
    args = {"dp-size": 8, "enable-dp-attention": True, "ep-size": 8}
    assert _move(args, {"attn_dp_size": 8}) == "set tp-size=8"


def test_a_size_the_user_gave_is_rounded_up_from_theirs() -> None:
    args = {"tp-size": 6, "dp-size": 4, "enable-dp-attention": True}
    assert _move(args, {"attn_dp_size": 4}) == "set tp-size=8"
