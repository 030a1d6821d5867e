"""Issue 14 round 36l, written before the change: a deprecation notice the server printed
on its way to the failure ("--x is deprecated. Please use --y=auto instead.") is no advice
for that failure: the deprecated flag still works, so following it costs an attempt and
fixes nothing (users22: the notice's move went before the backend the failure refused). A
line that tells how to avoid the failure stays advice. The logs are ours."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.tracebacks import parse_text

CATALOG = load_catalog()

TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/x/sglang/srt/arg_groups/toy_hook.py", line 20, in check\n'
    '    raise ValueError("toy backend needs a newer GPU")\n'
    "ValueError: toy backend needs a newer GPU\n"
)


def _advice(before: str) -> tuple[str, ...]:
    return classify(parse_text(before + TRACEBACK), CATALOG, Gate.PREFLIGHT).subject.advice


def test_a_deprecation_notice_is_no_advice_for_the_failure() -> None:
    notice = "[2026-12-06 09:20:30] --enable-toy-fusion is deprecated. Please use --toy-fusion-backend=auto instead.\n"
    assert _advice(notice) == ()


def test_a_line_that_tells_how_to_avoid_the_failure_is_advice() -> None:
    hint = "[2026-12-06 09:20:30] To avoid this error, pass --attention-backend triton.\n"
    assert any("--attention-backend triton" in line for line in _advice(hint))
