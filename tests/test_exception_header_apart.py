"""Issue 14 round 46a, written before the change: an exception line and its message pasted
apart, and a traceback cut inside the header of its next frame.

- ``RuntimeError:`` alone on its line, then (after a blank line, or an opening fence) the
  message inside a code fence: users paste the class as prose and the text in a fence. The
  engine read an empty message.
- A traceback whose last line is the first letters of a frame header ("Fil", the paste cut
  before ``File "...``) ends there, cut; the letters are no exception class.

The pastes are ours, in the shapes users' issue bodies take (round 68's deterministic-mode
reports)."""

from __future__ import annotations

import pytest

from .proposing import subject_of

MESSAGE = "ToyGEMM failed for matrix shapes M=256, N=1076, K=1152."


@pytest.mark.parametrize(
    "between",
    ["\n", "\n\n", "\n```\n", "\n\n```\n", "\n```text\n", "\n\n```text\n"],
    ids=["next-line", "blank", "fence", "blank-fence", "fence-lang", "blank-fence-lang"],
)
def test_a_bare_class_line_takes_the_message_pasted_below_it(between: str) -> None:
    text = (
        "# [Bug] Toy mode crashes at warmup\n"
        "\n"
        "The scheduler crashes at warmup when the toy kernel gets odd shapes:\n"
        "\n"
        f"RuntimeError:{between}"
        f"{MESSAGE}\n"
        "This typically occurs when dimensions are too small.\n"
        "```\n"
    )
    said = subject_of(text)
    assert said.startswith("RuntimeError: ")
    assert MESSAGE in said


def test_a_bare_class_line_with_nothing_below_it_stays_bare() -> None:
    # a fence that opens and closes with nothing in it gives no message to take
    text = "# Toy crash\n\nI only see:\n\nRuntimeError:\n\n```\n```\n"
    assert subject_of(text).startswith("RuntimeError")
    assert "```" not in subject_of(text)


def test_a_frame_header_cut_to_its_first_letters_is_no_exception() -> None:
    text = (
        "# [Bug] toy mode crashes at warmup with ToyOutOfResources\n"
        "\n"
        "The scheduler traceback ends with:\n"
        "\n"
        "```text\n"
        'File ".../toy/layers/linear.py", line 472, in forward\n'
        "  output = self.quant_method.apply(self, x, bias)\n"
        'File ".../toy/ops/persistent.py", line 315, in matmul_persistent\n'
        "  return _matmul_persistent_toy(a=a, b=b)\n"
        "Fil"
    )
    said = subject_of(text)
    assert not said.startswith("Fil:")
    assert "ToyOutOfResources" in said


@pytest.mark.parametrize("cut", ["F", "Fi", "File"])
def test_any_cut_of_the_header_ends_the_traceback(cut: str) -> None:
    text = f'Traceback (most recent call last):\n  File "/toy/server.py", line 10, in main\n    run()\n{cut}\n'
    assert not subject_of(text).startswith(f"{cut}:")


def test_a_bare_exception_name_after_frames_is_still_read() -> None:
    # Python prints an exception with no message as its bare class name
    text = 'Traceback (most recent call last):\n  File "/toy/server.py", line 10, in main\n    run()\nToyInterrupt\n'
    assert subject_of(text).startswith("ToyInterrupt")
