"""Issue 14 round 47d, written before the change (in sample: 0.4.10.post2-twelfth's
base-gpu-id-given-visible-devices-list, scored blind at round 47: the flag was dropped, the
server moved to GPU 0).

Several numbers in one word (``4,5,6,7``, the way CUDA_VISIBLE_DEVICES takes GPUs) given to
a flag that takes one number: argparse refuses the word. The value meant is one of them: the
largest for a flag named a maximum, the smallest for a minimum, else the first (where a
range starts: a base, a port, a size given first). Words that are no list of numbers keep
their other readings. The message is argparse's; the values are ours."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.meant import as_meant

from .proposing import proposed_labels

CATALOG = load_catalog()


@pytest.mark.parametrize(
    ("flag", "typed", "meant"),
    [
        ("base-gpu-id", "2,3", "2"),
        ("base-gpu-id", "4, 5, 6, 7", "4"),
        ("max-running-requests", "16,32,64", "64"),
        ("port", "30010;30011", "30010"),
    ],
)
def test_one_number_of_the_list_is_meant(flag: str, typed: str, meant: str) -> None:
    assert as_meant(typed, flag, CATALOG) == meant


@pytest.mark.parametrize("typed", ["4,5,x", "1,024", "4,,5"])
def test_words_that_are_no_list_of_numbers_are_not_read_as_one(typed: str) -> None:
    assert as_meant(typed, "base-gpu-id", CATALOG) in (None, "1024")


def test_the_search_keeps_the_first_gpu_of_the_list() -> None:
    labels = proposed_labels(
        {"base-gpu-id": "2,3", "tp-size": "2"},
        "error",
        "argument --base-gpu-id: invalid int value: '2,3'",
    )
    assert labels[0] == "set base-gpu-id=2"


@pytest.mark.parametrize(("flag", "typed"), [("mem-fraction-static", "0,85"), ("schedule-conservativeness", "1,3")])
def test_a_decimal_comma_for_a_float_is_no_list(flag: str, typed: str) -> None:
    """Round 47d', written before the change (47d's after-run read 0,85 as the list 0, 85)."""
    assert as_meant(typed, flag, CATALOG) != typed.split(",")[0]
