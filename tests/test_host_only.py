"""Issue 14 round 38q, written before the change.

A check that takes host names only refuses a member given as a URL or with a port
("Invalid allowed media domain 'https://img.example.net/a': provide a hostname only",
"... 'cdn.example.net:8443': ports are not supported", "'cdn.example.net:8443' does not
appear to be an IPv4 or IPv6 address"): every member of the flag becomes its host, in one
move, the hosts kept. The wordings are SGLang 0.5.23's shape; the hosts are ours."""

from __future__ import annotations

import pytest

from .proposing import proposed_labels


@pytest.mark.parametrize(
    "message",
    [
        "Invalid allowed media domain 'https://img.example.net/a': provide a hostname only",
        "Invalid allowed media domain 'https://img.example.net/a': ports are not supported",
        "'https://img.example.net/a' does not appear to be an IPv4 or IPv6 address",
    ],
)
def test_every_member_becomes_its_host(message: str) -> None:
    labels = proposed_labels(
        {"allowed-media-domains": ("https://img.example.net/a", "cdn.example.net:8443"), "port": "30000"},
        "ValueError",
        message,
    )
    assert labels[0] == "set allowed-media-domains=img.example.net cdn.example.net", labels


def test_a_host_already_plain_is_no_move() -> None:
    labels = proposed_labels({"allowed-media-domains": ("img.example.net",)}, "ValueError", "provide a hostname only")
    assert not any(label.startswith("set allowed-media-domains=") for label in labels)
