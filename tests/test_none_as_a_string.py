"""Issue 14 round 39, written before the change (0.5.11-fifth, in sample, carries it).

``--elastic-ep-backend none``: the user wrote "none" to mean no elastic EP, but the parser
keeps the word as a string, 'none' is not None, and the elastic-EP rules apply ("Elastic
EP requires eplb_algorithm to be set to 'auto' or ..."). Leaving the flag out is what the
user meant, and gives nothing up: it goes before meeting the rule by changing another flag
the user chose (their EPLB algorithm). The source and message are ours, in SGLang 0.5.11's
shape."""

from __future__ import annotations

from autofix.catalog import Catalog, load_catalog

from .proposing import source_labels

MESSAGE = "Toy EP requires balance_algorithm to be set to 'auto' or 'elastic'"
SOURCE = f"""def check_toy_ep(self):
    if self.toy_ep_backend is not None:
        assert self.balance_algorithm in ("auto", "elastic"), "{MESSAGE}"
"""
FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "toy-ep-backend": {"kind": "value", "type": "str"},
    "balance-algorithm": {"kind": "value", "type": "str", "default": "auto", "choices": ["auto", "greedy", "elastic"]},
}
HOST = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")


def _labels(catalog: Catalog) -> list[str]:
    args: dict[str, object] = {"toy-ep-backend": "none", "balance-algorithm": "greedy"}
    return source_labels(args, MESSAGE, SOURCE, catalog=catalog, line=3, function="check_toy_ep")


def test_a_flag_set_to_none_is_left_out_first() -> None:
    labels = _labels(HOST)
    assert labels[0] == "drop toy-ep-backend", labels


def test_none_that_is_a_choice_is_a_value_of_its_own() -> None:
    flags = {**FLAGS, "toy-ep-backend": {"kind": "value", "type": "str", "choices": ["none", "mooncake"]}}
    labels = _labels(load_catalog().without_classes().with_parser({"flags": flags}, "9.9.9"))
    assert labels[0] != "drop toy-ep-backend", labels
