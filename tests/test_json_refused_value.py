"""Issue 14 round 27l, written before the change (after crossover7 was scored): a value the
user wrote inside a JSON-valued flag that a check refuses by name ("Unknown quantization
method: slimquant_w4a8. Must be one of [...]", the method inside a --json-model-override-args
``quantization_config``) belongs to that flag: the section of the object that holds it goes
(the flag itself when nothing else is left), before any guess at another flag's choice. A
value the message does not name leaves the object alone."""

from __future__ import annotations

import json

from autofix.model import Candidate
from autofix.repair import apply

from .proposing import FULL, proposed

_OVERRIDE = json.dumps(
    {
        "quantization_config": {"quant_method": "slimquant_w4a8", "checkpoint_format": "hy4_w4a8_v1"},
        "rope_theta": 1000000,
    }
)
_REFUSAL = "Unknown quantization method: slimquant_w4a8. Must be one of ['fp8', 'mxfp8', 'awq', 'gptq']."


def _first(args: dict[str, object], message: str) -> Candidate:
    candidate, found = proposed(args, "ValueError", message, catalog=FULL)
    assert found, "no move at all"
    return apply(candidate, found[0].move)


def test_the_section_holding_the_refused_value_goes_and_the_rest_stays() -> None:
    child = _first({"json-model-override-args": _OVERRIDE, "tp-size": "4"}, _REFUSAL)
    assert json.loads(str(child.arg("json-model-override-args"))) == {"rope_theta": 1000000}
    assert child.arg("tp-size") == "4"


def test_the_flag_goes_when_the_section_was_all_it_held() -> None:
    only = json.dumps({"quantization_config": {"quant_method": "slimquant_w4a8"}})
    child = _first({"json-model-override-args": only}, _REFUSAL)
    assert not child.has("json-model-override-args")


def test_a_value_the_message_does_not_name_leaves_the_object_alone() -> None:
    candidate, found = proposed(
        {"json-model-override-args": _OVERRIDE}, "ValueError", "Unknown quantization method: w8a8_int8.", catalog=FULL
    )
    values = [apply(candidate, p.move).arg("json-model-override-args") for p in found]
    assert json.dumps({"rope_theta": 1000000}) not in values  # (a last resort may still drop the flag)
