"""Issue 14 round 31, written before the change.

A value written as a percentage where the check wants a fraction ("--x must be between 0
and 1", the user gave 80) meant 0.8: that reading goes before the flag's own default and
the nearest bound, for a range from 0 to 1 and a whole number from 10 to 100. Other
ranges, and values that are no percentage (1.5, 250), are mended as before. The wordings are
SGLang 0.5.23's; the values are ours."""

from __future__ import annotations

from .proposing import proposed_labels


def _labels(args: dict[str, object], message: str) -> list[str]:
    return proposed_labels(args, "ValueError", message)


def test_a_percentage_given_to_a_fraction_is_read_as_one() -> None:
    labels = _labels(
        {"disaggregation-decode-host-receive-threshold": "80", "disaggregation-mode": "decode"},
        "--disaggregation-decode-host-receive-threshold must be between 0 and 1",
    )
    assert labels[0] == "set disaggregation-decode-host-receive-threshold=0.8"


def test_a_value_above_a_hundred_is_no_percentage() -> None:
    labels = _labels(
        {"disaggregation-decode-host-receive-threshold": "250", "disaggregation-mode": "decode"},
        "--disaggregation-decode-host-receive-threshold must be between 0 and 1",
    )
    assert "set disaggregation-decode-host-receive-threshold=2.5" not in labels


def test_a_small_value_over_the_bound_is_no_percentage() -> None:
    labels = _labels({"swa-full-tokens-ratio": "1.5"}, "--swa-full-tokens-ratio should be in range (0, 1.0]")
    assert "set swa-full-tokens-ratio=0.015" not in labels


def test_a_range_that_is_not_zero_to_one_is_mended_as_before() -> None:
    labels = _labels({"mem-fraction-static": "80"}, "--mem-fraction-static must be in the range (0, 100]... ")
    assert "set mem-fraction-static=0.8" not in labels


# Round 46b, written before the change: a percentage given to a float flag the parser leaves
# without a default (a usage watermark, a queue ratio: SGLang picks it at start) is a part of
# a whole too: 30% is 0.3. What else a percentage could mean to a float there is nothing.


def test_a_percentage_given_to_a_float_with_no_default_is_a_fraction() -> None:
    from autofix.catalog import load_catalog
    from autofix.meant import as_meant

    catalog = load_catalog()
    floats = [
        name
        for name, info in catalog.flags.items()
        if info.kind == "value" and info.type == "float" and info.default is None
    ]
    assert floats  # the parser has such flags: the reading is measured on all of them
    for name in floats:
        assert as_meant("30%", name, catalog) == "0.3", name


def test_a_percentage_given_to_an_int_flag_is_still_no_number() -> None:
    from autofix.catalog import load_catalog
    from autofix.meant import as_meant

    assert as_meant("50%", "max-running-requests", load_catalog()) is None


def test_the_parser_refusing_a_percentage_for_such_a_float_gets_the_fraction_first() -> None:
    # the parser's own words and Python's, both naming the value the user typed
    for message in (
        "argument --swa-full-tokens-ratio: invalid float value: '40%'",
        "could not convert string to float: '40%'",
    ):
        labels = _labels({"swa-full-tokens-ratio": "40%"}, message)
        assert labels[0] == "set swa-full-tokens-ratio=0.4", message


def test_a_refused_member_of_a_list_keeps_the_list() -> None:
    # Round 46i, written before the change (46b's after-run: the fifteenth set's buckets): the
    # parser names only the first member it refused; the flag holds them all, each as meant.
    from .proposing import proposed

    _, found = proposed(
        {"prefill-delayer-wait-seconds-buckets": ["200ms", "750ms", "2s"]},
        "SystemExit",
        "argument --prefill-delayer-wait-seconds-buckets: invalid float value: '200ms'",
    )
    assert found
    first = found[0].move.edits[0]
    assert first.target == "prefill-delayer-wait-seconds-buckets"
    assert first.value == ("0.2", "0.75", "2")
    # and no reading of the one member named stands for the whole list (the search takes a
    # spelled reading as what was meant: a lone 0.2 would lose the other buckets)
    assert not any(e.value == "0.2" for p in found for e in p.move.edits)
