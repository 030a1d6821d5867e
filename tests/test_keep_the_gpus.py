"""Issue 14 round 37i, written before the change: a failure that refuses a parallel layout
(pipeline parallelism with speculative decoding) can be met by giving up GPUs the user has
(pp 2 dropped: 16 GPUs become 8) or by folding the refused size into another that keeps
them all (TP 8 x PP 2 -> TP 16). The fold comes first: beside a fold, a move that leaves
GPUs the user asked for idle ranks after every move that keeps them (and before one that
gives up a primary choice or asks for more hardware). Without a fold nothing is demoted
(the shared capture par-dp-size-with-attn-dp: its dp-size counted replicas the user never
meant, and dropping it is the verified fix). The source and message are ours, in the shape
of SGLang 0.4.10's __post_init__ assert."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import source_labels

BARE = load_catalog().without_classes()
MESSAGE = "Pipeline parallelism is not compatible with speculative decoding or mixed chunked prefill."
SOURCE = f"""def check_layout(self):
    if self.pp_size > 1:
        assert self.speculative_algorithm is None and not self.enable_mixed_chunk, "{MESSAGE}"
"""
TWO_NODES = {"tp-size": "8", "pp-size": "2", "nnodes": "2", "node-rank": "0", "speculative-algorithm": "NEXTN"}


def _labels(args: dict[str, object]) -> list[str]:
    return source_labels(args, MESSAGE, SOURCE, catalog=BARE, line=3, function="check_layout")


def test_folding_the_refused_size_comes_before_dropping_it() -> None:
    labels = _labels(TWO_NODES)
    assert "drop pp-size; set tp-size=16" in labels, labels
    assert labels.index("drop pp-size; set tp-size=16") < labels.index("drop pp-size"), labels


def test_a_move_that_keeps_the_gpus_is_not_demoted() -> None:
    """One node, mixed chunks: dropping the feature keeps every GPU and stays before the
    moves that give GPUs up."""
    labels = _labels({"tp-size": "4", "pp-size": "2", "enable-mixed-chunk": True})
    assert labels.index("drop enable-mixed-chunk") < labels.index("drop pp-size"), labels


def test_a_size_that_must_be_one_folds_and_splits_over_all_of_tp_stay_so() -> None:
    """Round 37q: "PP size should be set to 1 under elastic EP" refuses pp as surely as "not
    supported": TP 4 x PP 2 folds into TP 8, and EP, which spanned all of TP (4 of 4), spans
    all of it still (8)."""
    from .proposing import proposed_labels

    labels = proposed_labels(
        {"tp-size": "4", "pp-size": "2", "ep-size": "4", "elastic-ep-backend": "mooncake"},
        "AssertionError",
        "PP size should be set to 1 under elastic EP.",
    )
    assert labels[0] == "drop pp-size; set tp-size=8; set ep-size=8", labels


def test_a_split_narrower_than_tp_is_kept_when_folding() -> None:
    from .proposing import proposed_labels

    labels = proposed_labels(
        {"tp-size": "4", "pp-size": "2", "ep-size": "2"},
        "AssertionError",
        "Pipeline parallelism is not supported with toy experts.",
    )
    assert "drop pp-size; set tp-size=8" in labels, labels
