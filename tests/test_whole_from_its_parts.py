"""Issue 14 round 48g, written before the change: a size that others split into groups (TP,
which attention DP and EP split) given no value, or an empty one (an unset variable in
`--tp-size "$TP"`), is the least size every part the command gives divides: `--dp-size 8
--enable-dp-attention --ep-size 8` with `--tp-size ''` means TP 8. With no part given there
is no value to read, and nothing is guessed."""

from __future__ import annotations

from .proposing import proposed


def _first(args: dict[str, object], message: str) -> str:
    _, found = proposed(args, "argparse_error", message)
    return found[0].move.label() if found else "-"


def test_an_empty_size_is_the_least_whole_its_parts_divide() -> None:
    args = {"tp-size": "", "dp-size": 8, "enable-dp-attention": True, "ep-size": 8}
    said = "sglang serve: error: argument --tp-size/--tensor-parallel-size: invalid int value: ''"
    assert _first(args, said) == "set tp-size=8"


def test_a_size_given_no_value_is_the_whole_of_its_parts() -> None:
    args = {"tp-size": True, "attn-dp-size": 4, "ep-size": 4}
    said = "sglang serve: error: argument --tp-size/--tensor-parallel-size: expected one argument"
    assert _first(args, said) == "set tp-size=4"


def test_parts_of_different_sizes_give_their_least_common_multiple() -> None:
    """(More GPUs than any part asks for: proposed, after what keeps the host's count.)"""
    args = {"tp-size": True, "attn-dp-size": 4, "ep-size": 6}
    said = "sglang serve: error: argument --tp-size/--tensor-parallel-size: expected one argument"
    _, found = proposed(args, "argparse_error", said)
    assert "set tp-size=12" in [p.move.label() for p in found]


def test_no_part_given_guesses_no_size() -> None:
    args = {"tp-size": "", "mem-fraction-static": 0.8}
    said = "sglang serve: error: argument --tp-size/--tensor-parallel-size: invalid int value: ''"
    assert not _first(args, said).startswith("set tp-size=")


def test_an_empty_value_with_nothing_to_read_it_from_is_left_to_the_server() -> None:
    """48n (written before the change; the after-run's thirty-sixth case): an unset variable
    quoted for a flag nothing in the command sizes (the memory fraction) asks for the
    server's own value: the flag goes, no value of its domain is guessed first."""
    args = {"mem-fraction-static": "", "tp-size": 2}
    said = "sglang serve: error: argument --mem-fraction-static: invalid float value: ''"
    assert _first(args, said) == "drop mem-fraction-static"
