"""Issue 14 round 38i, written before the change.

A release can keep a renamed flag only as a deprecation notice that takes no argument:
0.5.11 parses --hybrid-kvcache-ratio as a bare switch ("... is deprecated now. Please use
--swa-full-tokens-ratio instead"), so the user's value is left over ("unrecognized
arguments: 0.5"). The flag history knows the replacement; the value goes there with the
flag renamed, before the switch is dropped. A switch with no replacement keeps the old
readings. The parser facts here are the host's shape, written by hand."""

from __future__ import annotations

from autofix.catalog import FlagInfo, load_catalog

from .proposing import proposed_labels


def _host_with_deprecated_switch():  # type: ignore[no-untyped-def]
    catalog = load_catalog().without_classes()
    flags = dict(catalog.flags)
    flags["hybrid-kvcache-ratio"] = FlagInfo(kind="bool")
    from dataclasses import replace

    return replace(catalog, flags=flags)


def test_the_value_left_over_goes_to_the_replacement() -> None:
    catalog = _host_with_deprecated_switch()
    assert catalog.history.replacements["hybrid-kvcache-ratio"].flag == "swa-full-tokens-ratio"
    labels = proposed_labels(
        {"hybrid-kvcache-ratio": "0.5", "context-length": "8192"},
        "argparse_error",
        "launch_server.py: error: unrecognized arguments: 0.5",
        catalog=catalog,
    )
    assert labels[0] == "rename hybrid-kvcache-ratio to swa-full-tokens-ratio", labels
