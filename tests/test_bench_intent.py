"""bench/out_of_sample.py's "intent kept": the store keeps a secret flag's value redacted,
so a winner that keeps the user's --api-key holds it as the redacted value; that is the
user's key kept, and a winner without the flag is not."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.model import REDACTED, Edit, EditOp, Move
from bench.out_of_sample import canonical_pairs, kept, move_toward_fix

BASE = {("grpc-port", "50051"), ("api-key", "sk-user-1"), ("port", "30000")}
FIX = {("api-key", "sk-user-1"), ("port", "30000")}


def test_a_redacted_secret_in_the_winner_is_the_users_key_kept() -> None:
    assert kept(FIX, {("api-key", REDACTED), ("port", "30000")}, BASE)


def test_a_winner_without_the_secret_flag_does_not_keep_it() -> None:
    assert not kept(FIX, {("port", "30000")}, BASE)


def test_another_value_of_a_plain_flag_is_not_kept() -> None:
    assert not kept(FIX, {("api-key", REDACTED), ("port", "30001")}, BASE)


def test_a_json_value_is_compared_as_json() -> None:
    """Round 37e: SGLang reads a JSON-valued flag with json.loads, so the winner's
    '{"top_k": 20, "top_p": 0.95}' is the fix's '{"top_p":0.95,"top_k":20}'; another
    object is not, and a plain text value is compared as written."""
    catalog = load_catalog()
    fix = canonical_pairs({"preferred-sampling-params": '{"top_p":0.95,"top_k":20}'}, catalog)
    assert canonical_pairs({"preferred-sampling-params": '{"top_k": 20, "top_p": 0.95}'}, catalog) == fix
    assert canonical_pairs({"preferred-sampling-params": '{"top_k": 20, "top_p": 0.9}'}, catalog) != fix
    assert canonical_pairs({"served-model-name": "a b"}, catalog) != canonical_pairs(
        {"served-model-name": "a  b"}, catalog
    )


def test_a_first_move_that_sets_the_parser_default_is_the_fix_that_leaves_the_flag_out() -> None:
    """Round 38a: setting a flag to what SGLang uses when it is left out (the parser's
    default, or the field's fallback where the parser's is None) launches what leaving it
    out does, so `set swa-full-tokens-ratio=0.8` moves toward a fix without the flag;
    another value does not, and the default is no match where the fix holds the flag
    otherwise."""
    catalog = load_catalog()
    assert catalog.flag("swa-full-tokens-ratio").fallback == 0.8
    without = [{("tp-size", "2")}]
    assert move_toward_fix(Move((Edit(EditOp.SET, "swa-full-tokens-ratio", "0.8"),)), without, catalog)
    assert not move_toward_fix(Move((Edit(EditOp.SET, "swa-full-tokens-ratio", "0.5"),)), without, catalog)
    holds = [{("tp-size", "2"), ("swa-full-tokens-ratio", "0.5")}]
    assert not move_toward_fix(Move((Edit(EditOp.SET, "swa-full-tokens-ratio", "0.8"),)), holds, catalog)
    assert move_toward_fix(Move((Edit(EditOp.SET, "swa-full-tokens-ratio", "0.5"),)), holds, catalog)


def test_a_winner_without_a_flag_holds_the_fixs_default_value_of_it() -> None:
    """Round 38k: the winner that leaves --disaggregation-transfer-backend out launches
    with mooncake, the parser's default, which is the fix's `mooncake`; another value of the
    fix is not held that way, and a winner that sets the flag otherwise does not hold it."""
    catalog = load_catalog()
    assert catalog.flag("disaggregation-transfer-backend").default == "mooncake"
    fix = {("disaggregation-transfer-backend", "mooncake"), ("tp-size", "8")}
    base = {("disaggregation-transfer-backend", "fake"), ("tp-size", "8")}
    assert kept(fix, {("tp-size", "8")}, base, catalog=catalog)
    assert not kept(fix, {("tp-size", "8"), ("disaggregation-transfer-backend", "nixl")}, base, catalog=catalog)
    assert not kept({("disaggregation-transfer-backend", "nixl")}, set(), base, catalog=catalog)


def test_a_first_move_that_drops_a_flag_to_the_fixs_value_of_it_moves_toward_the_fix() -> None:
    """Round 40b: dropping --disaggregation-transfer-backend launches with mooncake, the
    parser's default; where the fix writes `mooncake` out, that drop launches the fix's
    server (as the winner that leaves it out holds it, 38k). Where the fix holds another
    value of the flag, the drop is no move toward it."""
    catalog = load_catalog()
    drop = Move((Edit(EditOp.DROP, "disaggregation-transfer-backend"),))
    assert move_toward_fix(drop, [{("disaggregation-transfer-backend", "mooncake"), ("tp-size", "8")}], catalog)
    assert not move_toward_fix(drop, [{("disaggregation-transfer-backend", "nixl"), ("tp-size", "8")}], catalog)
