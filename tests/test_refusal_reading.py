"""Issue 14 round 8, written before the change (round 7's sets showed each shape; these use
other flags, values and wording): how an operator reads a refusal. The flag a message is
about (its subject) goes before a primary choice it names only as context; a value the
message recommends is the value to set; a number refused by a list of numeric choices takes
the nearest; a JSON object where the check wants an array is its key/value pairs; a feature
"not supported by/on" this device goes with the options that serve it."""

from __future__ import annotations

import json

from autofix.model import Candidate
from autofix.repair import apply
from autofix.search import Child, Search

from .proposing import BARE, proposed


def children(args: dict[str, object], exception: str, message: str) -> list[Child]:
    candidate, found = proposed(args, exception, message)
    return [Child(apply(candidate, p.move), p.move, p.rank, p.gives_up) for p in found]


def first_tried(args: dict[str, object], exception: str, message: str) -> Candidate:
    """The child the search tries first (cost, then rank), as after a real failure."""
    base = Candidate.build({"model-path": "/m", **args})
    search = Search(base, gpu_counts=BARE.gpu_count_spellings())
    search.ask()
    kids = children(args, exception, message)
    assert kids, "no move at all"
    search.tell(base.key, "failed", kids)
    pick = search.ask()
    assert pick is not None
    return pick.candidate


def test_the_subject_goes_before_a_primary_choice_named_as_context() -> None:
    child = first_tried(
        {"enable-metrics-for-all-schedulers": True, "disaggregation-mode": "decode", "tp-size": 2},
        "ValueError",
        "--enable-metrics-for-all-schedulers is not supported with --disaggregation-mode=prefill or decode; "
        "metrics must stay per scheduler in PD mode.",
    )
    assert child.arg("disaggregation-mode") == "decode"
    assert not child.has("enable-metrics-for-all-schedulers")


def test_a_recommended_value_is_the_value_to_set() -> None:
    child = first_tried(
        {"enable-hierarchical-cache": True, "page-size": 1},
        "ValueError",
        "--enable-hierarchical-cache needs pages larger than one token (--page-size 32 recommended): a one-token "
        "page makes every transfer a per-token copy.",
    )
    assert child.arg("page-size") == "32"
    assert child.has("enable-hierarchical-cache")


def test_a_number_refused_by_numeric_choices_takes_the_nearest() -> None:
    child = first_tried(
        {"max-lora-chunk-size": "256", "enable-lora": True},
        "argparse.ArgumentError",
        "argument --max-lora-chunk-size: invalid choice: 256 (choose from 16, 32, 64, 128)",
    )
    assert child.arg("max-lora-chunk-size") == "128"


def test_an_object_where_an_array_is_wanted_becomes_its_pairs() -> None:
    child = first_tried(
        {"sidecar-args": '{"--workers": "4", "--verbose": true}'},
        "ValueError",
        "--sidecar-args must be a JSON array of strings.",
    )
    assert json.loads(str(child.arg("sidecar-args"))) == ["--workers", "4", "--verbose"]


NGRAM_ON_XPU = (
    {
        "speculative-algorithm": "NGRAM",
        "speculative-ngram-max-bfs-breadth": "8",
        "speculative-num-draft-tokens": "8",
        "tp-size": 2,
    },
    "ValueError",
    "NGRAM speculative decoding is not supported by the XPU platform on device 'xpu'.",
)


def test_a_feature_not_supported_on_this_device_goes_with_what_serves_it() -> None:
    child = first_tried(*NGRAM_ON_XPU)
    assert not child.has("speculative-algorithm")
    assert child.arg("tp-size") == "2"
    # The options that serve it go in one move too (proposed; the search tries the single
    # drop first, as it costs less).
    together = [c for c in children(*NGRAM_ON_XPU) if not c.candidate.has("speculative-ngram-max-bfs-breadth")]
    assert together and not together[0].candidate.has("speculative-num-draft-tokens")
