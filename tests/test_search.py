"""Best-first search: order, dedupe, never the same candidate twice."""

from __future__ import annotations

from autofix.model import Candidate, Edit, EditOp, Move
from autofix.search import Child, Search


def move(label_flag: str, value: str | None = None, inferred: bool = False) -> Move:
    op = EditOp.DROP if value is None else EditOp.SET
    return Move((Edit(op, label_flag, value),), inferred=inferred)


def child(base: Candidate, flag: str, value: str | None, rank: int, inferred: bool = False) -> Child:
    cand = base.without_arg(flag) if value is None else base.with_arg(flag, value)
    return Child(cand, move(flag, value, inferred), rank)


def test_base_first_then_fewest_edits_then_curated_then_rank() -> None:
    """Children are tried by distance from the base, curated before inferred, then rank."""
    base = Candidate.build({"a": "1", "b": "2"})
    s = Search(base)
    first = s.ask()
    assert first is not None and first.candidate == base and first.move is None
    two_edits = Child(base.with_arg("a", "9").with_arg("c", "1"), move("a", "9"), 0)
    inferred = child(base, "b", "7", 0, inferred=True)
    curated_late = child(base, "a", "5", 2)
    curated_early = child(base, "b", "3", 1)
    s.tell(base.key, "failed", [two_edits, inferred, curated_late, curated_early])
    order = [p.candidate for p in iter(s.ask, None)]
    assert order == [curated_early.candidate, curated_late.candidate, inferred.candidate, two_edits.candidate]


def test_never_the_same_candidate_twice() -> None:
    """A child reached twice (or equal to its parent) is queued once."""
    base = Candidate.build({"a": "1"})
    s = Search(base)
    s.ask()
    c = child(base, "a", "2", 0)
    s.tell(base.key, "failed", [c, c, Child(base, move("a", "1"), 1)])
    picked = s.ask()
    assert picked is not None and picked.candidate == c.candidate and picked.depth == 1
    s.tell(c.candidate.key, "failed", [Child(base, move("a", "1"), 0)])
    assert s.ask() is None
    assert s.path(c.candidate.key)[0][1].label() == "set a=2"


def test_past_success_rate_breaks_ties() -> None:
    """Between equally distant curated moves, the one that fixed this class before goes first."""
    base = Candidate.build({"a": "1", "b": "1"})
    rates = {("cls", "set b=2"): 0.9}
    s = Search(base, success_rates=rates)
    s.ask()
    s.tell(base.key, "failed", [child(base, "a", "2", 0), child(base, "b", "2", 1)], class_id="cls")
    nxt = s.ask()
    assert nxt is not None and nxt.candidate.arg("b") == "2"


def test_dropping_what_the_user_set_costs_more_than_adding() -> None:
    """Turning a user's flag off costs 2: it ties with adding two flags and loses to one."""
    base = Candidate.build({"enable-lora": True})
    s = Search(base)
    s.ask()
    drop_feature = Child(base.without_arg("enable-lora"), move("enable-lora", None), 0)
    add_two = Child(
        base.with_arg("max-lora-rank", "16").with_arg("lora-target-modules", "all"), move("max-lora-rank", "16"), 1
    )
    add_one = Child(base.with_arg("max-lora-rank", "16"), move("max-lora-rank", "16"), 2)
    s.tell(base.key, "failed", [drop_feature, add_two, add_one])
    order = [p.candidate for p in iter(s.ask, None)]
    assert order == [add_one.candidate, drop_feature.candidate, add_two.candidate]


def test_retuning_a_number_is_cheaper_than_replacing_a_choice() -> None:
    """topk 4 -> 1 costs like adding a flag; EAGLE -> DFLASH costs like dropping one."""
    from autofix.search import intent_cost

    base = Candidate.build({"speculative-algorithm": "EAGLE", "speculative-eagle-topk": 4})
    assert intent_cost(base, base.with_arg("speculative-eagle-topk", "1")) == 1
    assert intent_cost(base, base.with_arg("page-size", "1")) == 1
    assert intent_cost(base, base.with_arg("speculative-algorithm", "DFLASH")) == 2
    assert intent_cost(base, base.without_arg("speculative-eagle-topk")) == 2


