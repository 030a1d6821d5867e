"""Issue 14 round 43, written before the change.

"Pipeline parallelism is not compatible with overlap schedule, speculative decoding, mixed
chunked prefill." lists features in words. Of those, the ones the user switched on with a
switch of their own (``--enable-mixed-chunk``) are what an operator takes out first: the
subject (pipeline parallelism across nodes) is the layout the deployment is built on. A
feature on by default (the overlap schedule, which pipeline parallelism already turns off)
is not the user's and gets no move from the list. The wording is SGLang 0.4.10.post2's."""

from __future__ import annotations

from .proposing import proposed

PP_REFUSAL = (
    "Pipeline parallelism is not compatible with overlap schedule, speculative decoding, mixed chunked prefill."
)
TWO_NODES = {"tp-size": "8", "pp-size": "2", "nnodes": "2", "node-rank": "0", "dist-init-addr": "10.0.0.1:5000"}


def labels(args: dict[str, object], message: str) -> list[str]:
    _, found = proposed(args, "AssertionError", message)
    return [p.move.label() for p in found]


def test_the_users_switch_the_list_names_is_dropped_first() -> None:
    found = labels({**TWO_NODES, "enable-mixed-chunk": True, "chunked-prefill-size": "4096"}, PP_REFUSAL)
    assert found[0] == "drop enable-mixed-chunk"
    assert "set disable-overlap-schedule=True" not in found


def test_incompatible_with_a_list_ending_in_and() -> None:
    message = "Two-batch overlap is incompatible with torch compile and mixed chunked prefill"
    found = labels({"enable-two-batch-overlap": True, "enable-torch-compile": True, "tp-size": "8"}, message)
    assert found[0] == "drop enable-torch-compile"


def test_a_list_naming_no_switch_of_the_users_adds_nothing_of_its_own() -> None:
    found = labels({**TWO_NODES, "chunked-prefill-size": "4096"}, PP_REFUSAL)
    assert not any(label.startswith("drop enable-") for label in found)
