"""Issue 14 round 30, written before the change (the second test narrowed after measuring).

Two readings of a paste that has no traceback to its failure:
- A program saying it goes on past an error states no failure: SGLang logs "Ignore import
  error when loading sglang.srt.models.X" for every optional model module it cannot
  import, on every start. The line that reports the failure is read instead.
- Triton's OutOfResources ("out of resource: shared memory, Required: ...") names its kind
  of failure as out of memory does. An issue whose paste was cut after "The error log is as
  following:" is read from its title that states it. (First written to make such an intro
  sentence state nothing at all; on the corpus that traded two threads, whose pastes are
  cut before any error, for two others, so the narrower reading was kept.)

These tests use their own logs."""

from __future__ import annotations

import pytest

from .proposing import subject_of


def test_an_ignored_import_error_is_not_the_failure() -> None:
    text = (
        "[2026-01-02 10:00:00 TP1] Ignore import error when loading sglang.srt.models.widget: name 'wd' is not defined\n"
        "[2026-01-02 10:00:00 TP0] Ignore import error when loading sglang.srt.models.widget: name 'wd' is not defined\n"
        "[2026-01-02 10:00:01 TP0] Load weight begin. avail mem=70.00 GB\n"
        "[2026-01-02 10:00:02 TP0] Corrupted safetensors file detected: /data/hub/model-00003-of-00008.safetensors\n"
    )
    assert "Corrupted safetensors file detected" in subject_of(text)


@pytest.mark.parametrize(
    "intro",
    ["The error log is as following:", "I got the following error:", "Here is the traceback:", "Error output below:"],
)
def test_a_title_stating_out_of_resources_outranks_a_sentence_introducing_the_paste(intro: str) -> None:
    text = (
        "# [Bug] OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 65536 on MI210\n"
        "\n### Describe the bug\n\nRunning the model with tp 4.\n\n"
        f"{intro}\n"
    )
    assert "Required: 131072" in subject_of(text)