def test_a_candidate_that_needs_more_gpus_waits_for_those_that_fit_the_host() -> None:
    """tp 4 with attn-cp 3: attn-cp 2 (fits) and dropping attn-cp (the feature off) both
    come before tp 6, which asks the operator for two more GPUs."""
    from autofix.search import intent_cost

    base = Candidate.build({"tp": 4, "attn-cp-size": 3})
    counts = [("tp-size", "tp"), ("pp-size",), ("dp-size", "dp")]
    more = base.with_arg("tp", "6")
    assert intent_cost(base, more, counts) > intent_cost(base, base.without_arg("attn-cp-size"), counts)
    assert intent_cost(base, base.with_arg("tp", "2"), counts) == 1  # fewer GPUs: a plain retune
    s = Search(base, gpu_counts=counts)
    s.ask()
    s.tell(
        base.key,
        "failed",
        [
            Child(more, move("tp", "6"), 0),
            Child(base.without_arg("attn-cp-size"), move("attn-cp-size", None), 1),
            Child(base.with_arg("attn-cp-size", "2"), move("attn-cp-size", "2"), 2),
        ],
    )
    order = [p.candidate for p in iter(s.ask, None)]
    assert order[-1] == more


def test_a_move_after_which_the_same_failure_returns_waits() -> None:
    """If a move leaves the same failure class, its children wait for the parent's siblings."""
    base = Candidate.build({"cpu-offload-gb": "400"})
    s = Search(base)
    s.ask()
    scale = Child(base.with_arg("mem-fraction-static", "0.8"), move("mem-fraction-static", "0.8"), 0)
    drop = Child(base.without_arg("cpu-offload-gb"), move("cpu-offload-gb", None), 1)
    s.tell(base.key, "failed", [scale, drop], class_id="killed")
    first = s.ask()
    assert first is not None and first.candidate == scale.candidate
    deeper = Child(scale.candidate.with_arg("mem-fraction-static", "0.7"), move("mem-fraction-static", "0.7"), 0)
    s.tell(scale.candidate.key, "failed", [deeper], class_id="killed")  # the same failure again
    second = s.ask()
    assert second is not None and second.candidate == drop.candidate


def test_a_line_that_gets_further_is_followed_first() -> None:
    """When a move uncovers a new failure, its children go before the parent's alternatives."""
    base = Candidate.build({"a": "1"})
    s = Search(base)
    s.ask()
    fix_one = child(base, "b", "1", 0)
    alternative = child(base, "c", "1", 1)
    s.tell(base.key, "failed", [fix_one, alternative], class_id="A", failure="fp-a")
    assert s.ask().candidate == fix_one.candidate  # type: ignore[union-attr]
    next_fix = Child(fix_one.candidate.with_arg("d", "1"), move("d", "1"), 0)
    s.tell(fix_one.candidate.key, "failed", [next_fix], class_id="B", failure="fp-b")  # got further
    assert s.ask().candidate == next_fix.candidate  # type: ignore[union-attr]


def test_folding_one_size_into_another_asks_for_no_gpus() -> None:
    """pp 2 at tp 4 folded into tp 8: the same eight GPUs (issue 14 round 7)."""
    from autofix.search import more_gpus

    counts = [("tp-size", "tp"), ("pp-size",), ("dp-size", "dp"), ("nnodes",)]
    base = Candidate.build({"tp": 4, "pp-size": 2})
    assert not more_gpus(base, base.without_arg("pp-size").with_arg("tp", "8"), counts)
    assert more_gpus(base, base.with_arg("tp", "8"), counts)
    assert more_gpus(base, base.with_arg("nnodes", "2"), counts)


