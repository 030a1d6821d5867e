"""Issue 14 round 41, written before the change (two 0.4.10.post2 sets carry it in sample, each
scored blind before): the checkpoint's config names its quantization and the command names
another. SGLang (every release here) says both: "Quantization method specified in the model
config (fp8) does not match the quantization method specified in the `quantization`
argument (awq)." The checkpoint is what it is: the flag takes the config's method, else it
goes and SGLang reads the config's. The values are ours."""

from __future__ import annotations

from .proposing import FULL, proposed_labels

_MISMATCH = (
    "Quantization method specified in the model config (fp8) does not match the quantization method "
    "specified in the `quantization` argument (awq)."
)


def test_the_flag_takes_the_checkpoints_method_first() -> None:
    labels = proposed_labels({"quantization": "awq", "tp-size": "4"}, "ValueError", _MISMATCH, catalog=FULL)
    assert labels[0] == "set quantization=fp8"


def test_offline_the_same_move_from_the_message_alone() -> None:
    from autofix.classify import classify
    from autofix.model import Gate
    from autofix.repair import offline_moves
    from autofix.tracebacks import parse_text

    diagnosis = classify(parse_text(f"ValueError: {_MISMATCH}\n"), FULL, Gate.PREFLIGHT)
    assert diagnosis.failure.class_id == "quantization-differs-from-checkpoint"
    assert offline_moves(diagnosis, FULL, None)[0].label() == "set quantization=fp8"
