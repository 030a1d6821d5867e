"""Issue 14 round 45n, written before the change (0.5.11-eleventh's PD decode worker that
offloads KV with no store named, in our words): a flag a check needs set ("only supported when
hicache-storage-backend is provided") takes first the choice the user already runs in this
deployment under another flag (--disaggregation-transfer-backend nixl: the NIXL store), then
the catalogue's and the parser's order as before."""

from __future__ import annotations

from autofix.model import Candidate
from autofix.repair import Flags, on_values

from .proposing import FULL


def _values(args: dict[str, object]) -> list[object]:
    return on_values("hicache-storage-backend", Flags(Candidate.build({"model-path": "/m", **args}), FULL))


def test_the_store_the_deployment_already_runs_comes_first() -> None:
    values = _values({"disaggregation-mode": "decode", "disaggregation-transfer-backend": "nixl"})
    assert values[0] == "nixl", values


def test_without_one_the_order_is_the_catalogues() -> None:
    values = _values({"disaggregation-mode": "decode"})
    assert values == ["file", "sim", "mooncake"], values