def test_a_move_that_gives_up_what_the_user_asked_for_waits_for_longer_repairs() -> None:
    """Dropping the speculative algorithm (one edit) comes after folding pp into tp (two
    edits) when the proposal says the drop gives up a primary choice (issue 14 round 7)."""
    base = Candidate.build({"tp": 4, "pp-size": 2, "speculative-algorithm": "EAGLE3"})
    s = Search(base)
    s.ask()
    fold = Child(
        base.without_arg("pp-size").with_arg("tp", "8"),
        Move((Edit(EditOp.DROP, "pp-size"), Edit(EditOp.SET, "tp", "8")), inferred=True),
        1,
    )
    drop = Child(base.without_arg("speculative-algorithm"), move("speculative-algorithm"), 0, gives_up=True)
    s.tell(base.key, "failed", [drop, fold])
    assert [p.candidate for p in iter(s.ask, None)] == [fold.candidate, drop.candidate]


def test_dropping_flags_the_hosts_release_cannot_take_costs_nothing() -> None:
    """A rename move that drops flags of a newer release than the host's (all of them, in
    one move) is what the user meant on this host: it goes before any single drop of one
    of them, which would leave the others for one more attempt each."""
    base = Candidate.build({"tp-size": "2", "enable-prefill-cp": True, "attn-cp-size": "2", "cp-strategy": "zigzag"})
    s = Search(base)
    s.ask()
    newer = ("enable-prefill-cp", "attn-cp-size", "cp-strategy")
    all_at_once = Move(tuple(Edit(EditOp.DROP, f) for f in newer), inferred=True, origin="rename")
    dropped_all = base
    for flag in newer:
        dropped_all = dropped_all.without_arg(flag)
    singles = [child(base, flag, None, rank, inferred=True) for rank, flag in enumerate(newer, start=1)]
    s.tell(base.key, "failed", [*singles, Child(dropped_all, all_at_once, 4)])
    first = s.ask()
    assert first is not None and first.candidate == dropped_all


def test_a_size_that_splits_the_gpus_of_another_asks_for_none() -> None:
    """Issue 14 round 20, written before the change: with DP attention on, --dp-size
    splits the tp GPUs into attention groups instead of adding replicas (sglang.yaml
    gpu_shares), so raising it asks for no GPUs and waits for nothing; without DP
    attention each dp replica takes its own tp GPUs. So "set a dp-size > 1" is tried
    before DP attention is given up."""
    from autofix.catalog import load_catalog
    from autofix.search import more_gpus

    catalog = load_catalog()
    counts = catalog.gpu_count_spellings()
    shares = catalog.gpu_share_spellings()
    attention = Candidate.build({"tp": 4, "enable-dp-attention": True})
    assert not more_gpus(attention, attention.with_arg("dp-size", "4"), counts, shares)
    plain = Candidate.build({"tp": 4})
    assert more_gpus(plain, plain.with_arg("dp-size", "2"), counts, shares)
    s = Search(attention, gpu_counts=counts, gpu_shares=shares)
    s.ask()
    dropped = Child(attention.without_arg("enable-dp-attention"), move("enable-dp-attention", None), 0)
    raised = Child(attention.with_arg("dp-size", "2"), move("dp-size", "2"), 1)
    s.tell(attention.key, "failed", [dropped, raised])
    first = s.ask()
    assert first is not None and first.candidate == raised.candidate


