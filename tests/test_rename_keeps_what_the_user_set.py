"""Issue 14 round 48c, written before the change: a removed flag whose replacement is a flag
the user also gave, with a value of their own, is said already: the old flag goes and the
user's value stays. `--disable-flashinfer` means `--attention-backend triton`, but a command
that also says `--attention-backend torch_native` chose its attention itself (users35's shape:
a launcher kept from an old release beside a newer explicit backend). Where the user did not
give the replacement, the rename still sets it."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.model import Candidate
from autofix.renames import rename_move
from autofix.repair import apply

CATALOG = load_catalog()


def _renamed(args: dict[str, object]) -> Candidate:
    candidate = Candidate.build(args)
    move = rename_move(candidate, CATALOG)
    assert move is not None
    return apply(candidate, move)


def test_the_users_own_value_of_the_replacement_stays() -> None:
    child = _renamed({"model-path": "/m", "disable-flashinfer": True, "attention-backend": "torch_native"})
    assert child.arg("attention-backend") == "torch_native"
    assert not child.has("disable-flashinfer")


def test_a_replacement_the_user_did_not_give_is_still_set() -> None:
    child = _renamed({"model-path": "/m", "disable-flashinfer": True})
    assert child.arg("attention-backend") == "triton"
    assert not child.has("disable-flashinfer")


def test_a_moved_value_beside_the_users_own_keeps_the_users() -> None:
    """--cuda-graph-max-bs 64 beside the user's own --cuda-graph-max-bs-decode 32: 32 stays."""
    child = _renamed({"model-path": "/m", "cuda-graph-max-bs": 64, "cuda-graph-max-bs-decode": 32})
    assert child.arg("cuda-graph-max-bs-decode") == "32"
    assert not child.has("cuda-graph-max-bs")


def test_an_old_switch_that_turns_a_choice_on_overrides_the_users_other_value() -> None:
    """48m (written before the change; the after-run's users8 case): in its release an
    enabling switch (--enable-flashmla) chose its backend over --attention-backend, so the
    rename sets that choice; only a switch that turns something off (--disable-flashinfer)
    is said already by a value of the user's that is not the thing it turns off."""
    child = _renamed({"model-path": "/m", "attention-backend": "flashinfer", "enable-flashmla": True})
    assert child.arg("attention-backend") == "flashmla"
    assert not child.has("enable-flashmla")


def test_a_disabling_switch_beside_the_very_thing_it_disables_is_renamed() -> None:
    child = _renamed({"model-path": "/m", "disable-flashinfer": True, "attention-backend": "flashinfer"})
    assert child.arg("attention-backend") == "triton"
