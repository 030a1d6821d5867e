"""Issue 14 round 19, written before the change: a number flag's own help is a fact of the
host's parser, and an operator reads it before retyping a refused value. The help says
which unit the flag counts in (``in gigabytes``, ``(ms)``, ``in seconds``), that it counts
passes rather than time (``every N decode iterations``), and which number stands for no
limit or for off (``-1 means unlimited``, ``Set to 0 to disable``). A word the user gave a
number flag (``auto``, ``None``, ``unlimited``) is read by those facts; a minus sign typed
as U+2212 is a minus; a list written as YAML or JSON (``[0, 1]``) is the list's members.

These tests use flags and help texts of their own, given as a host parser's facts."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.config import ConfigError, parse_base
from autofix.meant import as_meant
from autofix.model import Candidate
from autofix.repair import apply

from .proposing import proposed

OWN_FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "spill-pool-size": {"kind": "value", "type": "int", "default": 0, "help": "Size of the spill pool in gigabytes."},
    "frame-cache-budget": {"kind": "value", "type": "int", "help": "Memory budget in MiB for decoded frames."},
    "drain-grace": {"kind": "value", "type": "float", "help": "Grace period in seconds before a drain."},
    "flush-cap": {"kind": "value", "type": "float", "help": "Wall-clock cap (ms) on one flush."},
    "stats-publish-interval": {"kind": "value", "type": "int", "help": "Publish stats every N decode iterations."},
    "history-cap": {"kind": "value", "type": "int", "help": "Entries kept per path (-1 means unlimited)."},
    "ring-size": {"kind": "value", "type": "int", "help": "Ring buffer size. Set to -1 to denote infinite buffer."},
    "spill-threshold": {"kind": "value", "type": "float", "help": "Spill threshold. Set to 0 to disable."},
    "lane-count": {"kind": "value", "type": "int", "default": 4, "help": "Lanes per worker. The default value is 4."},
    "base-priority": {"kind": "value", "type": "int", "help": "Priority of requests that give none."},
    "pin-cores": {"kind": "list", "type": "int", "help": "Cores to pin, one per worker."},
    "hist-edges": {"kind": "list", "type": "float", "help": "Histogram edges."},
    "trace-depth": {
        "kind": "value",
        "type": "int",
        "default": 1,
        "choices": [0, 1, 2, 3],
        "help": "0: ids. 3: everything.",
    },
}
HOST = load_catalog().without_classes().with_parser({"flags": OWN_FLAGS}, "9.9.9")


def meant(value: str, flag: str) -> str | None:
    return as_meant(value, flag, HOST)


@pytest.mark.parametrize(
    ("flag", "value", "want"),
    [
        ("spill-pool-size", "48GB", "48"),  # the help counts in gigabytes, the name says nothing
        ("spill-pool-size", "12GiB", "12"),  # a GiB is what a gigabyte flag means in a config
        ("frame-cache-budget", "1GiB", "1024"),  # a MiB budget given a GiB
        ("frame-cache-budget", "300MB", "300"),
        ("drain-grace", "2m", "120"),  # the help says seconds, the name does not
        ("flush-cap", "1.5s", "1500"),  # "(ms)" in the help
        ("stats-publish-interval", "500ms", "500"),  # it counts iterations: the number is the count
        ("stats-publish-interval", "2k", "2000"),  # a thousand is no unit of time: still a count of 2000
    ],
)
def test_the_unit_the_help_counts_in(flag: str, value: str, want: str) -> None:
    assert meant(value, flag) == want


@pytest.mark.parametrize(
    ("flag", "value", "want"),
    [
        ("history-cap", "unlimited", "-1"),
        ("history-cap", "no-limit", "-1"),
        ("ring-size", "infinite", "-1"),
        ("ring-size", "inf", "-1"),
        ("spill-threshold", "off", "0"),
        ("spill-threshold", "disabled", "0"),
    ],
)
def test_the_number_the_help_gives_for_no_limit_or_off(flag: str, value: str, want: str) -> None:
    assert meant(value, flag) == want


def test_a_word_the_help_gives_no_number_for_has_no_reading() -> None:
    assert meant("unlimited", "lane-count") is None
    assert meant("off", "history-cap") is None


def test_a_typographic_minus_is_a_minus() -> None:
    assert meant("\u22122", "base-priority") == "-2"
    assert meant("\u20133", "base-priority") == "-3"


def first_child(args: dict[str, object], message: str) -> Candidate | None:
    candidate, found = proposed(args, "SystemExit", message, catalog=HOST)
    return apply(candidate, found[0].move) if found else None


def test_a_refused_word_for_no_limit_becomes_the_helps_number() -> None:
    child = first_child({"history-cap": "unlimited"}, "argument --history-cap: invalid int value: 'unlimited'")
    assert child is not None and child.arg("history-cap") == "-1"


@pytest.mark.parametrize("word", ["auto", "None", "default", "null"])
def test_a_word_for_the_default_leaves_the_flag_to_its_default(word: str) -> None:
    child = first_child({"lane-count": word}, f"argument --lane-count: invalid int value: '{word}'")
    assert child is not None and not child.has("lane-count")


@pytest.mark.parametrize(
    ("value", "refused", "want"),
    [
        ("[0, 1]", "[0, 1]", ("0", "1")),  # one quoted word, as YAML or JSON writes a list
        (("[2,", "6]"), "[2,", ("2", "6")),  # the same list split by a shell
        ("(3, 5)", "(3, 5)", ("3", "5")),
    ],
)
def test_a_list_written_as_yaml_or_json_is_its_members(value: object, refused: str, want: tuple[str, ...]) -> None:
    args = {"pin-cores": list(value) if isinstance(value, tuple) else value}
    child = first_child(args, f"argument --pin-cores: invalid int value: '{refused}'")
    assert child is not None and child.arg("pin-cores") == want


def test_a_float_list_in_brackets_is_its_members() -> None:
    child = first_child({"hist-edges": "[0.5, 1, 2.5]"}, "argument --hist-edges: invalid float value: '[0.5, 1, 2.5]'")
    assert child is not None and child.arg("hist-edges") == ("0.5", "1", "2.5")


MINIMAL = "launch:\n  args:\n    model-path: /m\n"


@pytest.mark.parametrize("word", ["auto", "None", "unlimited", "off"])
def test_a_number_flag_given_a_word_with_a_reading_loads(word: str) -> None:
    """The base keeps what the user wrote; the search reads it (above)."""
    config = parse_base(MINIMAL + f"    max-running-requests: '{word}'\n", source="m.yaml", default_name="m")
    assert config.base.args_dict()["max-running-requests"] == word


@pytest.mark.parametrize(("word", "want"), [("two", "2"), ("Eight", "8"), ("thirty-two", "32"), ("zero", "0")])
def test_a_number_written_as_a_word_is_that_number(word: str, want: str) -> None:
    """Round 39: "two" for --constrained-json-max-whitespace-cnt is the number two; the base
    keeps what the user wrote and the search reads it."""
    assert as_meant(word, "max-running-requests", load_catalog()) == want
    config = parse_base(MINIMAL + f"    max-running-requests: '{word}'\n", source="m.yaml", default_name="m")
    assert config.base.args_dict()["max-running-requests"] == word


def test_a_number_flag_given_nothing_loads() -> None:
    """Round 39: an empty value is what a launch script's unset variable expands to
    (--mem-fraction-static "${MEM_FRACTION:-}"): nothing given, which reads as the flag's
    default; the search leaves the flag out."""
    config = parse_base(MINIMAL + "    mem-fraction-static: ''\n", source="m.yaml", default_name="m")
    assert config.base.args_dict()["mem-fraction-static"] == ""


@pytest.mark.parametrize("word", ["plenty", "$TP", "lots"])
def test_a_number_flag_given_a_word_with_no_reading_is_still_refused(word: str) -> None:
    with pytest.raises(ConfigError, match=r"launch\.args\.max-running-requests: must be an integer"):
        parse_base(MINIMAL + f"    max-running-requests: '{word}'\n", source="m.yaml", default_name="m")


def test_the_catalogues_own_table_carries_the_help() -> None:
    """Offline, before a probe answers, the table read from 0.5.23 (tools/flag_help.py)
    gives the same readings."""
    table = load_catalog()
    assert as_meant("disabled", "chunked-prefill-size", table) == "-1"  # "-1 means disabling"
    assert as_meant("unlimited", "mamba-max-states-per-path", table) == "-1"
    assert as_meant("500ms", "decode-log-interval", table) == "500"  # "(in decode iterations)"


def test_argparse_refusing_a_number_word_sets_the_number() -> None:
    _, found = proposed(
        {"max-running-requests": "sixty-four", "tp-size": "2"},
        "SystemExit",
        "launch_server.py: error: argument --max-running-requests: invalid int value: 'sixty-four'",
        catalog=load_catalog().without_classes(),
    )
    assert found and found[0].move.label() == "set max-running-requests=64", [p.move.label() for p in found]


# Round 40c (written before the change): a number flag whose choices are a scale of levels
# (--log-requests-level 0..3) given a word for one end of it: "all", "max", "full",
# "verbose" is the top level, "min", "lowest", "quiet" the bottom one. A flag without such a
# scale has no end to read the word as; the base still loads it and the search reads it.


@pytest.mark.parametrize(
    ("word", "want"), [("all", "3"), ("MAX", "3"), ("full", "3"), ("verbose", "3"), ("min", "0"), ("quiet", "0")]
)
def test_a_word_for_an_end_of_a_scale_of_levels_is_that_level(word: str, want: str) -> None:
    assert meant(word, "trace-depth") == want


def test_a_word_for_an_end_has_no_reading_without_a_scale() -> None:
    assert meant("all", "lane-count") is None


def test_a_number_flag_given_a_word_for_an_end_loads() -> None:
    config = parse_base(MINIMAL + "    log-requests-level: all\n", source="m.yaml", default_name="m")
    assert config.base.args_dict()["log-requests-level"] == "all"


def test_argparse_refusing_a_level_word_sets_the_level() -> None:
    _, found = proposed(
        {"log-requests-level": "all", "log-requests": True},
        "SystemExit",
        "launch_server.py: error: argument --log-requests-level: invalid int value: 'all'",
        catalog=load_catalog().without_classes(),
    )
    assert found and found[0].move.label() == "set log-requests-level=3", [p.move.label() for p in found]