def test_a_size_that_splits_the_gpus_says_how_many_there_are_at_least() -> None:
    """Issue 14 round 36f, written before the change: 16 attention-DP groups (--dp-size 16
    under DP attention, or --attn-dp-size 16) live inside the TP ranks, so the user's own
    sizes say there are at least 16 GPUs: tp 8 -> 16 (SGLang's TP spans every node) asks
    for none, and is not weighed as more hardware than the user has. Above that it is."""
    from autofix.catalog import load_catalog
    from autofix.search import more_gpus

    catalog = load_catalog()
    counts = catalog.gpu_count_spellings()
    shares = catalog.gpu_share_spellings()
    dp_attention = Candidate.build({"tp-size": 8, "dp-size": 16, "enable-dp-attention": True, "nnodes": 2})
    assert not more_gpus(dp_attention, dp_attention.with_arg("tp-size", "16"), counts, shares)
    assert more_gpus(dp_attention, dp_attention.with_arg("tp-size", "32"), counts, shares)
    attn_dp = Candidate.build({"tp-size": 8, "attn-dp-size": 16})
    assert not more_gpus(attn_dp, attn_dp.with_arg("tp-size", "16"), counts, shares)
    plain = Candidate.build({"tp-size": 8, "dp-size": 16})  # replicas: each takes its own tp GPUs
    assert more_gpus(plain, plain.with_arg("tp-size", "16"), counts, shares)


def test_dropping_a_value_that_asks_for_the_default_costs_as_adding() -> None:
    """Round 42n, written before the change (blind at this round: 0.5.11-eighth's
    page-size-zero-meant-as-auto-under-dp-attention passed as --chunked-prefill-size 0, a
    numeric retune that turned chunking off to skip the check, before the drop of the
    user's '--page-size 0'). A value that asks for the automatic setting ("0", "auto",
    "none") gives up nothing when it goes: the server picks it then. Its drop costs what
    adding a flag does; dropping any other value costs as before."""
    from autofix.search import intent_cost

    base = Candidate.build({"model-path": "/m", "zz-page": "0", "zz-chunk": "8192", "zz-mode": "auto"})
    assert intent_cost(base, base.without_arg("zz-page")) == 1
    assert intent_cost(base, base.without_arg("zz-mode")) == 1
    assert intent_cost(base, base.without_arg("zz-chunk")) == 2
    assert intent_cost(base, base.with_arg("zz-chunk", "0")) == 2  # (round 45o: 0 turns it off)
    assert intent_cost(base, base.with_arg("zz-chunk", "4096")) == 1


def test_a_number_set_to_zero_costs_as_taking_it_away() -> None:
    """Round 45o, written before the change (0.5.23-thirtieth's KV canary sweep, in our words:
    the check "--x-sweep-interval requires --x in {log, raise}" was passed by setting the
    user's interval 60 to 0, turning the sweep off, at the cost of a retune): a number the
    user gave, set to 0, turns off what it sized and costs as its removal; adding the flag the
    check asks for costs less. Another number costs as a retune, as before."""
    from autofix.search import intent_cost

    base = Candidate.build({"model-path": "/m", "zz-sweep-interval": "60"})
    assert intent_cost(base, base.with_arg("zz-sweep-interval", "0")) == 2
    assert intent_cost(base, base.with_arg("zz-sweep-interval", "30")) == 1
    assert intent_cost(base, base.with_arg("zz-canary", "log")) == 1


def test_none_is_no_value_that_asks_for_the_default() -> None:
    """Mend found by round 42's after-run (0.5.23-eighth's cuda-graph-backend-prefill-none:
    'none' meant the choice 'disabled'): "none" often means off, so dropping it costs as
    taking away a choice."""
    from autofix.search import intent_cost

    base = Candidate.build({"model-path": "/m", "zz-backend": "none"})
    assert intent_cost(base, base.without_arg("zz-backend")) == 2


def test_a_size_folded_into_another_costs_one_change() -> None:
    """Round 44l, written before the change: pp 2 folded into tp (pp dropped, tp 2) keeps
    the user's two GPUs and is one re-layout, not a dropped size plus an added one: it costs
    no more than pp 2 -> 1, which halves the GPUs (and the fold's tier goes first)."""
    from autofix.search import intent_cost

    counts = [("tp-size", "tp"), ("pp-size",), ("dp-size", "dp")]
    base = Candidate.build({"pp-size": "2", "speculative-algorithm": "STANDALONE"})
    folded = base.without_arg("pp-size").with_arg("tp-size", "2")
    halved = base.with_arg("pp-size", "1")
    assert intent_cost(base, folded, counts) == 1
    assert intent_cost(base, folded, counts) <= intent_cost(base, halved, counts)
    # Sizes changed that do not keep the product are each a change, as before.
    assert intent_cost(base, base.without_arg("pp-size").with_arg("tp-size", "4"), counts) > 1


