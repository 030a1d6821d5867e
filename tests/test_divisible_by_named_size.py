"""Issue 14 round 42d, written before the change (in sample: four blind cases of the
0.4.10.post2 and 0.5.11 sets, scored at rounds 36-41, passed by dropping the user's
--chunked-prefill-size or setting it to 0, chunking lost: FlashMLA, Cutlass MLA and the
Ascend backend set the page size themselves, and the user's chunk is no multiple of it).

"a must be divisible by b", both named, with a's value the user's and b's known (set by the
user, or what SGLang resolved it to before refusing): a is set to a multiple of b. A size
written in decimal thousands (8000) is first read as the binary thousands it stands for
(8 x 1024), when that is a multiple; then the next multiple up, then the one below. The
fields and values are ours."""

from __future__ import annotations

import pytest

from .proposing import proposed

MESSAGE = "zz_chunk_size must be divisible by zz_page"


def _labels(args: dict[str, object], resolved: dict[str, object] | None = None, message: str = MESSAGE) -> list[str]:
    from autofix.catalog import load_catalog

    flags = {
        "model-path": {"kind": "value", "type": "str"},
        "zz-chunk-size": {"kind": "value", "type": "int"},
        "zz-page": {"kind": "value", "type": "int"},
        "zz-backend": {"kind": "value", "type": "str"},
    }
    host = load_catalog().without_classes().with_parser({"flags": flags}, "9.9.9")
    _, found = proposed(args, "AssertionError", message, catalog=host, resolved=resolved)
    return [p.move.label() for p in found]


@pytest.mark.parametrize(
    ("chunk", "page", "first", "then"),
    [
        ("8000", "128", "8192", "8064"),
        ("6000", "64", "6144", "6016"),
        ("12000", "128", "12288", "12032"),
        ("1000", "96", "1056", "960"),  # 1024 is no multiple of 96: the nearest ones
        ("5000", "48", "5040", "4992"),
    ],
)
def test_the_size_becomes_a_multiple_of_the_one_it_divides_by(chunk: str, page: str, first: str, then: str) -> None:
    labels = _labels({"zz-chunk-size": chunk, "zz-page": page})
    assert labels[:2] == [f"set zz-chunk-size={first}", f"set zz-chunk-size={then}"], labels


def test_the_divisor_sglang_resolved_is_read() -> None:
    labels = _labels({"zz-chunk-size": "6000", "zz-backend": "x"}, resolved={"zz_page": 64})
    assert labels[0] == "set zz-chunk-size=6144", labels


def test_nothing_when_a_value_is_unknown_or_already_a_multiple() -> None:
    assert not any(lb.startswith("set zz-chunk-size") for lb in _labels({"zz-chunk-size": "6000"}))
    assert not any(lb.startswith("set zz-chunk-size") for lb in _labels({"zz-chunk-size": "6144", "zz-page": "64"}))


def test_a_multiple_of_is_the_same_relation() -> None:
    labels = _labels(
        {"zz-chunk-size": "8000", "zz-page": "128"}, message="zz_chunk_size must be a multiple of zz_page."
    )
    assert labels[0] == "set zz-chunk-size=8192", labels
