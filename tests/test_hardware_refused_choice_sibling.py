"""Issue 14 round 44w, written before the change (0.5.11-tenth's B200 recipe on Hopper, in our
words): a choice the user made that the message says needs other hardware ("TRTLLM MHA
backend for prefill is only supported on Blackwell GPUs") goes; where the user gave a flag of
the same choices another value (--decode-attention-backend flashinfer), that value is the
implementation the user runs on this hardware, tried before the flag is left to its
default. Without such a value the flag is left out, as before."""

from __future__ import annotations

from .proposing import FULL, proposed_labels

MESSAGE = "TRTLLM MHA backend for prefill is only supported on Blackwell GPUs (SM100). Please use a different prefill backend."


def test_the_value_the_user_runs_elsewhere_comes_first() -> None:
    args = {"prefill-attention-backend": "trtllm_mha", "decode-attention-backend": "flashinfer", "page-size": "64"}
    labels = proposed_labels(args, "ValueError", MESSAGE, catalog=FULL)
    assert labels[0] == "set prefill-attention-backend=flashinfer", labels
    assert "drop prefill-attention-backend" in labels


def test_without_one_the_flag_is_left_out() -> None:
    labels = proposed_labels({"prefill-attention-backend": "trtllm_mha"}, "ValueError", MESSAGE, catalog=FULL)
    assert labels[0] == "drop prefill-attention-backend", labels
