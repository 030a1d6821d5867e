"""Inference that reads the gate like an operator: data-driven from real SGLang 0.5.23
captures with the curated classes switched off, and from the statements SGLang's checks
are written as (one-line facts: the condition, not its code)."""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.classify import Diagnosis, Subject, classify
from autofix.model import Candidate, EditOp, Failure, Frame, Gate, Move
from autofix.repair import Flags, argparse_line, offline_moves, on_values, propose, source_moves
from autofix.tracebacks import parse_text
from bench.captures import move_in_fix, verified_fixes

from .conftest import DATA, argv_to_args, load_cases

CATALOG = load_catalog()
BARE = CATALOG.without_classes()  # inference only
CASES = {c["id"]: c for c in load_cases()}


def first_moves(case_id: str, catalog=BARE, n: int = 3) -> list[str]:  # type: ignore[no-untyped-def]
    case = CASES[case_id]
    candidate = Candidate.build(argv_to_args(case["argv"]))
    diagnosis = classify(parse_text(case["traceback"]), catalog, Gate.PREFLIGHT)
    return [p.move.label() for p in propose(candidate, diagnosis, catalog, pinned=("model-path",))][:n]


def first_move(case_id: str, catalog=BARE) -> Move:  # type: ignore[no-untyped-def]
    case = CASES[case_id]
    candidate = Candidate.build(argv_to_args(case["argv"]))
    diagnosis = classify(parse_text(case["traceback"]), catalog, Gate.PREFLIGHT)
    return propose(candidate, diagnosis, catalog, pinned=("model-path",))[0].move


def test_domains_hold_no_capture_answer() -> None:
    """The values one capture's fix needed are not in the catalogue's domains any more."""
    for flag in ("max-lora-rank", "elastic-ep-backend", "speculative-draft-window-size", "max-loaded-loras"):
        assert flag not in CATALOG.domains
    for cls in ("spec-uno-needs-cuda", "kv-swa-ratio-range", "srv-grpc-port-range"):
        assert CATALOG.get(cls) is None


def test_hardware_refusal_drops_the_feature_with_its_options() -> None:
    """'UNO only supports CUDA.' on a CPU host: the algorithm the user chose goes, with the
    options set for it (uno-lora-path, speculative-num-draft-tokens): the verified fix."""
    move = first_move("spec-uno-on-cpu")
    assert move.label() == "drop speculative-algorithm; drop uno-lora-path; drop speculative-num-draft-tokens"
    assert move.inferred and move_in_fix(move, verified_fixes(CASES["spec-uno-on-cpu"]))


def test_a_stated_range_gives_sglangs_own_fallback_first() -> None:
    """'should be in range (0, 1.0]' with 1.5: the value SGLang resolves the flag to when
    unset (the parser's fallback, 0.8), then the nearest value inside (the bound 1.0)."""
    assert CATALOG.flag("swa-full-tokens-ratio").fallback == 0.8  # type: ignore[union-attr]
    assert first_moves("kv-swa-full-tokens-ratio-range")[:2] == [
        "set swa-full-tokens-ratio=0.8",
        "set swa-full-tokens-ratio=1",
    ]


def test_a_range_without_a_default_gives_the_nearest_bound() -> None:
    """'must be between 1 and 65535' with 70000 and no default: 65535, then off."""
    assert first_moves("srv-grpc-port-out-of-range")[:2] == ["set grpc-port=65535", "drop grpc-port"]


def test_a_choice_flag_that_must_be_set_takes_the_parsers_first_choice_that_is_not_off() -> None:
    """'requires --elastic-ep-backend to be set': choices (none, mooncake, nixl) -> mooncake."""
    assert first_moves("par-elastic-ep-join-mode-without-backend", n=1) == ["set elastic-ep-backend=mooncake"]
    flags = Flags(Candidate(()), CATALOG)
    assert on_values("elastic-ep-backend", flags) == ["mooncake", "nixl"]
    assert on_values("max-lora-rank", flags) == []  # an int with no facts: no invented value


def _moves(source: str, args: dict[str, object], line: int = 2) -> list[str]:
    flags = Flags(Candidate.build(args), CATALOG)
    found = source_moves(source, line, flags)
    assert found is not None
    return [m.label() for m in found]


