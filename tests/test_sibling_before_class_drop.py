"""Issue 14 round 45a, written before the change (0.5.11's split-backend recipes from a B200
brought to Hopper, in our words): where a class's answer to a backend refused for this
hardware is to leave that flag out, and the user gave a flag of the same choices another
value (--decode-attention-backend flashinfer beside --prefill-attention-backend trtllm_mha),
that value is tried first: the message asks for "a different backend", the user runs that one
on this host, and the split the user chose stays. Without such a value the class's drop comes
first, as before."""

from __future__ import annotations

from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

from .proposing import FULL, tried_after_base


def _traceback(message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/sglang/srt/server_args.py", line 900, in _handle_attention_backend\n'
        "    raise ValueError(\n"
        f"ValueError: {message}\n"
    )


PREFILL = "TRTLLM MHA backend for prefill is only supported on Blackwell GPUs (SM100). Please use a different prefill backend."
DECODE = "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100/SM12x). Please use a different backend."


def _proposed(args: dict[str, object], message: str) -> tuple[Candidate, list[str], str]:
    candidate = Candidate.build({"model-path": "/m", **args})
    diagnosis = classify(parse_text(_traceback(message)), FULL, Gate.PREFLIGHT)
    assert diagnosis.failure_class is not None  # the catalogue's class answers it
    proposals = propose(candidate, diagnosis, FULL, pinned=("model-path",))
    return candidate, [p.move.label() for p in proposals], tried_after_base(candidate, proposals)


def test_the_prefill_backend_takes_the_decode_one() -> None:
    args = {"prefill-attention-backend": "trtllm_mha", "decode-attention-backend": "flashinfer", "page-size": "64"}
    _, labels, first = _proposed(args, PREFILL)
    assert labels.index("set prefill-attention-backend=flashinfer") < labels.index("drop prefill-attention-backend")
    assert first == "set prefill-attention-backend=flashinfer"


def test_the_decode_backend_takes_the_prefill_one() -> None:
    args = {"prefill-attention-backend": "fa3", "decode-attention-backend": "trtllm_mla", "kv-cache-dtype": "fp8_e4m3"}
    _, _, first = _proposed(args, DECODE)
    assert first == "set decode-attention-backend=fa3"


def test_without_a_value_beside_the_class_drop_stays_first() -> None:
    _, labels, first = _proposed({"prefill-attention-backend": "trtllm_mha"}, PREFILL)
    assert labels[0] == "drop prefill-attention-backend"
    assert first == "drop prefill-attention-backend"
