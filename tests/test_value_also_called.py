"""Issue 14 round 41, written before the change: a value the parser refuses that is another
name of one of its choices, as a fact of the catalogue (``also_called``): multi-token
prediction (MTP) is what SGLang serves as NEXTN (DeepSeek-V3's MTP heads, Qwen3-Next's);
vLLM and the model cards call it MTP. Three sets carried it, in sample since they were scored
(users27, 0.5.11-sixth, 0.5.11-seventh's notes). The argparse wording is SGLang's."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed_labels

_ALGORITHMS = "'DFLASH', 'EAGLE', 'EAGLE3', 'NEXTN', 'STANDALONE', 'NGRAM'"


def _refused(given: str) -> str:
    return (
        f"sglang serve: error: argument --speculative-algorithm: invalid choice: '{given}' (choose from {_ALGORITHMS})"
    )


def test_the_catalogue_says_what_mtp_is_called() -> None:
    assert load_catalog().also_called["speculative-algorithm"]["mtp"] == "NEXTN"


def test_mtp_is_nextn_in_any_case() -> None:
    for given in ("MTP", "mtp"):
        labels = proposed_labels({"speculative-algorithm": given}, "argparse_error", _refused(given))
        assert labels[0] == "set speculative-algorithm=NEXTN"


def test_a_name_not_in_the_table_is_read_as_before() -> None:
    labels = proposed_labels({"speculative-algorithm": "EAGLE-3"}, "argparse_error", _refused("EAGLE-3"))
    assert labels[0] == "set speculative-algorithm=EAGLE3"
