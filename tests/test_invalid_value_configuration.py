"""Issue 14 round 43, written after sglang-0.5.23-thirty-first was scored at e7449b5 (its
qwen3moe-expert-pack-load-format took 5 attempts: TP, then EP, then the load format; in sample).

"Invalid expert_pack configuration: tensor parallelism (--tp-size) must be 1, got 4; expert
parallelism (--ep-size) must be 1, got 4; ..." names the value the user chose (--load-format
expert_pack) and lists what it needs: the operator takes the choice out before dismantling
the layout to meet each need. A value the user did not write gets no such move. The wording
is SGLang's shape; the values are ours."""

from __future__ import annotations

from .proposing import proposed_labels

MESSAGE = (
    "Invalid toy_pack configuration: tensor parallelism (--tp-size) must be 1, got 4; expert parallelism "
    "(--ep-size) must be 1, got 4; pack_path is required in --model-loader-extra-config"
)


def test_the_value_whose_configuration_is_invalid_is_taken_out_first() -> None:
    labels = proposed_labels({"tp-size": "4", "ep-size": "4", "load-format": "toy_pack"}, "ValueError", MESSAGE)
    assert labels[0] == "drop load-format"


def test_a_value_the_user_did_not_write_gets_no_drop() -> None:
    labels = proposed_labels({"tp-size": "4", "ep-size": "4"}, "ValueError", MESSAGE)
    assert "drop load-format" not in labels