def test_a_product_of_sizes_that_must_divide_lowers_one_factor() -> None:
    """tp % (attn_dp * attn_cp) == 0 with 4, 2, 4: a factor comes down (cp to 2, dp to its
    default) before tp goes up to 8; nothing is dropped that the statement does not name."""
    source = "def check(cfg):\n    assert cfg.tp_size % (cfg.attn_dp_size * cfg.attn_cp_size) == 0, 'msg'\n"
    moves = _moves(source, {"tp-size": 4, "attn-dp-size": 2, "attn-cp-size": 4})
    assert moves[:3] == ["drop attn-dp-size", "set attn-cp-size=2", "set tp-size=8"]


def test_a_product_of_sizes_bounded_by_another_size_lowers_one_factor() -> None:
    """ep * moe_dp <= tp with 4 * 2 > 4: moe-dp back to its default 1, or ep to 2. Round 43,
    written before the change: a factor the user sized as the whole bound (EP over all TP
    ranks, the usual expert-parallel layout) is the layout, the other the add-on: the add-on
    goes first (0.5.23-twenty-fourth's and -twenty-sixth's fixes, in sample; ep to 2 then
    fails on attn_cp_size != moe_dp_size). A factor below the bound keeps the written order."""
    source = "def check(cfg):\n    assert cfg.ep_size * cfg.moe_dp_size <= cfg.tp_size, 'msg'\n"
    moves = _moves(source, {"tp-size": 4, "ep-size": 4, "moe-dp-size": 2})
    assert moves[:2] == ["drop moe-dp-size", "set ep-size=2"]
    moves = _moves(source, {"tp-size": 8, "ep-size": 4, "moe-dp-size": 4})
    assert moves[:2] == ["set ep-size=2", "set moe-dp-size=2"]


def test_a_mode_is_never_switched_on_to_get_around_a_raising_branch() -> None:
    """grpc-port equal to port raises unless a legacy gRPC mode is on: the port moves to
    the nearest other one, or gRPC goes off; --smg-grpc-mode is never turned on."""
    source = (
        "def check(cfg):\n"
        "    if not (cfg.smg_grpc_mode or cfg.grpc_mode) and cfg.grpc_port == cfg.port:\n"
        "        raise ValueError('must differ')\n"
    )
    moves = _moves(source, {"port": 30000, "grpc-port": 30000}, line=3)
    assert moves[0] == "set grpc-port=30001"
    assert not any("grpc-mode" in m for m in moves)


def test_an_assert_that_wants_a_bool_on_still_may_turn_it_on() -> None:
    """The failing assert itself asking for a flag is not a branch to steer around."""
    source = "def check(cfg):\n    assert cfg.enable_metrics, 'msg'\n"
    assert _moves(source, {"model-path": "/m"}) == ["set enable-metrics=True"]


ARGPARSE_LOG = DATA / "preflight" / "sglang-0.5.23-tp-size-not-int.log"


def test_argparse_error_is_read_under_its_inner_cause() -> None:
    """Real 0.5.23 output: the chain's innermost ValueError ('invalid literal for int()') is
    the subject; argparse's own line names the flag, and the number the user meant is set."""
    diagnosis = classify(parse_text(ARGPARSE_LOG.read_text()), CATALOG, Gate.PREFLIGHT)
    assert diagnosis.subject.message.startswith("invalid literal for int()")
    assert "invalid int value: '2.0'" in argparse_line(diagnosis.subject)
    candidate = Candidate.build({"model-path": "/m", "tp-size": "2.0"})
    assert propose(candidate, diagnosis, CATALOG)[0].move.label() == "set tp-size=2"
    assert offline_moves(diagnosis, CATALOG)[0].label() == "set tp-size=2"


