"""Issue 14 round 42c, written before the change (in sample: 0.4.10.post2-fifth's
dist-init-addr-port-as-separate-word, scored blind at round 40, passed as
`--dist-init-addr 10.0.0.1`: the rendezvous port lost).

A host and its port written as two words (`--dist-init-addr 10.0.0.1 5000`, a template that
put a space where the colon goes) leaves the port over for argparse. A flag that takes one
value, given an address with no port and then a port number, meant `host:port`; keeping the
first word alone moves the rendezvous to the default port, which the other nodes do not use.
The flag names and values are ours."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog

from .proposing import proposed

FLAGS = {"model-path": {"kind": "value", "type": "str"}, "zq-init-addr": {"kind": "value", "type": "str"}}
HOST = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")


@pytest.mark.parametrize("host", ["10.0.0.1", "node-0.cluster.local", "head"])
def test_an_address_and_a_port_as_two_words_are_joined(host: str) -> None:
    _, found = proposed(
        {"zq-init-addr": [host, "5000"]},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: 5000",
        catalog=HOST,
    )
    assert found and found[0].child.arg("zq-init-addr") == f"{host}:5000", [p.move.label() for p in found]


@pytest.mark.parametrize(("first", "second"), [("10.0.0.1:5000", "6000"), ("10.0.0.1", "99999"), ("alpha", "beta")])
def test_other_second_words_are_left_out_as_before(first: str, second: str) -> None:
    _, found = proposed(
        {"zq-init-addr": [first, second]},
        "SystemExit",
        f"launch_server.py: error: unrecognized arguments: {second}",
        catalog=HOST,
    )
    assert found and found[0].child.arg("zq-init-addr") == first, [p.move.label() for p in found]


def test_a_port_given_its_own_flag_beside_an_address_flag_joins_it() -> None:
    """Round 44s, written before the change (users31's Ascend script, in toy names): the
    port of a rendezvous given as a flag of its own that the parser does not have
    (--zq-init-port 5000 beside --zq-init-addr 10.0.0.1) is the address's port: joined as
    host:port, in the move that leaves the unknown flag out, not dropped with it."""
    _, found = proposed(
        {"zq-init-addr": "10.0.0.1", "zq-init-port": "5000", "zq-tool": True},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: --zq-tool --zq-init-port 5000",
        catalog=HOST,
    )
    assert found and found[0].child.arg("zq-init-addr") == "10.0.0.1:5000", [p.move.label() for p in found]
    assert not found[0].child.has("zq-init-port") and not found[0].child.has("zq-tool")


def test_an_address_that_has_its_port_keeps_it() -> None:
    _, found = proposed(
        {"zq-init-addr": "10.0.0.1:6000", "zq-init-port": "5000"},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: --zq-init-port 5000",
        catalog=HOST,
    )
    assert found and found[0].child.arg("zq-init-addr") == "10.0.0.1:6000", [p.move.label() for p in found]


def test_an_unknown_host_flag_beside_an_unknown_port_flag_is_left_out_with_it() -> None:
    """Round 44 after-run (users3's LMCache flags of another release): --zq-mp-host and
    --zq-mp-port both unknown: no address flag of the parser to join the port into, and the
    two go in one move as before (44s had set the unknown host flag it dropped)."""
    _, found = proposed(
        {"zq-mp-host": "127.0.0.1", "zq-mp-port": "5556"},
        "SystemExit",
        "launch_server.py: error: unrecognized arguments: --zq-mp-host 127.0.0.1 --zq-mp-port 5556",
        catalog=HOST,
    )
    assert found and not found[0].child.has("zq-mp-host") and not found[0].child.has("zq-mp-port"), [
        p.move.label() for p in found
    ]
