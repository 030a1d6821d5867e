"""Issue 14 round 44n, written before the change (0.4.10.post2-eighth's Kubernetes service
link and -ninth's docker mapping, in our values): a port written as an address that ends in
it ("30000:30000" from a compose `ports:` line, "tcp://10.0.0.7:30000" from a service-link
variable, "0.0.0.0:8000") is the user's spelling of that port. The base takes it (the
search's rename reads the number, as for any flag whose name ends in "port"), and the
targets read the port autofix talks to the same way; a value that spells no port is still
refused at load with the key named."""

from __future__ import annotations

import pytest

from autofix.config import parse_base
from autofix.errors import ConfigError
from autofix.meant import port_in
from autofix.model import Candidate

from .proposing import FULL, proposed

BASE = "launch:\n  args:\n    model-path: /m\n    port: {port}\n"


@pytest.mark.parametrize(
    ("written", "port"), [("30000:30000", 30000), ("tcp://10.0.0.7:30000", 30000), ("0.0.0.0:8000", 8000)]
)
def test_a_port_written_as_an_address_is_that_port(written: str, port: int) -> None:
    assert port_in(written) == port
    config = parse_base(BASE.format(port=f"'{written}'"), source="p.yaml", default_name="p")
    assert config.base.arg("port") == written


@pytest.mark.parametrize("written", ["'http'", "'30000:abc'", "70000", "true"])
def test_a_value_that_spells_no_port_is_refused_at_load(written: str) -> None:
    with pytest.raises(ConfigError, match=r"launch\.args\.port: must be a TCP port number"):
        parse_base(BASE.format(port=written), source="p.yaml", default_name="p")


def test_the_search_sets_the_number() -> None:
    _, found = proposed(
        {"port": "tcp://10.0.0.7:30000"},
        "SystemExit",
        "launch_server.py: error: argument --port: invalid int value: 'tcp://10.0.0.7:30000'",
        catalog=FULL,
    )
    assert found and found[0].child.arg("port") == "30000", [p.move.label() for p in found]


def test_the_target_talks_to_the_number() -> None:
    from autofix.targets import Target

    target = Target(kind="sglang", python="/usr/bin/python3", module="sglang.launch_server")
    assert target.port(Candidate.build({"port": "30000:30000"})) == 30000
