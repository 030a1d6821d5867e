"""Issue 14 round 42o, written before the change (blind at this round: 0.5.23-thirtieth's
qwen3moe-marlin-lora-waterfill-implies-deepep failed after nine attempts: "experimental_sgl_marlin
EP requires --moe-a2a-backend none", where the user set no all-to-all backend and
--enable-waterfill makes SGLang pick deepep).

- "requires --flag value" with a value among the flag's choices asks for that value, not
  for the flag's usual way of turning on.
- When the candidate already gives the flag that value and the check still refuses it,
  something else the user turned on overrides it: each on/off switch the user set (not one
  the message names) is dropped in turn.
The flags are ours."""

from __future__ import annotations

from autofix.catalog import load_catalog

from .proposing import proposed

FLAGS = {
    "model-path": {"kind": "value", "type": "str"},
    "zz-runner": {"kind": "value", "type": "str", "choices": ["auto", "marlin_x", "triton"]},
    "zz-a2a-backend": {"kind": "value", "type": "str", "choices": ["auto", "none", "deepep"], "default": "auto"},
    "zz-b2b-backend": {"kind": "value", "type": "str", "choices": ["none", "deepep"], "default": "none"},
    "enable-zz-fill": {"kind": "bool", "default": False},
    "enable-zz-lora": {"kind": "bool", "default": False},
}
HOST = load_catalog().without_classes().with_parser({"flags": FLAGS}, "9.9.9")
MESSAGE = "marlin_x EP requires --zz-a2a-backend none."


def _labels(args: dict[str, object], message: str = MESSAGE) -> list[str]:
    _, found = proposed(args, "ValueError", message, catalog=HOST, resolved={"zz_a2a_backend": "deepep"})
    return [p.move.label() for p in found]


def test_the_value_the_message_requires_is_set() -> None:
    labels = _labels({"zz-runner": "marlin_x", "enable-zz-fill": True, "enable-zz-lora": True})
    assert labels[0] == "set zz-a2a-backend=none", labels
    assert "set zz-a2a-backend=deepep" not in labels


def test_a_required_value_already_given_points_at_what_overrides_it() -> None:
    labels = _labels(
        {"zz-runner": "marlin_x", "enable-zz-fill": True, "enable-zz-lora": True, "zz-a2a-backend": "none"}
    )
    assert labels[:2] == ["drop enable-zz-fill", "drop enable-zz-lora"], labels


def test_a_required_value_that_is_the_default_points_there_too() -> None:
    """(Unset, the flag holds its default: the value asked for, which something overrode.)"""
    labels = _labels({"zz-runner": "marlin_x", "enable-zz-fill": True}, "marlin_x EP requires --zz-b2b-backend none.")
    assert labels[0] == "drop enable-zz-fill", labels


def test_a_value_the_user_chose_otherwise_is_not_overruled() -> None:
    """Mend found by round 42's after-run (0.5.23-sixth's moe-flashinfer-dispatch-type-with-
    deepep): "--x requires --zz-a2a-backend fi" where the user chose deepep is about --x, a
    tuning flag of the other backend; the user's choice stays (other rules drop --x)."""
    labels = _labels(
        {"zz-runner": "marlin_x", "zz-a2a-backend": "deepep"}, "--zz-runner requires --zz-a2a-backend none."
    )
    assert "set zz-a2a-backend=none" not in labels[:1], labels
