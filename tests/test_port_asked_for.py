"""Issue 14 round 38m, written before the change.

A feature that needs a port the user did not give ("--sidecar requires --grpc-port or
SGLANG_GRPC_PORT") gets the port next to the server's own (--port + 1, past any port the
command already uses), before the feature is dropped: a port is no value to invent, it is
the next free one beside the server. A flag that is no port gets no invented value. The
wording is SGLang 0.5.23's shape; the module name is ours."""

from __future__ import annotations

from .proposing import proposed_labels


def test_the_port_asked_for_is_the_one_next_to_the_servers() -> None:
    labels = proposed_labels(
        {"port": "30000", "sidecar": "acme.sidecar"},
        "ValueError",
        "--sidecar requires --grpc-port or SGLANG_GRPC_PORT.",
    )
    assert labels[0] == "set grpc-port=30001", labels


def test_a_port_the_command_already_uses_is_skipped() -> None:
    labels = proposed_labels(
        {"port": "30000", "disaggregation-bootstrap-port": "30001", "sidecar": "acme.sidecar"},
        "ValueError",
        "--sidecar requires --grpc-port or SGLANG_GRPC_PORT.",
    )
    assert labels[0] == "set grpc-port=30002", labels
