"""Issue 14 round 48k, written before the change: another engine's flag that takes one JSON
object of settings maps each key the SGLang way (equivalents "keys": a key's value carried to
an SGLang flag, or each of its values standing for SGLang flags): vLLM's --kv-transfer-config
with a NIXL producer is SGLang's PD prefill worker on the nixl transfer backend, and its
--eplb-config's window, step and redundant experts are SGLang's EPLB flags. Both round-48
older-release blind sets met these (in sample for them from here). Our own table in the
tests of the reading; the shipped table's entries in the last tests."""

from __future__ import annotations

import json
from dataclasses import replace

from autofix.catalog import load_catalog, parse_equivalents
from autofix.model import Candidate
from autofix.renames import rename_move
from autofix.repair import apply

CATALOG = load_catalog()
OWN = json.dumps(
    {
        "engines": {
            "other": {
                "flags": {
                    "transfer-settings": {
                        "keys": {
                            "role": {"values": {"sender": {"disaggregation-mode": "prefill"}, "both": {}}},
                            "buffer_tokens": {"flag": "max-total-tokens"},
                        },
                        "why": "our own test entry",
                    }
                }
            }
        }
    }
)


def _renamed(args: dict[str, object], catalog: object = CATALOG) -> Candidate:
    candidate = Candidate.build({"model-path": "/m", **args})
    move = rename_move(candidate, catalog)  # type: ignore[arg-type]
    assert move is not None
    return apply(candidate, move)


def test_each_key_of_the_object_maps_by_the_table() -> None:
    catalog = replace(CATALOG, equivalents={**CATALOG.equivalents, **parse_equivalents("own.json", OWN)})
    child = _renamed({"transfer-settings": '{"role": "sender", "buffer_tokens": 4096, "unknown": 1}'}, catalog)
    assert dict(child.args) == {"model-path": "/m", "disaggregation-mode": "prefill", "max-total-tokens": "4096"}


def test_vllm_nixl_producer_is_a_prefill_worker_on_nixl() -> None:
    child = _renamed({"kv-transfer-config": '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'})
    assert child.arg("disaggregation-mode") == "prefill"
    assert child.arg("disaggregation-transfer-backend") == "nixl"
    assert not child.has("kv-transfer-config")


def test_vllm_eplb_config_keys_are_sglangs_eplb_flags() -> None:
    child = _renamed({"eplb-config": '{"window_size":1000,"step_interval":3000,"num_redundant_experts":32}'})
    assert child.arg("expert-distribution-recorder-buffer-size") == "1000"
    assert child.arg("eplb-rebalance-num-iterations") == "3000"
    assert child.arg("ep-num-redundant-experts") == "32"