@pytest.mark.parametrize(
    ("line", "first"),
    [
        (
            "sglang serve: error: unrecognized arguments: - -trust-remote-code",
            "rename - -trust-remote-code to trust-remote-code",
        ),
        (
            "sglang serve: error: unrecognized arguments: --reasoning_parser kimi_k2",
            "rename reasoning_parser to reasoning-parser",
        ),
        ("sglang serve: error: unrecognized arguments: -page-size 16", "rename -page-size to page-size"),
        (
            "sglang serve: error: ambiguous option: --cuda-graph-bs could match --cuda-graph-bs-decode, --cuda-graph-bs-prefill",
            "rename cuda-graph-bs to cuda-graph-bs-decode",
        ),
    ],
)
def test_offline_moves_rename_what_argparse_refused(line: str, first: str) -> None:
    """`autofix classify` of a pasted argparse error: the first move is the rename the search makes."""
    text = f"usage: sglang serve [-h] --model-path MODEL_PATH\n{line}\n"
    diagnosis = classify(parse_text(text), CATALOG, Gate.PREFLIGHT)
    moves = offline_moves(diagnosis, CATALOG)
    assert moves and moves[0].label() == first
    assert all(e.op is EditOp.RENAME for e in moves[0].edits[:1])


def test_last_resort_drops_come_after_what_the_code_says() -> None:
    """'tp_size must be divisible by number of nodes': the message names tp_size, but the
    statement's divisor (nnodes, back to its default 1) is tried first; tp is last."""
    source = "def check(cfg):\n    assert (cfg.tp_size * cfg.pp_size) % cfg.nnodes == 0, (\n        'x'\n    )\n"
    frame = Frame(file="/x/validation_hook.py", line=2, function="check", source=source.splitlines()[1].strip())
    subject = Subject("AssertionError", "tp_size must be divisible by number of nodes", frame)
    failure = Failure(
        gate=Gate.PREFLIGHT, class_id=None, fingerprint="f", exception="AssertionError", message=subject.message
    )
    diagnosis = Diagnosis(failure, subject)
    candidate = Candidate.build({"model-path": "/m", "tp-size": 3, "nnodes": 2})
    labels = [p.move.label() for p in propose(candidate, diagnosis, CATALOG, source=source)]
    assert labels[0] == "drop nnodes" and labels[-1] == "drop tp-size"
    # Offline (no sizes known) the divisor goes back to its default too.
    assert offline_moves(diagnosis, CATALOG)[0].label() == "drop nnodes"


# --- offline moves (autofix classify, no candidate) as the search would make them ------------


def offline_first(case_id: str, catalog=BARE) -> list[str]:  # type: ignore[no-untyped-def]
    diagnosis = classify(parse_text(CASES[case_id]["traceback"]), catalog, Gate.PREFLIGHT)
    return [m.label() for m in offline_moves(diagnosis, catalog)]


@pytest.mark.parametrize(
    ("case_id", "first"),
    [
        ("kv-prefill-only-disable-kv-cache-chain4", "set is-embedding=True"),  # "requires --is-embedding"
        ("kv-page-major-layout-chain", "set enable-unified-memory=True"),  # "Run with --enable-unified-memory"
        ("par-elastic-ep-join-mode-without-backend", "set elastic-ep-backend=mooncake"),  # parser's first on-choice
        ("par-elastic-ep-scaleup-chain7", "set elastic-ep-backend=mooncake"),
    ],
)
def test_offline_a_flag_the_message_asks_for_is_turned_on_not_dropped(case_id: str, first: str) -> None:
    """Offline every named flag is assumed set; one the message asks for cannot be, so it
    is turned on (as the search does, where it is unset), and never dropped."""
    moves = offline_first(case_id)
    assert moves[0] == first
    assert f"drop {first.split()[1].split('=')[0]}" not in moves


@pytest.mark.parametrize(
    ("case_id", "first"),
    [
        # `assert view.prefill_attention_backend != "cutedsl_mla"`: offline no value is known,
        # so the check is never found to hold already.
        ("attn-cutedsl-mla-as-prefill-chain", "drop prefill-attention-backend"),
        # `assert cfg.pp_size == 1, "..."` on one line: the test, not a tuple of test and message.
        ("par-moe-dp-with-pp-chain", "drop pp-size"),
    ],
)
def test_offline_the_failed_check_is_read_as_failing(case_id: str, first: str) -> None:
    assert offline_first(case_id)[0] == first


