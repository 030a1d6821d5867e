"""Issue 14 round 48a, written before the change: advice that names a flag of another
release (the log's own, renamed or split since) without a number is no switch when the host
spells it as a number flag: `--cuda-graph-max-bs` is 0.5.23's `--cuda-graph-max-bs-decode`,
which takes a batch size, never True. The advice's number, where a line gives one, is the
move. The failure lines are ours; the shape is round 74's (a pull request titled "add
--cuda-graph-max-bs to ..." whose description gives the value)."""

from __future__ import annotations

from autofix.model import Candidate
from autofix.repair import propose

from .test_runtime_wild import CATALOG, diagnose, first_move

CAPTURE_OOM = (
    "Without this flag the server captures CUDA graphs for 36 batch sizes and runs out of memory during capture.\n"
)


def _moves(text: str) -> list[str]:
    return [p.move.label() for p in propose(Candidate(()), diagnose(text), CATALOG)]


def test_a_number_flag_of_another_release_advised_without_a_value_is_never_true() -> None:
    text = "# fix: add --cuda-graph-max-bs to the DeepSeek test\n" + CAPTURE_OOM
    assert not any(label.endswith("=True") and "cuda-graph-max-bs" in label for label in _moves(text))


def test_the_value_another_line_advises_is_the_first_move() -> None:
    text = "# fix: add --cuda-graph-max-bs to the DeepSeek test\n- Add `--cuda-graph-max-bs 2` to the test\n"
    assert first_move(text + CAPTURE_OOM) == "set cuda-graph-max-bs-decode=2"


def test_a_switch_of_another_release_advised_is_still_turned_on() -> None:
    """A switch of another release the host renamed to a switch keeps its reading: only a
    flag that takes a number or a word loses the True."""
    text = "Please add --enable-dsa-prefill-context-parallel to avoid the crash.\n" + CAPTURE_OOM
    assert first_move(text) == "set enable-prefill-cp=True"
