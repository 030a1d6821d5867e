"""Issue 14 round 45h, written before the change (0.5.23-thirty-second's Mamba cap, in our
words): a cap the user set to 0, refused by a message that offers a sentinel it labels as no
limit ("must be -1 (unlimited) or a positive integer, got 0"), meant that sentinel: 0 is how
many tools spell "no cap". The sentinel comes before the smallest positive value; another
refused value is not read so."""

from __future__ import annotations

from .proposing import proposed_labels

FLAG = "mamba-max-states-per-path"


def test_zero_is_read_as_the_labelled_sentinel() -> None:
    message = f"--{FLAG} must be -1 (unlimited) or a positive integer, got 0"
    labels = proposed_labels({FLAG: "0"}, "ValueError", message)
    assert labels[0] == f"set {FLAG}=-1", labels


def test_a_value_other_than_zero_is_not_read_so() -> None:
    message = f"--{FLAG} must be -1 (unlimited) or a positive integer, got -4"
    labels = proposed_labels({FLAG: "-4"}, "ValueError", message)
    assert f"set {FLAG}=-1" not in labels[:1], labels