def test_alternatives_for_an_answered_failure_wait_for_the_line_that_goes_on() -> None:
    """Round 44t, written before the change (users31's four-error script): once a move
    answered its failure (a new one came next), its siblings answer a failure that is
    gone: dropping two unknown flags after the value that got further goes before another
    value for the failure already answered."""
    base = Candidate.build({"parser": "deepseek_v3", "x-flag": True, "y-port": "5000"})
    s = Search(base)
    s.ask()
    answered = child(base, "parser", "deepseekv3", 0, inferred=True)
    other_value = child(base, "parser", "deepseekv32", 1, inferred=True)
    s.tell(base.key, "failed", [answered, other_value], failure="fp-parser")
    assert s.ask().candidate == answered.candidate  # type: ignore[union-attr]
    both = answered.candidate.without_arg("x-flag").without_arg("y-port")
    drops = Child(both, Move((Edit(EditOp.DROP, "x-flag"), Edit(EditOp.DROP, "y-port")), inferred=True), 0)
    s.tell(answered.candidate.key, "failed", [drops], failure="fp-unknown-flags")  # got further
    assert s.ask().candidate == both  # type: ignore[union-attr]


def test_a_size_given_per_node_counted_over_the_nodes_costs_nothing() -> None:
    """Round 44v, written before the change (0.5.11-tenth's two-node MoE-DP launch): TP 4
    on two nodes with MoE DP 8 (a split of TP: the user has at least 8 GPUs) read as TP per
    node, 4 x 2 = 8, is the same GPUs spelled as SGLang counts them: it costs nothing, so it
    goes before cutting the user's MoE DP 8 to 4. On one node, or beyond the GPUs the
    command describes, it is a change as before."""
    from autofix.search import intent_cost

    counts = [("tp-size", "tp"), ("pp-size",), ("dp-size", "dp"), ("nnodes",)]
    shares = [(("moe-dp-size",), ())]
    base = Candidate.build({"tp-size": "4", "nnodes": "2", "node-rank": "0", "moe-dp-size": "8"})
    over_nodes = base.with_arg("tp-size", "8")
    assert intent_cost(base, over_nodes, counts, shares) == 0
    assert intent_cost(base, base.with_arg("moe-dp-size", "4"), counts, shares) == 1
    single = base.without_arg("nnodes").without_arg("node-rank")
    assert intent_cost(single, single.with_arg("tp-size", "8"), counts, shares) == 1
    assert intent_cost(base, base.with_arg("tp-size", "16"), counts, shares) > 1


def test_a_size_read_per_node_costs_nothing_only_where_the_users_groups_ask_for_it() -> None:
    """Round 44 after-run (0.5.23-thirteenth's single-rank elastic joiner: TP 1 on two nodes
    is what the user meant): without a group size of the user's beyond TP (MoE DP 8 on TP 4),
    nothing says TP was given per node, and TP 1 -> 2 is a change like any."""
    from autofix.search import intent_cost

    counts = [("tp-size", "tp"), ("pp-size",), ("dp-size", "dp"), ("nnodes",)]
    shares = [(("moe-dp-size",), ())]
    base = Candidate.build({"tp-size": "1", "ep-size": "1", "nnodes": "2", "node-rank": "1"})
    assert intent_cost(base, base.with_arg("tp-size", "2"), counts, shares) == 1


