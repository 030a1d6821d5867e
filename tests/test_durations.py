"""Issue 14 round 15, written before the change: a time the parser refused because it
carries a unit ("30s", "2m", "500ms") is written as the plain number the flag's own name
says it takes: seconds for a timeout, an interval or a flag named in secs/seconds,
milliseconds for one named in ms; an int flag takes only a whole number. These tests use
their own values."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed

CATALOG = load_catalog()


def first_labels(args: dict[str, object], flag: str, kind: str, value: str) -> list[str]:
    message = f"argument --{flag}: invalid {kind} value: '{value}'"
    _, found = proposed(args, "SystemExit", message, catalog=CATALOG.without_classes())
    return [p.move.label() for p in found]


def test_a_timeout_in_minutes_becomes_seconds() -> None:
    got = first_labels({"dist-timeout": "2m"}, "dist-timeout", "int", "2m")
    assert got and got[0] == "set dist-timeout=120", got


def test_a_float_seconds_flag_loses_its_suffix() -> None:
    got = first_labels({"watchdog-timeout": "90.5s"}, "watchdog-timeout", "float", "90.5s")
    assert got and got[0] == "set watchdog-timeout=90.5", got


def test_milliseconds_given_to_a_seconds_flag_are_divided() -> None:
    got = first_labels({"watchdog-timeout": "1500ms"}, "watchdog-timeout", "float", "1500ms")
    assert got and got[0] == "set watchdog-timeout=1.5", got


def test_an_int_flag_takes_only_a_whole_number() -> None:
    got = first_labels({"dist-timeout": "1500ms"}, "dist-timeout", "int", "1500ms")
    assert "set dist-timeout=1.5" not in got, got
