"""Issue 14 round 39, written before the change.

A check that holds when the user's feature is absent OR an optimization is turned off
(``self.adapter_paths is None or self.disable_prefix_reuse``) has two repairs: take the
user's feature away, or turn the optimization off. The user asked for the feature; nobody
asked for the optimization (it is on by default), so turning it off keeps what was asked
and goes first. A switch that turns a feature ON is still the last resort. The source and
message are ours, in the shape of SGLang 0.4.10's check_lora_server_args."""

from __future__ import annotations

from autofix.catalog import Catalog, load_catalog

from .proposing import source_labels

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


def _labels(args: dict[str, object], source: str = SOURCE, catalog: Catalog = HOST) -> list[str]:
    return source_labels(args, MESSAGE, source, catalog=catalog, line=2, function="check_adapters")


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
    labels = _labels({"lora-paths": ["a=/adapters/a"]}, source, host)
    assert labels.index("drop lora-paths") < labels.index("set enable-adapter-overlap=True"), labels
