"""Issue 14 round 45e, written before the change (0.4.10.post2-tenth's trtllm_mla on a host
without a GPU, in our words): a failure raised inside a helper the validator called (a
hardware probe: "Found no NVIDIA driver on your system" from torch, under the package's
``is_sm100_supported``) says nothing a flag changes where it was raised. When the failing
frame's file gives no move, the package's callers are read outward: the validator's line
that called the helper, under ``if self.attention_backend == "trtllm_mla":``, says which
choice led there. A failure whose own frame answers it reads no caller."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import Diagnosis, caller_frames, classify
from autofix.model import Candidate, Frame, Gate
from autofix.repair import propose_outward
from autofix.tracebacks import parse_text

CATALOG = load_catalog()
ARGS = "/srv/venv/lib/python3.11/site-packages/sglang/srt/toy_args.py"
PROBE = "/srv/venv/lib/python3.11/site-packages/sglang/srt/layers/toy_probe.py"
TORCH = "/srv/venv/lib/python3.11/site-packages/torch/cuda/__init__.py"

TRACEBACK = f"""Traceback (most recent call last):
  File "{ARGS}", line 9, in __post_init__
    if not probe_blackwell():
  File "{PROBE}", line 3, in probe_blackwell
    return capability()[0] == 10
  File "{TORCH}", line 591, in _lazy_init
    torch._C._cuda_init()
RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver
"""

# Our own toy files, shaped as a validator and its probe are.
SOURCES = {
    ARGS: (
        "class ToyArgs:\n"
        "    attention_backend: str = 'auto'\n"
        "    page_size: int = 1\n"
        "\n"
        "    def __post_init__(self):\n"
        "        if self.page_size > 1024:\n"
        "            raise ValueError('page size too large')\n"
        "        if self.attention_backend == 'trtllm_mla':\n"
        "            if not probe_blackwell():\n"
        "                raise ValueError('needs Blackwell')\n"
    ),
    PROBE: "def probe_blackwell():\n    import torch\n    return capability()[0] == 10\n",
}


def _diagnosis() -> Diagnosis:
    return classify(parse_text(TRACEBACK), CATALOG, Gate.PREFLIGHT)


def test_the_callers_in_the_package_are_listed_innermost_first() -> None:
    diagnosis = _diagnosis()
    assert diagnosis.subject.frame is not None and diagnosis.subject.frame.file == PROBE
    assert [f.file for f in caller_frames(diagnosis.subject)] == [ARGS]


def test_the_validators_branch_answers_a_probe_that_failed() -> None:
    candidate = Candidate.build({"model-path": "/m", "attention-backend": "trtllm_mla", "tp-size": "8"})
    read: list[str] = []

    def source_of(frame: Frame) -> str | None:
        read.append(frame.file)
        return SOURCES.get(frame.file)

    proposals = propose_outward(candidate, _diagnosis(), CATALOG, source_of, pinned=("model-path",))
    labels = [p.move.label() for p in proposals]
    assert labels and all("attention-backend" in label for label in labels), labels
    assert read == [PROBE, ARGS]


def test_a_failure_its_own_frame_answers_reads_no_caller() -> None:
    text = TRACEBACK.replace(
        "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver",
        "ValueError: --page-size must be at most 1024",
    )
    diagnosis = classify(parse_text(text), CATALOG, Gate.PREFLIGHT)
    candidate = Candidate.build({"model-path": "/m", "page-size": "4096"})
    read: list[str] = []

    def source_of(frame: Frame) -> str | None:
        read.append(frame.file)
        return SOURCES.get(frame.file)

    assert propose_outward(candidate, diagnosis, CATALOG, source_of, pinned=("model-path",))
    assert read == [PROBE]
