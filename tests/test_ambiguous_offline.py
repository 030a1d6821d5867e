"""Issue 14 round 39, written before the change.

argparse's "ambiguous option: --pp could match --pp-size, ..." shows the flag as typed but
not its value. Offline (a pasted error, no argv) the rename to the full name is the move:
the value the user gave goes with it. Setting the renamed flag to a placeholder (1 for a
size) would throw the user's value away. The wording is argparse's; the flags are SGLang
0.5.23's."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.repair import offline_moves
from autofix.tracebacks import parse_text

FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "pp-size": {"kind": "value", "type": "int", "default": 1, "help": "The pipeline parallelism size."},
    "pp-max-micro-batch-size": {"kind": "value", "type": "int"},
    "pp-async-batch-depth": {"kind": "value", "type": "int", "default": 0},
}
CATALOG = load_catalog().with_parser({"flags": FLAGS}, "9.9.9")


def test_an_ambiguous_prefix_is_renamed_and_its_value_kept() -> None:
    text = (
        "usage: sglang serve [-h] ...\n"
        "sglang serve: error: ambiguous option: --pp could match --pp-size, --pp-max-micro-batch-size, "
        "--pp-async-batch-depth\n"
    )
    moves = offline_moves(classify(parse_text(text), CATALOG, Gate.PREFLIGHT), CATALOG)
    assert [m.label() for m in moves][:1] == ["rename pp to pp-size"]
