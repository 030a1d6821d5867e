"""The whole loop for vLLM on the simulated vLLM host: examples/vllm-qwen3-eagle3.yaml."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..conftest import ROOT
from .helpers import cli, left_running

pytestmark = pytest.mark.integration


def test_the_vllm_example_is_repaired_on_the_sim(tmp_path: Path) -> None:
    """The misspelled speculative key is fixed in preflight (one key of the JSON flag, value
    kept), FlashInfer on SM120 is found above the engine-core wrapper after a launch, the
    third attempt passes every gate with its drafter accepting; nothing is left running and
    the winner exports as a unit that runs `vllm serve`."""
    base = ROOT / "examples" / "vllm-qwen3-eagle3.yaml"
    done = cli("search", "--base", str(base), "--host", "sim", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert (result["status"], result["attempts"], result["launches"]) == ("passed", 3, 2)
    args = result["winner"]["args"]
    assert "attention-backend" not in args
    assert json.loads(args["speculative-config"]) == {
        "method": "eagle3",
        "model": "/models/Qwen3-32B-EAGLE3",
        "num_speculative_tokens": 3,
    }
    assert left_running(tmp_path) == []
    history = cli("history", str(result["run"]), "--json", cwd=tmp_path)
    assert history.returncode == 0, history.stderr
    assert "vllm-speculative-unknown-key" in history.stdout  # preflight, no launch
    assert "vllm-gpu-attention-backend" in history.stdout  # the workers' error, above the wrapper
    unit = cli("export", str(result["run"]), cwd=tmp_path)
    assert unit.returncode == 0, unit.stderr
    assert (
        "ExecStart=/opt/vllm/.venv/bin/python -m vllm.entrypoints.cli.main serve --model /models/Qwen3-32B"
        in unit.stdout
    )
    assert '\\"num_speculative_tokens\\": 3' in unit.stdout


def test_an_sglang_base_cannot_run_as_vllm(tmp_path: Path) -> None:
    """--target vllm on an SGLang base: one line naming the mismatch, exit 2, nothing run."""
    base = ROOT / "examples" / "k26-eagle3.yaml"
    done = cli("search", "--base", str(base), "--host", "local", "--target", "vllm", cwd=tmp_path)
    assert done.returncode == 2
    assert "SGLang base" in done.stderr
    assert not (tmp_path / "runs.db").exists()


def test_classify_reads_a_vllm_journal_offline(tmp_path: Path) -> None:
    """`autofix classify` tells a vLLM journal by its frames and takes the workers' error."""
    journal = ROOT / "tests" / "data" / "vllm-sim" / "flashinfer-sm120-tp2.log"
    done = cli("classify", str(journal), "--gate", "start", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["class"] == "vllm-gpu-attention-backend"
    assert out["exception"] == "ValueError"
    assert {
        "op": "drop",
        "flag": "attention-backend",
        "inferred": False,
        "origin": "vllm-gpu-attention-backend",
    } in out["moves"]
