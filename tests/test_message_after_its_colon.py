"""Issue 14 round 43, written before the change (round 59's miss, sglang-pr30244, read after
it was scored).

An exception line quoted alone whose message ends at a source location and a colon
("RuntimeError: Error in function 'aligned_alloc' at .../allocator.h:71:", flashinfer's form)
has its detail on the next line, unindented ("Buffer overflow when allocating memory for
..."): that line is the message's, the failure itself. A line after a message that ends
otherwise (prose after "the pool is full:" too: tests/test_triton_compile_error.py) still
ends the quote. The pastes are ours."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.tracebacks import parse_text

CATALOG = load_catalog()


def subject_of(text: str) -> str:
    subject = classify(parse_text(text), CATALOG, Gate.START).subject
    return f"{subject.exception}: {subject.message}"


def test_the_line_after_a_message_ending_in_a_colon_is_its_detail() -> None:
    paste = (
        "Prefilling a 90k-token prompt gives:\n\n```\n"
        "RuntimeError: Error in function 'toy_alloc' at /opt/include/toylib/allocator.h:80:\n"
        "Workspace exhausted when allocating memory for toy_prefill_buffer with size 4096 and\n"
        "alignment 16, but only 2048 bytes available.\n"
        "```\n"
    )
    found = subject_of(paste)
    assert found.startswith("RuntimeError: Error in function 'toy_alloc'")
    assert "Workspace exhausted when allocating memory for toy_prefill_buffer" in found


def test_a_line_after_a_message_ending_otherwise_is_not_its_detail() -> None:
    paste = "```\nRuntimeError: toy kernel failed to launch\nThe server then exited.\n```\n"
    assert "exited" not in subject_of(paste)
