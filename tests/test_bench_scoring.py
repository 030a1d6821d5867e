"""How bench/runtime_logs.py matches a first move with a thread's fix: by the launch it gives.
Dropping a flag launches the server with the flag's parser default, so a drop is the fix
"set the flag to V" exactly when the parser's default is V; a default the parser leaves to
the server (None: chosen at start from the GPU) matches nothing, since the launch it gives is
unknown. Written before the bench was changed."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.model import Candidate, Edit, EditOp
from bench.runtime_logs import edit_matches

CATALOG = load_catalog()


def _user(**flags: str) -> Candidate:
    out = Candidate(())
    for flag, value in flags.items():
        out = out.with_arg(flag.replace("_", "-"), value)
    return out


def test_dropping_a_flag_is_setting_it_to_its_parser_default() -> None:
    want = {"op": "set", "flag": "tokenizer-worker-num", "value": 1}
    assert CATALOG.flag("tokenizer-worker-num").default == 1
    assert edit_matches(Edit(EditOp.DROP, "tokenizer-worker-num"), want, _user(tokenizer_worker_num="2"), CATALOG)


def test_dropping_a_flag_is_not_setting_another_value() -> None:
    want = {"op": "set", "flag": "deepep-mode", "value": "normal"}
    assert not edit_matches(Edit(EditOp.DROP, "deepep-mode"), want, _user(deepep_mode="low_latency"), CATALOG)


def test_dropping_a_flag_the_server_sizes_at_start_matches_no_value() -> None:
    want = {"op": "scale", "flag": "chunked-prefill-size", "dir": "down"}
    assert CATALOG.flag("chunked-prefill-size").default is None
    assert not edit_matches(
        Edit(EditOp.DROP, "chunked-prefill-size"), want, _user(chunked_prefill_size="8192"), CATALOG
    )


def test_dropping_a_flag_moves_its_value_to_the_default_in_that_direction() -> None:
    down = {"op": "scale", "flag": "tokenizer-worker-num", "dir": "down"}
    up = {"op": "scale", "flag": "tokenizer-worker-num", "dir": "up"}
    user = _user(tokenizer_worker_num="4")
    assert edit_matches(Edit(EditOp.DROP, "tokenizer-worker-num"), down, user, CATALOG)
    assert not edit_matches(Edit(EditOp.DROP, "tokenizer-worker-num"), up, user, CATALOG)


def test_a_drop_still_matches_a_drop() -> None:
    want = {"op": "drop", "flag": "enable-dp-attention"}
    assert edit_matches(Edit(EditOp.DROP, "enable-dp-attention"), want, _user(enable_dp_attention="true"), CATALOG)