@pytest.mark.parametrize(
    ("case_id", "first"),
    [
        # "TRTLLM MHA backend for prefill requires Hopper": trtllm_mha is a choice of every
        # attention backend flag; "for prefill" names which.
        ("attn-trtllm-mha-on-cpu", "drop prefill-attention-backend"),
        ("attn-trtllm-mla-on-cpu", "drop attention-backend"),  # nothing narrower said: the general one
        ("mamba-flashinfer-backend-on-cpu", "drop mamba-backend"),  # "FlashInfer mamba module not available"
    ],
)
def test_offline_a_refused_value_named_in_prose_drops_the_flag_whose_choices_hold_it(case_id: str, first: str) -> None:
    assert offline_first(case_id)[0] == first


def test_a_value_the_message_says_is_the_only_one_supported_is_set() -> None:
    """'... is only supported for decode side': decode is a choice of --disaggregation-mode."""
    assert offline_first("kv-decode-offload-kvcache-chain")[0] == "set disaggregation-mode=decode"
    flags = Flags(Candidate.build({"disaggregation-mode": "prefill"}), CATALOG)
    from autofix.repair import _required_value

    message = "The argument x is only supported for decode side."
    assert [m.label() for m in _required_value(message, flags)] == ["set disaggregation-mode=decode"]
    already = Flags(Candidate.build({"disaggregation-mode": "decode"}), CATALOG)
    assert _required_value(message, already) == []


def test_a_refused_feature_named_by_its_flags_words_is_dropped() -> None:
    """'standalone speculative decoding does not support dp attention': --enable-dp-attention."""
    assert offline_first("spec-standalone-dp-attention-rejection-chain")[0] == "drop enable-dp-attention"
    from autofix.repair import _features_named

    unset = Flags(Candidate.build({"tp-size": "2"}), CATALOG)
    assert _features_named("dp attention", unset) == []  # not set: nothing to drop
    assert _features_named("dp attention", Flags(Candidate.build({"enable-dp-attention": True}), CATALOG)) == [
        "enable-dp-attention"
    ]


@pytest.mark.parametrize(
    "message",
    [
        "--disaggregation-decode-enable-radix-cache is incompatible with speculative decoding (--speculative-algorithm NGRAM)",
        "this build is fine",
    ],
)
def test_a_value_in_prose_is_not_read_where_the_message_names_its_flags_or_refuses_nothing(message: str) -> None:
    from autofix.repair import _refused_value_offline

    assert _refused_value_offline(message, Flags(Candidate(()), CATALOG, assume_present=True)) == []


def test_a_count_of_a_list_bounds_a_size_by_how_many_items_the_user_gave() -> None:
    """Issue 14 round 36e, written before the change: `len(cfg.lora_paths) <= cfg.max_loaded_loras`
    with three adapters and a limit of 2: the limit goes up to 3 (the user's adapters stay),
    before the guard that holds the check is undone (the limit dropped)."""
    source = (
        "def check(cfg):\n"
        "    if cfg.max_loaded_loras is not None:\n"
        "        assert len(cfg.lora_paths) <= cfg.max_loaded_loras, 'msg'\n"
    )
    args = {"enable-lora": True, "lora-paths": ["a=/a", "b=/b", "c=/c"], "max-loaded-loras": 2}
    moves = _moves(source, args, line=3)
    assert moves[0] == "set max-loaded-loras=3"
    assert "drop max-loaded-loras" in moves


def test_a_list_flag_given_no_words_is_no_list_for_a_check_that_wants_one() -> None:
    """Round 47f, written before the change (0.4.10.post2-twelfth's lora-target-modules from
    an unset variable, scored blind at round 47: LoRA was dropped). ``--x`` with no words
    for a flag that takes any number of them is an empty list: a check that wants the list
    is not met by it, and the flag's documented value turns it on."""
    source = "def check(cfg):\n    assert cfg.lora_paths or (cfg.max_lora_rank and cfg.lora_target_modules), 'msg'\n"
    moves = _moves(source, {"enable-lora": True, "max-lora-rank": 32, "lora-target-modules": True})
    assert moves[0] == "set lora-target-modules=all"
