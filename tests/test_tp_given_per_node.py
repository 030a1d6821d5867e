"""Issue 14 round 37r, written before the change: on two nodes with 16 attention-DP groups
an operator gave --tp-size 8, the GPUs of one node; SGLang's TP size counts the ranks of
all nodes, so "tp_size % dp_size == 0" fails. The size meant is TP over the nodes (8 x 2 =
16): set first, before the 16 groups are cut to 8. A group size alone (no nodes) still comes
down to a divisor first, and a node count that does not divide TP is not answered by
multiplying TP (the nodes are the divisor there). Sources ours, in SGLang's shape."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

BARE = load_catalog().without_classes()


def _labels(args: dict[str, object], assertion: str, said: str = "") -> list[str]:
    """The moves for ``assertion`` failing on ``args``; ``said``: the message the exception
    line prints (SGLang's asserts carry one), none for a bare assert."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/server_args.py", line 900, in _handle_toy\n'
        f"    {assertion}\n"
        f"AssertionError{': ' + said if said else ''}\n"
    )
    diagnosis = classify(parse_text(text), BARE, Gate.PREFLIGHT)
    found = propose(Candidate.build({"model-path": "/m", **args}), diagnosis, BARE, pinned=("model-path",))
    return [p.move.label() for p in found]


FOUR_NODES_OF_TWO = {"tp-size": "2", "nnodes": "4", "node-rank": "0"}
TWO_NODES = {"tp-size": "8", "dp-size": "16", "enable-dp-attention": True, "nnodes": "2", "node-rank": "0"}


def test_tp_given_per_node_becomes_tp_over_the_nodes() -> None:
    labels = _labels(TWO_NODES, "assert self.tp_size % self.dp_size == 0")
    assert labels[0] == "set tp-size=16", labels


def test_without_nodes_the_group_comes_down_first() -> None:
    args = {k: v for k, v in TWO_NODES.items() if k not in ("nnodes", "node-rank")}
    labels = _labels(args, "assert self.tp_size % self.dp_size == 0")
    assert labels[0] != "set tp-size=16", labels


def test_nodes_that_do_not_divide_tp_are_not_answered_by_more_tp() -> None:
    labels = _labels({"tp-size": "8", "nnodes": "3", "node-rank": "0"}, "assert self.tp_size % self.nnodes == 0")
    assert labels[0] != "set tp-size=24", labels


def test_fewer_gpus_than_nodes_is_tp_given_per_node() -> None:
    """Round 38e, written before the change: TP 2 over four nodes is fewer GPUs than
    machines, so the 2 is what one node holds: TP over the nodes (2 x 4 = 8) comes first,
    and is no request for hardware the command did not describe (four nodes of two)."""
    nodes = 'assert self.tp_size % self.nnodes == 0, "tp_size must be divisible by number of nodes"'
    labels = _labels(FOUR_NODES_OF_TWO, nodes, "tp_size must be divisible by number of nodes")
    assert labels[0] == "set tp-size=8", labels
    assert "set nnodes=2" in labels  # the other reading, after


def test_fewer_gpus_than_nodes_over_tp_times_pp() -> None:
    """Round 38t: 0.4.10 checks (tp_size * pp_size) % nnodes; with PP left at its default
    the user's TP is still the one size to read per node."""
    nodes = 'assert (self.tp_size * self.pp_size) % self.nnodes == 0, "tp_size must be divisible by number of nodes"'
    labels = _labels(FOUR_NODES_OF_TWO, nodes, "tp_size must be divisible by number of nodes")
    assert labels[0] == "set tp-size=8", labels


def test_a_group_size_sglang_resolved_from_another_flag_is_read_as_resolved() -> None:
    """Round 43, written before the change: 0.5.23 reads --dp-size 16 with
    --enable-dp-attention as 16 attention-DP groups and checks "tp_size % attn_dp_size", a
    field the user did not set. Its value is what SGLang resolved (16), not the parser's
    default: TP over the nodes first, as when the user names the groups. The groups are not
    cut on --attn-dp-size, a flag the user did not write: it would disagree with --dp-size."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/arg_groups/toy_hook.py", line 90, in check\n'
        "    assert self.tp_size % self.attn_dp_size == 0\n"
        "AssertionError\n"
    )
    diagnosis = classify(parse_text(text), BARE, Gate.PREFLIGHT)
    candidate = Candidate.build({"model-path": "/m", **TWO_NODES})
    found = propose(candidate, diagnosis, BARE, pinned=("model-path",), resolved={"attn_dp_size": 16})
    labels = [p.move.label() for p in found]
    assert labels[0] == "set tp-size=16", labels
    assert "set attn-dp-size=8" not in labels


def test_tp_multiplied_over_the_nodes_gives_nothing_up() -> None:
    """Round 44a, written before the change: a bare assert names no size, so a move that
    changes the user's TP read as giving it up, and the catalogue's "cut the groups to TP"
    (--attn-dp-size 8, against the user's 16 DP groups) went first; the real 0.5.23 search
    took four attempts and lost DP attention. TP given per node and multiplied by the
    nodes keeps the GPUs of every node: it gives up nothing, and goes first."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/arg_groups/parallel_hook.py", line 326,'
        " in handle_data_parallelism\n"
        "    assert cfg.tp_size % cfg.attn_dp_size == 0\n"
        "AssertionError\n"
    )
    catalog = load_catalog()
    diagnosis = classify(parse_text(text), catalog, Gate.PREFLIGHT)
    candidate = Candidate.build({"model-path": "/m", **TWO_NODES})
    found = propose(candidate, diagnosis, catalog, pinned=("model-path",), resolved={"attn_dp_size": 16})
    assert found[0].move.label() == "set tp-size=16", [p.move.label() for p in found]
    assert not found[0].gives_up


def test_tp_changed_otherwise_on_nodes_still_gives_it_up() -> None:
    """The per-node reading is TP times the nodes, nothing else: TP 8 -> 12 on two nodes
    changes what the user chose (a bare assert names no size)."""
    from autofix.repair import gives_up_primary

    catalog = load_catalog()
    base = Candidate.build({"model-path": "/m", **TWO_NODES})
    assert not gives_up_primary(base, base.with_arg("tp-size", "16"), catalog)
    assert gives_up_primary(base, base.with_arg("tp-size", "12"), catalog)
    single = base.without_arg("nnodes").without_arg("node-rank")
    assert gives_up_primary(single, single.with_arg("tp-size", "16"), catalog)
