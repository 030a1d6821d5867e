"""Issue 14 round 6, written before the change: flags that take a JSON value, read as an
operator fixes them. A value that is no JSON (bare keys, single quotes, Python literals,
'k=v' pairs) is written as the JSON it meant; a key the check does not know is renamed to
the nearest key it lists, or the object is placed under the section it expects; a key no
list names is dropped. Moves keep every other key the user wrote."""

from __future__ import annotations

import json

import pytest

from autofix.model import Candidate
from autofix.repair import apply

from .proposing import proposed


def proposals(args: dict[str, object], exception: str, message: str) -> list[Candidate]:
    candidate, found = proposed(args, exception, message)
    return [apply(candidate, p.move) for p in found]


def first_value(args: dict[str, object], exception: str, message: str, flag: str) -> object:
    found = proposals(args, exception, message)
    assert found, "no move at all"
    value = found[0].arg(flag)
    return json.loads(str(value)) if isinstance(value, str) else value


@pytest.mark.parametrize(
    ("given", "meant"),
    [
        (
            "{rope_theta: 1000000, 'max_position_embeddings': 65536}",
            {"rope_theta": 1000000, "max_position_embeddings": 65536},
        ),
        ("{'enable_thinking': False}", {"enable_thinking": False}),
        ("max_bs=64,backend=full", {"max_bs": 64, "backend": "full"}),
        ('{"a": 1, "b": [1, 2,],}', {"a": 1, "b": [1, 2]}),
    ],
)
def test_a_value_that_is_no_json_is_written_as_the_json_it_meant(given: str, meant: dict[str, object]) -> None:
    """json.decoder.JSONDecodeError names no flag: the JSON-valued flag whose value does not parse is the one."""
    value = first_value(
        {"json-model-override-args": given, "tp-size": 2},
        "json.decoder.JSONDecodeError",
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "json-model-override-args",
    )
    assert value == meant


def test_an_unknown_section_nests_the_object_under_the_first_section_listed() -> None:
    """'unknown phase 'max_bs', expected one of ('decode', 'prefill')': the settings belong in a section."""
    value = first_value(
        {"cuda-graph-config": '{"max_bs": 64, "backend": "full"}'},
        "argparse.ArgumentTypeError",
        "--cuda-graph-config: unknown phase 'max_bs', expected one of ('decode', 'prefill')",
        "cuda-graph-config",
    )
    assert value == {"decode": {"max_bs": 64, "backend": "full"}}


def test_a_misspelled_key_takes_the_nearest_listed_name_with_its_value() -> None:
    value = first_value(
        {"cuda-graph-config": '{"decod": {"max_bs": 64}, "prefill": {"backend": "breakable"}}'},
        "argparse.ArgumentTypeError",
        "--cuda-graph-config: unknown phase 'decod', expected one of ('decode', 'prefill')",
        "cuda-graph-config",
    )
    assert value == {"prefill": {"backend": "breakable"}, "decode": {"max_bs": 64}}


def test_a_key_no_list_names_is_dropped_and_the_rest_kept() -> None:
    value = first_value(
        {"preferred-sampling-params": '{"temperature": 0.6, "watermark": true}'},
        "ValueError",
        "--preferred-sampling-params: unknown key 'watermark'",
        "preferred-sampling-params",
    )
    assert value == {"temperature": 0.6}


# --- issue 14 round 9, written before the change (round 8's sets showed each shape) -------


def test_a_yaml_flow_mapping_is_written_as_the_json_it_meant() -> None:
    """'{host: 10.0.0.2:7000, ttl: 30}' is YAML's flow style: unquoted values with colons."""
    value = first_value(
        {"kv-events-config": "{endpoint: tcp://10.0.0.2:7000, topic: kv}"},
        "ValueError",
        "--kv-events-config is not parseable: Invalid JSON: expected value at line 1 column 2",
        "kv-events-config",
    )
    assert value == {"endpoint": "tcp://10.0.0.2:7000", "topic": "kv"}


def test_a_refused_value_inside_the_json_takes_an_allowed_one() -> None:
    value = first_value(
        {"cuda-graph-config": '{"prefill": {"backend": "eager"}, "decode": {"backend": "full", "max_bs": 64}}'},
        "ValueError",
        "--cuda-graph-config[prefill].backend='eager' not allowed; allowed: ('full', 'breakable', 'disabled')",
        "cuda-graph-config",
    )
    assert isinstance(value, dict)
    assert value["decode"] == {"backend": "full", "max_bs": 64}
    assert value["prefill"]["backend"] in ("full", "breakable", "disabled")
