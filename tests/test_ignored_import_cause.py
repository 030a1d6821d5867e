"""Issue 14 round 37f, written before the change: SGLang logs "Ignore import error when loading
sglang.srt.models.<module>: <why>" for every model module that fails to import, and goes on;
such lines are noise on most starts. But when the server then says the model's architecture
is not supported, the module that implements it failed to import, and why it failed is the
root cause (a kernel build's compiler exited 1, a missing package), not the registry's
refusal. The module is known by its name's first word in the architecture's
(toy_v2 implements ToyV3ForCausalLM). The texts are ours, in the shape SGLang prints."""

from __future__ import annotations

from .proposing import subject_of

IGNORED = (
    "[2026-01-10 10:00:01 TP0] Ignore import error when loading sglang.srt.models.toy_v2: No module named 'toykern'\n"
)
OTHER = "[2026-01-10 10:00:01 TP0] Ignore import error when loading sglang.srt.models.falcon_h1: No module named 'cutlass'\n"
REFUSED = """[2026-01-10 10:00:02 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/managers/scheduler.py", line 3000, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)
  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/models/registry.py", line 80, in _raise_for_unsupported
    raise ValueError(
ValueError: Model architectures ['ToyV3ForCausalLM'] are not supported for now. Supported architectures: dict_keys(['LlamaForCausalLM'])
"""


def test_the_failed_import_of_the_architectures_module_is_the_root() -> None:
    subject = subject_of(OTHER + IGNORED + REFUSED)
    assert "No module named 'toykern'" in subject, subject


def test_an_unrelated_modules_failed_import_leaves_the_refusal() -> None:
    subject = subject_of(OTHER + REFUSED)
    assert "are not supported for now" in subject, subject


def test_a_pasted_title_with_the_ignored_line_below_it() -> None:
    text = (
        "# [Bug] Model architectures ['ToyV3ForCausalLM'] are not supported for now.\n\n"
        "### Describe the bug\n\n"
        "[2026-01-10 10:00:01 TP3] Ignore import error when loading sglang.srt.models.toy_v2. "
        "Command '['/usr/bin/gcc', '/tmp/x/main.c', '-lcuda']' returned non-zero exit status 1.\n"
        "[2026-01-10 10:00:02 TP3] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/home/u/sglang/python/sglang/srt/managers/sche'
    )
    subject = subject_of(text)
    assert "returned non-zero exit status 1" in subject, subject
