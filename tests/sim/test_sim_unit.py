"""Unit tests of the simulator package surface (no processes)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType

import pytest

from autofix.sim import BUILTIN_MODELS, SITE_DIR, sim_env


def _load(relpath: str) -> ModuleType:
    path = SITE_DIR / relpath
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def test_sim_env_puts_site_dir_first_and_sets_load_time() -> None:
    """sim_env prepends SITE_DIR to PYTHONPATH and passes the load time through."""
    env = sim_env(0.5, base_pythonpath=os.pathsep.join(["/opt/x", str(SITE_DIR)]))
    assert env["PYTHONPATH"].split(os.pathsep) == [str(SITE_DIR), "/opt/x"]
    assert float(env["AUTOFIX_SIM_LOAD_S"]) == 0.5
    assert "AUTOFIX_SIM_LOAD_S" not in sim_env()


def test_sim_env_rejects_negative_load_time() -> None:
    """A negative load time is a caller bug, not a simulator setting."""
    with pytest.raises(ValueError):
        sim_env(-1)


def test_site_dir_holds_a_simulated_sglang_that_is_not_importable_by_default() -> None:
    """The look-alike lives under SITE_DIR, says it is simulated, and is not on sys.path."""
    init = (SITE_DIR / "sglang" / "__init__.py").read_text()
    assert "SIMULATED = True" in init
    assert (SITE_DIR / "sglang" / "version.py").read_text().strip() == '__version__ = "0.5.23"'
    spec = importlib.util.find_spec("sglang")
    assert spec is None or not str(spec.origin).startswith(str(SITE_DIR))
    assert set(BUILTIN_MODELS) == {"/models/Kimi-K2.6", "/models/Kimi-K2.6-EAGLE3"}


def test_flag_table_is_the_real_parser() -> None:
    """The committed flag table holds the real 0.5.23 parser's facts: 532 actions with their
    real choices, the record's 546 fields, and none of SGLang's help prose but that of the
    four flags whose help says they hold a secret (the probe learns secret flags from the
    host parser's help, and the sim's parser answers it as the real one does)."""
    table = json.loads((SITE_DIR / "sglang" / "srt" / "_sim" / "data" / "flags.json").read_text())
    assert table["sglang_version"] == "0.5.23"
    by_dest = {a["dest"]: a for a in table["actions"]}
    assert len(table["actions"]) == 532
    assert len(table["fields"]) == 546
    assert by_dest["speculative_eagle_topk"]["flags"] == ["--speculative-eagle-topk"]
    assert by_dest["tp_size"]["flags"] == ["--tp-size", "--tensor-parallel-size"]
    assert "fp8" not in by_dest["kv_cache_dtype"]["choices"]
    assert by_dest["model_path"]["required"] is True
    helped = {a["flags"][0] for a in table["actions"] if a.get("help") not in (None, "==SUPPRESS==")}
    assert helped == {"--api-key", "--admin-api-key", "--ssl-keyfile-password", "--watermark-config"}


def test_speed_model_rewards_the_known_good_configs() -> None:
    """Baseline is 26.3 tok/s; topk 1 / steps 2 / draft 3 beats it; steps 3 / draft 4 beats that."""
    speed = _load("sglang/srt/_sim/speed.py")
    weights = 595e9
    base, accept = speed.decode_tok_s(weights, 8)
    assert (base, accept) == (26.3, 1.0)
    two, accept2 = speed.decode_tok_s(weights, 8, "EAGLE3", 2, 1, 3)
    three, accept3 = speed.decode_tok_s(weights, 8, "EAGLE3", 3, 1, 4)
    assert base < two < three
    assert 1.0 < accept2 < accept3
    assert speed.decode_tok_s(weights, 8, "EAGLE3", 2, 1, 3) == (two, accept2)


def test_builtin_model_sizes_and_estimates() -> None:
    """Built-in models have their stated sizes; real config dirs get an estimate."""
    models = _load("sglang/srt/_sim/models.py")
    assert models.weight_bytes("/models/Kimi-K2.6") == 595e9
    assert models.weight_bytes("/models/Kimi-K2.6-EAGLE3/") == 6.0e9
    llama = Path(__file__).resolve().parent.parent / "data" / "sim" / "models" / "llama3-8b"
    assert 14e9 < models.weight_bytes(str(llama)) < 18e9
    k26_dir = llama.parent / "k26"
    assert models.weight_bytes(str(k26_dir)) == 595e9  # same config as the built-in K2.6
    assert models.read_config("/models/nope") is None
