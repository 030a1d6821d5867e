"""Issue 14 round 41, written before the change: a prefix the parser took is not what it refused.

argparse reads a unique prefix of a long flag as that flag (``--mem-frac 0.9`` is
``--mem-fraction-static 0.9``): renaming it launches the same server. When the parser's error
is about another flag (an invalid choice), spelling the prefix out first costs an attempt
and answers nothing; the rename still comes when the parser names the prefix itself (a
parser that takes no abbreviations: "unrecognized arguments: --mem-frac 0.9")."""

from __future__ import annotations

from autofix.model import EditOp

from .proposing import proposed, proposed_labels

_CHOICE = (
    "sglang serve: error: argument --reasoning-parser: invalid choice: 'DeepSeek-R1' "
    "(choose from 'deepseek-r1', 'deepseek-v3', 'qwen3')"
)


def test_a_prefix_the_parser_took_is_not_renamed_for_another_flags_error() -> None:
    labels = proposed_labels({"mem-frac": "0.9", "reasoning-parser": "DeepSeek-R1"}, "argparse_error", _CHOICE)
    assert labels[0] == "set reasoning-parser=deepseek-r1"
    assert not any("rename mem-frac" in label for label in labels)


def test_an_unknown_flag_is_still_renamed_beside_the_refused_value() -> None:
    """A flag no parser has under that name is renamed in the same move as ever: argparse
    reports it only after the invalid choice is mended."""
    _, proposals = proposed(
        {"mem-frac": "0.9", "enable-ep-moe": True, "tp": "8", "reasoning-parser": "DeepSeek-R1"},
        "argparse_error",
        _CHOICE,
    )
    first = proposals[0].move
    renamed = {str(e.target) for e in first.edits if e.op is EditOp.RENAME}
    assert "enable-ep-moe" in renamed or any(e.target == "enable-ep-moe" for e in first.edits)
    assert "mem-frac" not in renamed


def test_a_prefix_the_parser_names_is_renamed() -> None:
    labels = proposed_labels(
        {"mem-frac": "0.9"}, "argparse_error", "sglang serve: error: unrecognized arguments: --mem-frac 0.9"
    )
    assert labels[0] == "rename mem-frac to mem-fraction-static"


def test_a_prefix_that_means_another_flag_is_still_renamed() -> None:
    """`--quantize fp8`: argparse takes the prefix for the switch --quantize-and-serve and
    refuses the word; the user meant --quantization (another engine's flag). Found at the
    after-run of round 41 (crossover's TGI case), written before the mend."""
    labels = proposed_labels({"quantize": "fp8"}, "argparse_error", "sglang serve: error: unrecognized arguments: fp8")
    assert labels[0] == "rename quantize to quantization"


def test_a_prefix_with_the_rest_of_its_name_as_its_value_is_rejoined() -> None:
    """`--node-r ank 0` (a line break split the flag): argparse takes --node-r for --node-rank
    and refuses 'ank'; the rename rejoins the name and keeps 0 (users8's case)."""
    _, proposals = proposed(
        {"node-r": ("ank", "0"), "nnodes": "2"},
        "argparse_error",
        "sglang serve: error: argument --node-rank: invalid int value: 'ank'",
    )
    assert proposals and proposals[0].child.arg("node-rank") == "0"
