"""Issue 14 round 21, written before the change: a host runs an older release than the
catalogue's table, and the user's command is spelled for another release.

- Another name a later release gave a flag (0.5.23's --enable-hicache for
  --enable-hierarchical-cache) is no name the older host's parser takes: it is renamed to
  the flag the host has, not dropped. A short name argparse still takes as a prefix stays.
- A flag that a release removed without a deprecation message, while a near name appeared
  in the very next release, was renamed: the command is moved to the new name, not dropped.
- A BooleanOptionalAction switch on by default, given "false", becomes its --no- form
  whichever way the host's facts list that form.
- A multiple written with an x ("2x") is the number.

These tests use pretend hosts and flags of their own, and the real flag history."""

from __future__ import annotations

import json

from autofix.catalog import load_catalog
from autofix.meant import as_meant
from autofix.renames import meaning

from .proposing import proposed

TABLE = load_catalog()
OLD = TABLE.without_classes().with_parser(
    {
        "flags": {
            "model-path": {"kind": "value", "type": "str"},
            "tp-size": {"kind": "value", "type": "int", "default": 1},
            "enable-hierarchical-cache": {"kind": "bool"},
            "hicache-ratio": {"kind": "value", "type": "float", "default": 2.0},
            "capture-plain-graph": {"kind": "bool", "default": True},
            "no-capture-plain-graph": {"kind": "bool", "negates": "capture-plain-graph"},
        },
        "aliases": {"tensor-parallel-size": "tp-size"},
    },
    "0.5.11",
)


def test_a_later_releases_other_name_is_renamed_to_the_hosts_flag() -> None:
    assert not OLD.knows("enable-hicache")
    found = meaning("enable-hicache", OLD)
    assert found is not None and found.flags == (("enable-hierarchical-cache", None),), found


def test_a_short_name_the_parser_takes_as_a_prefix_stays_known() -> None:
    assert OLD.knows("tp") and OLD.canonical("tp") == "tp-size"


def removed_and_renamed() -> tuple[str, str] | None:
    """A flag of the real history last seen in one release whose near name was first seen
    in the next one, the catalogue's table still having the new name."""
    history = json.loads((TABLE_PATH).read_text())
    releases = history["releases"]
    seen = history["flags"]
    for old, span in seen.items():
        last = span["last"]
        if last == releases[-1] or old in history["replacements"]:
            continue
        following = releases[releases.index(last) + 1]
        for new, other in seen.items():
            if other["first"] == following and TABLE.knows(new) and set(new.split("-")) < set(old.split("-")):
                return old, new
    return None


def test_a_flag_removed_as_a_near_name_appeared_is_renamed_to_it() -> None:
    pair = removed_and_renamed()
    assert pair is not None, "the history holds no such pair"
    old, new = pair
    found = meaning(old, TABLE)
    assert found is not None and found.flags and found.flags[0][0] == TABLE.canonical(new), (old, new, found)


def test_an_on_by_default_switch_given_false_is_its_no_form() -> None:
    _, found = proposed(
        {"capture-plain-graph": "false", "tp-size": "2"},
        "SystemExit",
        "sglang serve: error: unrecognized arguments: false",
        catalog=OLD,
    )
    assert found, "no move"
    child = found[0].child
    assert child.arg("no-capture-plain-graph") is True and not child.has("capture-plain-graph"), found[0].move.label()


def test_a_multiple_written_with_an_x_is_the_number() -> None:
    assert as_meant("3x", "hicache-ratio", OLD) == "3"
    assert as_meant("1.5\u00d7", "hicache-ratio", OLD) == "1.5"


TABLE_PATH = __import__("pathlib").Path(__file__).resolve().parent.parent / "strategies" / "sglang.flag-history.json"


def test_a_later_releases_negation_is_not_renamed_to_the_flag_it_negates() -> None:
    host = TABLE.without_classes().with_parser(
        {"flags": {"model-path": {"kind": "value", "type": "str"}, "mm-enable-dp-encoder": {"kind": "bool"}}}, "0.5.0"
    )
    assert "no-mm-enable-dp-encoder" not in host.later_aliases
    found = meaning("no-mm-enable-dp-encoder", host)
    assert found is None or all(flag != "mm-enable-dp-encoder" for flag, _ in found.flags), found


def test_a_switch_the_server_sets_by_itself_given_false_is_its_no_form() -> None:
    """Round 47h, written before the change (0.5.23-thirty-fifth's
    --enable-tp-lm-head-all-to-all false, scored blind at round 47: dropped, so the server's
    own choice, on for that node, stood). A switch whose default is None (the server picks
    per deployment) given false is explicitly off: its --no- form, where the parser has one."""
    from autofix.catalog import load_catalog as full_catalog

    catalog = full_catalog()
    switch = next(
        name
        for name, info in catalog.flags.items()
        if info.kind == "bool" and info.default is None and catalog.knows(f"no-{name}")
    )
    _, found = proposed(
        {switch: "false", "tp-size": "2"}, "SystemExit", "sglang serve: error: unrecognized arguments: false"
    )
    assert found, "no move"
    child = found[0].child
    assert child.arg(f"no-{switch}") is True and not child.has(switch), found[0].move.label()
