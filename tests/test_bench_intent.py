"""bench/out_of_sample.py's "intent kept": the store keeps a secret flag's value redacted,
so a winner that keeps the user's --api-key holds it as the redacted value; that is the
user's key kept, and a winner without the flag is not."""

from __future__ import annotations

from autofix.model import REDACTED
from bench.out_of_sample import kept

BASE = {("grpc-port", "50051"), ("api-key", "sk-user-1"), ("port", "30000")}
FIX = {("api-key", "sk-user-1"), ("port", "30000")}


def test_a_redacted_secret_in_the_winner_is_the_users_key_kept() -> None:
    assert kept(FIX, {("api-key", REDACTED), ("port", "30000")}, BASE)


def test_a_winner_without_the_secret_flag_does_not_keep_it() -> None:
    assert not kept(FIX, {("port", "30000")}, BASE)


def test_another_value_of_a_plain_flag_is_not_kept() -> None:
    assert not kept(FIX, {("api-key", REDACTED), ("port", "30001")}, BASE)
