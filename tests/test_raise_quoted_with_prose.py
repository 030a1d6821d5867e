"""Issue 14 round 45m, written before the change (round 63's auto-selected backend on an RTX
5090, in our words): a report whose traceback was cut before its exception line, that quotes
the code raising ("raise ValueError(" then the message's string) and says in prose that this
exception is raised, states the failure by that raise: the exception and its message. Code
quoted without a sentence saying it raised is only code."""

from __future__ import annotations

from .proposing import subject_of

CODE = (
    'if self.attention_backend == "toy_mha":\n'
    "if not toy_arch_supported():\n"
    "raise ValueError(\n"
    '"TOY MHA backend is only supported on Toy GPUs. Please use a different backend."\n'
    ")\n"
)
CUT = (
    "Traceback (most recent call last):\n"
    'File "/srv/sglang/python/sglang/launch_server.py", line 25, in\n'
    "server_args = prepare_server_args(sys.argv[1:])\n"
    'File "/srv/sglang/python/sglang/srt/server_ar'
)


def test_the_raise_the_prose_says_happened_is_the_failure() -> None:
    text = f"# [Bug] auto backend fails\n\nLater during the arch check, a ValueError is raised.\n{CODE}Reproduction\n{CUT}\n"
    assert subject_of(text) == (
        "ValueError: TOY MHA backend is only supported on Toy GPUs. Please use a different backend."
    )


def test_quoted_code_alone_is_only_code() -> None:
    text = f"# [Bug] auto backend fails\n\nThe check reads:\n{CODE}Reproduction\n{CUT}\n"
    assert not subject_of(text).startswith("ValueError: TOY MHA")
