"""Issue 14 round 47b, written before the change: a report that names one of the user's own
flags as what breaks ("--x is unsupported in ...", "crash with --x when ...", "--a & --b
generate errors") points at it when nothing else in the log does: relaunching without it is
the operator's first try, where no move was read off the failure itself. Only a flag the
user set, only with the blame words beside it: a flag merely named ("we launched with --x")
is no suspect, and the log's own advice still comes first. The failures, flags and wordings
are ours; the shape is round 70's (an issue titled "--tokenizer-worker-num parameter is
unsupported in offline engine" over an AttributeError no rule reads)."""

from __future__ import annotations

import pytest

from .test_runtime_wild import first_move

FAILURE = """\
Traceback (most recent call last):
  File "/opt/app/run_batch.py", line 41, in <module>
    outputs = llm.generate(prompts, sampling_params)
  File "/usr/local/lib/python3.11/site-packages/sglang/srt/entrypoints/engine.py", line 210, in generate
    return loop.run_until_complete(pending.__anext__())
  File "/usr/local/lib/python3.11/site-packages/sglang/srt/managers/io_router.py", line 88, in handle
    key = obj.text.find(self.marker)
AttributeError: 'NoneType' object has no attribute 'find'
"""


@pytest.mark.parametrize(
    "title",
    [
        "# [Bug] --tokenizer-worker-num parameter is unsupported with the Python engine",
        "# [Bug] crash with `--tokenizer-worker-num 4` when generating from a script",
        "# [Bug] --tokenizer-worker-num breaks sgl.Engine.generate",
        "# [Bug] --enable-metrics & --tokenizer-worker-num generate errors in offline mode",
    ],
)
def test_the_users_flag_the_report_blames_is_dropped_first(title: str) -> None:
    assert first_move(f"{title}\n\n{FAILURE}", tokenizer_worker_num=4) == "drop tokenizer-worker-num"


def test_a_flag_the_user_did_not_set_is_no_suspect() -> None:
    title = "# [Bug] --tokenizer-worker-num parameter is unsupported with the Python engine"
    assert "tokenizer-worker-num" not in first_move(f"{title}\n\n{FAILURE}")


def test_a_flag_merely_named_is_no_suspect() -> None:
    said = "We run the engine with --tokenizer-worker-num 4 on one H100 and call generate in a loop."
    assert first_move(f"{said}\n\n{FAILURE}", tokenizer_worker_num=4) != "drop tokenizer-worker-num"


def test_the_logs_own_advice_still_comes_first() -> None:
    title = "# [Bug] --tokenizer-worker-num parameter is unsupported with the Python engine"
    advice = "As a workaround, pass --disable-radix-cache."
    text = f"{title}\n\n{FAILURE}{advice}\n"
    assert first_move(text, tokenizer_worker_num=4) == "set disable-radix-cache=True"
