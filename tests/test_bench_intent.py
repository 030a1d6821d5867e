"""bench/out_of_sample.py's "intent kept": the store keeps a secret flag's value redacted,
so a winner that keeps the user's --api-key holds it as the redacted value; that is the
user's key kept, and a winner without the flag is not."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.model import REDACTED
from bench.out_of_sample import canonical_pairs, kept

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