def test_a_failure_the_move_itself_caused_answers_nothing() -> None:
    """Round 44 after-run (0.5.23-twentieth's elastic scale-up): a move whose next failure
    names the flag it edited ("--max-ep-size requires --elastic-ep-backend", right after the
    backend was dropped) made that failure: its siblings do not wait behind it."""
    base = Candidate.build({"parser": "x", "backend": "m"})
    s = Search(base)
    s.ask()
    dropped = child(base, "backend", None, 0, inferred=True)
    other = child(base, "parser", "y", 1, inferred=True)
    s.tell(base.key, "failed", [dropped, other], failure="fp-a")
    assert s.ask().candidate == dropped.candidate  # type: ignore[union-attr]
    more = dropped.candidate.with_arg("backend", "n").with_arg("z", "1").with_arg("w", "1").with_arg("v", "1")
    again = Child(more, move("backend", "n"), 0)
    s.tell(dropped.candidate.key, "failed", [again], failure="fp-b", caused=True)
    assert s.ask().candidate == other.candidate  # type: ignore[union-attr]


def test_the_move_caused_a_failure_that_names_a_flag_it_edited() -> None:
    from autofix.catalog import load_catalog
    from autofix.repair import caused_by

    catalog = load_catalog()
    dropped = Move((Edit(EditOp.DROP, "elastic-ep-backend"),), inferred=True)
    assert caused_by(dropped, "--max-ep-size requires --elastic-ep-backend to be set.", catalog)
    assert not caused_by(dropped, "--cp-strategy must be set when --enable-prefill-cp is enabled.", catalog)


def test_a_candidate_the_line_that_goes_on_reaches_again_comes_at_that_lines_priority() -> None:
    """Round 47e, written before the change (0.5.11-thirteenth's EAGLE-3 draft tokens alone,
    scored blind at round 47: the algorithm was dropped). The base's failure proposed both
    missing flags at once and one of them alone; the one alone got further, and its failure
    asks for the other: the candidate with both, already queued behind the answered
    failure, is what the line that goes on reaches, so it comes before that line's
    alternatives (dropping the feature)."""
    base = Candidate.build({"algo": "EAGLE3", "draft": "4"})
    s = Search(base)
    s.ask()
    both = base.with_arg("steps", "3").with_arg("topk", "1")
    together = Child(both, Move((Edit(EditOp.SET, "steps", "3"), Edit(EditOp.SET, "topk", "1"))), 0)
    steps_alone = child(base, "steps", "3", 2)
    s.tell(base.key, "failed", [together, steps_alone], failure="fp-incomplete")
    assert s.ask().candidate == steps_alone.candidate  # type: ignore[union-attr]
    topk_next = child(steps_alone.candidate, "topk", "1", 0, inferred=True)
    drop_algo = child(steps_alone.candidate, "algo", None, 1, inferred=True)
    s.tell(steps_alone.candidate.key, "failed", [topk_next, drop_algo], failure="fp-topk-none")
    assert s.ask().candidate == both  # type: ignore[union-attr]


def test_a_move_that_undoes_the_lines_own_step_reaches_nothing_at_that_lines_priority() -> None:
    """Round 47e', written before the change (47e's after-run: retraction-policy set, then
    dropped). A move from the line that got further that takes back the line's own step (drops
    the flag the step set) reaches the base's alternative, not a step further: it stays
    behind the answered failure, and the line's real next step comes first."""
    base = Candidate.build({"policy": "lowest"})
    s = Search(base)
    s.ask()
    step = child(base, "policy", "priority", 0)
    alternative = child(base, "policy", None, 1)
    s.tell(base.key, "failed", [step, alternative], failure="fp-choice")
    assert s.ask().candidate == step.candidate  # type: ignore[union-attr]
    undo = child(step.candidate, "policy", None, 0, inferred=True)
    next_step = child(step.candidate, "scheduling", "on", 1, inferred=True)
    s.tell(step.candidate.key, "failed", [undo, next_step], failure="fp-needs-scheduling")
    assert s.ask().candidate == next_step.candidate  # type: ignore[union-attr]
