"""Issue 14 round 18, written before the change: more ways a user writes a value the parser
refuses, read as meant: a percentage given to a float whose parser default is a fraction
(0 < default <= 1), a thousands separator in a whole number, quotes a shell never
stripped, a port written with its host or its protocol (host:port, N/tcp) for a -port flag,
a ratio a:b for a ratio flag, every member of a list written with a unit, and an on/off
switch given a value (true/1 turn it on bare, false/0 drop it). These tests use their own
values."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed

BARE = load_catalog().without_classes()


def first(args: dict[str, object], message: str) -> str:
    _, found = proposed(args, "SystemExit", message, catalog=BARE)
    return found[0].move.label() if found else "-"


def refused(flag: str, kind: str, value: str) -> str:
    return f"argument --{flag}: invalid {kind} value: '{value}'"


def test_a_percentage_of_a_fraction_by_its_default() -> None:
    args = {"tbo-token-distribution-threshold": "35%"}
    assert first(args, refused("tbo-token-distribution-threshold", "float", "35%")) == (
        "set tbo-token-distribution-threshold=0.35"
    )


def test_a_thousands_separator() -> None:
    args = {"max-prefill-tokens": "16,384"}  # (0.5.23's human_readable_int words its refusal so)
    message = (
        "argument --max-prefill-tokens: Invalid integer value: '16,384'. Use a plain integer, SI suffixes (1k, 1M)"
    )
    assert first(args, message) == "set max-prefill-tokens=16384"


def test_literal_quotes() -> None:
    args = {"max-running-requests": "'48'"}
    assert first(args, refused("max-running-requests", "int", "'48'")) == "set max-running-requests=48"


def test_a_port_with_its_host_or_protocol() -> None:
    assert first({"nccl-port": "10.0.0.2:29511"}, refused("nccl-port", "int", "10.0.0.2:29511")) == (
        "set nccl-port=29511"
    )
    assert first({"nccl-port": "29511/tcp"}, refused("nccl-port", "int", "29511/tcp")) == "set nccl-port=29511"


def test_a_ratio_written_a_to_b() -> None:
    args = {"hicache-ratio": "3:1"}
    assert first(args, refused("hicache-ratio", "float", "3:1")) == "set hicache-ratio=3"


def test_every_member_of_a_list_with_units() -> None:
    args = {"prefill-delayer-wait-seconds-buckets": ("250ms", "2s", "1m")}
    got = first(args, refused("prefill-delayer-wait-seconds-buckets", "float", "250ms"))
    assert got == "set prefill-delayer-wait-seconds-buckets=0.25 2 60", got


def test_a_switch_given_a_value() -> None:
    assert first({"sleep-on-idle": "yes"}, "sglang serve: error: unrecognized arguments: yes") == (
        "set sleep-on-idle=True"
    )
    assert first({"enable-metrics": "0"}, "sglang serve: error: unrecognized arguments: 0") == "drop enable-metrics"
