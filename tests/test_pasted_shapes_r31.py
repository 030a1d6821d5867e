"""Issue 14 round 31, written before the change: four shapes a pasted log takes that hid
its failure. The texts are ours; the shapes are those real pastes take.

- A frame whose code and exception were glued onto its line (the paste lost the newlines):
  ``File "m.py", line 3, in f x = g() TypeError: g() missing 1 required ...``.
- A traceback re-indented as a block, its closing exception line indented like its frames
  (``  AssertionError`` after the carets): it closes the traceback, it is no decoration.
- A launcher that reports a child's exit code -9 (SIGKILL, the kernel's OOM killer at
  work): the process was killed, which says more than "the scheduler is dead".
- A paste whose only failure words are weak ones (``... are not supported for now``) under
  an issue template: that sentence is the failure, not nothing."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.tracebacks import parse_text

from .proposing import subject_of


def test_a_frame_with_its_code_and_exception_glued_on() -> None:
    text = (
        "I run the server and get this:\n\n"
        '  File "/srv/app/python/sglang/srt/models/toy.py", line 88, in __init__ self.cache = self.rope.build() '
        "TypeError: Rope.build() missing 2 required positional arguments: 'base' and 'scale'\n\n"
        "Any idea?\n"
    )
    assert subject_of(text) == ("TypeError: Rope.build() missing 2 required positional arguments: 'base' and 'scale'")


def test_a_glued_frame_keeps_its_code_as_the_source() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/sglang/srt/managers/toy.py", line 12, in run out = step(batch) '
        "KeyError: 'toy_arch'\n"
    )
    journal = parse_text(text)
    tb = journal.tracebacks[0]
    assert tb.exc_type == "KeyError"
    assert tb.frames[-1].function == "run"
    assert "out = step(batch)" in tb.frames[-1].source


def test_a_glued_frame_without_an_exception_is_a_frame_and_its_code() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/sglang/srt/managers/toy.py", line 12, in run out = step(batch)\n'
        "RuntimeError: step failed\n"
    )
    tb = parse_text(text).tracebacks[0]
    assert (tb.exc_type, tb.frames[-1].function) == ("RuntimeError", "run")


def test_an_exception_line_indented_like_the_frames_closes_the_traceback() -> None:
    text = (
        "This assertion crashes the server:\n"
        "```\n"
        'File "sglang/srt/managers/toy_batch.py", line 40, in prepare\n'
        "      n = _align(seq)\n"
        '  File "sglang/srt/managers/toy_batch.py", line 21, in _align\n'
        "      assert n % block == 0\n"
        "             ^^^^^^^^^^^^^^\n"
        "  AssertionError\n"
        "```\n"
        "It happens on both GPUs.\n"
    )
    assert subject_of(text) == "AssertionError: assert n % block == 0"


def test_indented_decoration_is_still_no_exception() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/toy.py", line 3, in main\n'
        "    run()\n"
        "  Notes\n"
        "ValueError: bad size\n"
    )
    assert parse_text(text).tracebacks[0].exc_type == "ValueError"


def test_a_child_that_exited_with_code_minus_nine_was_killed() -> None:
    text = (
        "[12-03 09:14:02] Rank 0 scheduler is dead. Please check if there are relevant logs.\n"
        "[12-03 09:14:03] Exit code: -9\n"
    )
    journal = parse_text(text)
    assert journal.first_signal("killed") is not None
    diagnosis = classify(journal, load_catalog(), Gate.START)
    assert diagnosis.failure.class_id == "killed-by-signal"


def test_an_exit_code_of_zero_or_one_is_no_kill() -> None:
    assert parse_text("[12-03 09:14:03] Exit code: 0\n").first_signal("killed") is None
    assert parse_text("process exited with exit code -90\n").first_signal("killed") is None


def test_a_weak_failure_sentence_is_the_failure_when_nothing_states_more() -> None:
    text = (
        "### Is there an existing issue?\n\n"
        "- [X] I have searched, and there is no existing issue.\n\n"
        "### Describe the bug\n\n"
        "Model architectures ['ToyLM'] are not supported for now. Supported architectures: ['LlamaForCausalLM']\n\n"
        "### Environment\n\n"
        "- OS: Ubuntu 22.04\n"
    )
    assert "are not supported for now" in subject_of(text)


def test_a_stronger_line_still_wins_over_a_weak_one() -> None:
    text = (
        "### Describe the bug\n\n"
        "FP8 on this card is not supported, so I tried bf16.\n"
        "Then the server crashed with an error at startup.\n"
    )
    assert "crashed" in subject_of(text)
