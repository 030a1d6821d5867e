"""Issue 14 round 36g, written before the change: failure lines a paste gives without the
usual shape of an exception line.

- A line that is only an exception's class name, with what it said on the next line (a
  two-line quote of a compile error): the pair is the failure, the class first; the engine
  read the second line alone.
- A refusal to reach a resource ("Cannot access gated repo for url ...", "could not connect
  to ..."): a failure as plain as an error word, above an issue's title; the engine read the
  title ("Switch to non gated models") as the error.

The pastes are ours, in the shapes users' issue bodies take."""

from __future__ import annotations

from .proposing import subject_of


def test_a_class_name_alone_then_its_message_is_one_failure() -> None:
    text = (
        "# Toy model crashes on its first request\n"
        "\n"
        "The server starts, then the first request fails with:\n"
        "```text\n"
        "toylib.compiler.errors.CompileError\n"
        'AssertionError("Mismatched type for x between then block (fp32) and else block (fp16)")\n'
        "```\n"
        "It worked last week.\n"
    )
    said = subject_of(text)
    assert "toylib.compiler.errors.CompileError" in said
    assert "Mismatched type for x" in said


def test_a_class_name_alone_with_nothing_after_it_is_still_read() -> None:
    text = "# Toy crash\n\nI only see this:\n```\ntoylib.errors.ToyError\n```\n"
    assert "toylib.errors.ToyError" in subject_of(text)


def test_a_refused_access_outranks_the_issue_title() -> None:
    text = (
        "# Use some other default model\n"
        "\n"
        "When running\n"
        "```\n"
        "python -m sglang.launch_server --model-path toy-org/toy-7b --port 30000\n"
        "```\n"
        "I get\n"
        "```\n"
        "Cannot access gated repo for url https://huggingface.co/toy-org/toy-7b/resolve/main/config.json.\n"
        "Access to model toy-org/toy-7b is restricted. You must be authenticated to access it.\n"
        "```\n"
    )
    assert "Cannot access gated repo" in subject_of(text)


def test_a_plain_sentence_about_access_is_not_a_failure_line() -> None:
    """'access' in a sentence that states no failure stays no evidence."""
    text = "# Toy crash\n\nWe access the server over a tunnel.\n```\nRuntimeError: toy kernel failed\n```\n"
    assert "toy kernel failed" in subject_of(text)
