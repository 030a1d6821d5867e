"""Issue 14 round 37g, written before the change: a user who quotes the error in backticks
in a sentence about something else ("the stacktrace is vague to me, `ToyKernel failed to
dispatch with dtype Half`, ...") quotes the error itself: a message that says what failed
to happen. The engine read such a quote only with a colon after "failed" ("Capture cuda
graph failed: x") and took the user's sentence about the crash instead. The text is ours."""

from __future__ import annotations

from .proposing import subject_of

PASTE = """# [BUG] toy model crashes

We ran the toy server on two cards and both crash in the kernel library with the stacktrace below.

@maintainer Since the stacktrace is vague to me, `ToyPrefillWrapper failed to dispatch with dtype Half`, I am reporting it here first.

```
Traceback (most recent call last):
  File "/root/venv/lib/python3.11/site-packages/sglang/srt/managers/router/model_rpc.py", line 184, in exposed_step
    self.forward_step()
  File "/root/venv/lib/python3.11/site-packages/sglang/srt/manag
"""


def test_a_backticked_failed_to_message_is_the_error() -> None:
    assert "failed to dispatch with dtype Half" in subject_of(PASTE)


def test_a_backticked_flag_is_still_no_error() -> None:
    text = PASTE.replace("`ToyPrefillWrapper failed to dispatch with dtype Half`", "`--disable-cuda-graph`")
    assert "--disable-cuda-graph" not in subject_of(text)
