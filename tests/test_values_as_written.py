"""Issue 14 round 40f-h, written before the change: values as an operator reads them.

- A check that states its bound's value after the expression it computes ("x must be less
  than or equal to y - 1 (3)"): the flag goes to that bound (one past it for a strict one),
  not away.
- A choice written out in words whose initials the parser's short name starts with
  ('longest-prefix' for 'lpm', 'first-come-first-served' for 'fcfs'): that choice.
- A torch device string given a GPU index flag ('cuda:4'): the index.

These tests use messages, flags and choices of their own (one flag of SGLang's for the
device index, read through the shipped table)."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.meant import as_meant

from .proposing import BARE, proposed_labels

HOST = BARE.with_parser(
    {
        "flags": {
            "model-path": {"kind": "value", "type": "str"},
            "queue-order": {
                "kind": "value",
                "type": "str",
                "default": "fcfs",
                "choices": ["lpm", "random", "fcfs", "dfs-weight", "lof", "shortest-prefill-first"],
            },
            "spill-budget": {"kind": "value", "type": "int"},
            "probe-tokens": {"kind": "value", "type": "int"},
            "lane-width": {"kind": "value", "type": "int"},
            "first-device": {"kind": "value", "type": "int", "default": 0, "help": "The first GPU index to use."},
            "listen-port": {"kind": "value", "type": "int", "help": "Port to listen on."},
        }
    },
    "9.9.9",
)


@pytest.mark.parametrize(
    ("args", "message", "want"),
    [
        (
            {"spill-budget": "4", "probe-tokens": "4"},
            "spill_budget must be less than or equal to probe_tokens - 1 (3).",
            "set spill-budget=3",
        ),
        (
            {"spill-budget": "8", "probe-tokens": "4"},
            "spill_budget must be at least probe_tokens * 4 (16), got 8.",
            "set spill-budget=16",
        ),
        (
            {"lane-width": "8", "probe-tokens": "4"},
            "lane_width must be less than probe_tokens + 2 (6).",
            "set lane-width=5",
        ),
        # (40k: a bound named, not computed: the other size's value)
        (
            {"spill-budget": "8", "probe-tokens": "16"},
            "spill_budget should be greater than or equal to probe_tokens. spill_budget=8, probe_tokens=16",
            "set spill-budget=16",
        ),
        (
            {"lane-width": "32", "probe-tokens": "16"},
            "--lane-width must be less than or equal to --probe-tokens",
            "set lane-width=16",
        ),
        (
            {"lane-width": "16", "probe-tokens": "16"},
            "lane_width must be less than probe_tokens",
            "set lane-width=15",
        ),
    ],
)
def test_a_bound_shown_or_named_is_the_value(args: dict[str, object], message: str, want: str) -> None:
    labels = proposed_labels(args, "AssertionError", message, catalog=HOST)
    assert labels and labels[0] == want, labels


@pytest.mark.parametrize(
    ("given", "want"), [("longest-prefix", "lpm"), ("first-come-first-served", "fcfs"), ("Longest_Output_First", "lof")]
)
def test_a_choice_written_out_is_the_short_name_of_its_initials(given: str, want: str) -> None:
    message = (
        f"launch_server.py: error: argument --queue-order: invalid choice: '{given}' "
        "(choose from 'lpm', 'random', 'fcfs', 'dfs-weight', 'lof', 'shortest-prefill-first')"
    )
    labels = proposed_labels({"queue-order": given}, "SystemExit", message, catalog=HOST)
    assert labels and labels[0] == f"set queue-order={want}", labels


def test_words_whose_initials_start_no_short_name_are_no_acronym() -> None:
    message = (
        "launch_server.py: error: argument --queue-order: invalid choice: 'weighted-tree' "
        "(choose from 'lpm', 'random', 'fcfs', 'dfs-weight', 'lof', 'shortest-prefill-first')"
    )
    labels = proposed_labels({"queue-order": "weighted-tree"}, "SystemExit", message, catalog=HOST)
    assert "set queue-order=lpm" not in labels[:1] and "set queue-order=lof" not in labels[:1], labels


@pytest.mark.parametrize("given", ["cuda:4", "CUDA:4", "gpu:4"])
def test_a_device_string_given_a_gpu_index_is_the_index(given: str) -> None:
    assert as_meant(given, "first-device", HOST) == "4"
    assert as_meant(given, "base-gpu-id", load_catalog()) == "4"


def test_a_device_string_given_another_number_flag_has_no_reading() -> None:
    assert as_meant("cuda:4", "lane-width", HOST) is None


# Round 40k (written before the change, cases in the table above): a check that relates two
# sizes by name ("a should be greater than or equal to b", "--a must be less than --b") with
# nothing computed after the second: the first goes to the second's value, the size the
# message is about, before either is taken away. A multiple of the other is no such relation.


def test_a_bound_times_another_is_no_plain_relation() -> None:
    labels = proposed_labels(
        {"lane-width": "32", "probe-tokens": "16"},
        "AssertionError",
        "lane_width must be less than probe_tokens * 2",
        catalog=HOST,
    )
    assert "set lane-width=16" not in labels, labels
