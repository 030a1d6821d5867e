"""Issue 14 round 39, written before the change.

A check that holds when the user's feature is absent OR an optimization is turned off
(``self.adapter_paths is None or self.disable_prefix_reuse``) has two repairs: take the
user's feature away, or turn the optimization off. The user asked for the feature; nobody
asked for the optimization (it is on by default), so turning it off keeps what was asked
and goes first. A switch that turns a feature ON is still the last resort. The source and
message are ours, in the shape of SGLang 0.4.10's check_lora_server_args."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import Diagnosis, Subject
from autofix.model import Candidate, Failure, Frame, Gate
from autofix.repair import propose

MESSAGE = "compatibility of adapters and prefix reuse is in progress"
SOURCE = f"""def check_adapters(self):
    assert (
        self.max_loras_per_batch > 0
        and (self.lora_paths is None or self.disable_radix_cache)
    ), "{MESSAGE}"
"""
FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "lora-paths": {"kind": "list", "type": "str"},
    "max-loras-per-batch": {"kind": "value", "type": "int", "default": 8},
    "disable-radix-cache": {"kind": "bool", "default": False},
    "tp-size": {"kind": "value", "type": "int", "default": 1},
}
HOST = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")


def _labels(args: dict[str, object]) -> list[str]:
    candidate = Candidate.build({"model-path": "/m", **args})
    frame = Frame(file="/x/server_args.py", line=2, function="check_adapters", source="assert (")
    subject = Subject("AssertionError", MESSAGE, frame)
    failure = Failure(Gate.PREFLIGHT, None, "f", "AssertionError", MESSAGE)
    proposals = propose(candidate, Diagnosis(failure, subject), HOST, pinned=("model-path",), source=SOURCE)
    return [p.move.label() for p in proposals]


def test_the_optimization_goes_off_before_the_users_feature() -> None:
    labels = _labels({"lora-paths": ["a=/adapters/a"], "tp-size": "2"})
    assert labels[0] == "set disable-radix-cache=True", labels
    assert "drop lora-paths" in labels, labels


def test_turning_a_feature_on_is_still_last() -> None:
    source = f"""def check_adapters(self):
    assert (
        self.max_loras_per_batch > 0
        and (self.lora_paths is None or self.enable_adapter_overlap)
    ), "{MESSAGE}"
"""
    host = (
        load_catalog()
        .without_classes()
        .with_parser({"flags": {**FLAGS, "enable-adapter-overlap": {"kind": "bool", "default": False}}}, "9.9.9")
    )
    candidate = Candidate.build({"model-path": "/m", "lora-paths": ["a=/adapters/a"]})
    frame = Frame(file="/x/server_args.py", line=2, function="check_adapters", source="assert (")
    failure = Failure(Gate.PREFLIGHT, None, "f", "AssertionError", MESSAGE)
    proposals = propose(
        candidate,
        Diagnosis(failure, Subject("AssertionError", MESSAGE, frame)),
        host,
        pinned=("model-path",),
        source=source,
    )
    labels = [p.move.label() for p in proposals]
    assert labels.index("drop lora-paths") < labels.index("set enable-adapter-overlap=True"), labels
