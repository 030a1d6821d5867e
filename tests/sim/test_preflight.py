"""The simulator's argument resolution: the seed story's gates and their exact shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sim_helpers import SEED_ARGV, preflight

pytestmark = pytest.mark.integration

SEED_FRAMES = [
    ("sglang/srt/server_args.py", "resolve_once", "run_resolution_pipeline(self)"),
    (
        "sglang/srt/arg_groups/pipeline.py",
        "run_resolution_pipeline",
        "run_hook(handle_speculative_decoding, server_args)",
    ),
    ("sglang/srt/arg_groups/resolution_hooks.py", "run_hook", "step(server_args)"),
    (
        "sglang/srt/arg_groups/speculative_hook.py",
        "handle_speculative_decoding",
        "algo.handle_server_args(server_args)",
    ),
    ("sglang/srt/speculative/spec_info.py", "handle_server_args", "_handle_eagle_family(server_args)"),
    (
        "sglang/srt/arg_groups/speculative_hook.py",
        "_handle_eagle_family",
        "and cfg.speculative_num_draft_tokens is None",
    ),
]


def _frames(output: str) -> list[tuple[str, str, str]]:
    lines = output.splitlines()
    frames = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith('File "') and "/sglang/" in stripped:
            path = "sglang/" + stripped.split("/sglang/", 1)[1].split('"', 1)[0]
            func = stripped.rsplit(" in ", 1)[1]
            frames.append((path, func, lines[i + 1].strip()))
    return frames


def test_seed_fails_with_the_bare_assertion_in_handle_eagle_family() -> None:
    """The seed argv (draft tokens 3, topk 4, no steps) dies with a bare AssertionError."""
    (result,) = preflight([SEED_ARGV])
    assert result["ok"] is False
    assert result["exception_type"] == "AssertionError"
    assert result["message"] == ""
    out = result["output"]
    assert _frames(out) == SEED_FRAMES
    assert "        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nAssertionError\n" in out
    assert out.rstrip().endswith("AssertionError")
    logs = [line.split("] ", 1)[1] for line in out.splitlines() if line.startswith("[")]
    assert logs == [
        "Use trtllm_mla as attention backend on sm100 for DeepseekV3ForCausalLM",
        "TensorRT-LLM MLA only supports page_size of 32 or 64, changing page_size from None to 64.",
        "Max running requests is reset to 48 for speculative decoding. "
        "You can override this by explicitly setting --max-running-requests.",
        "DeepSeek MTP does not require setting speculative_draft_model_path.",
    ]


def test_adding_num_steps_hits_the_page_size_gate_on_trtllm_mla() -> None:
    """+ --speculative-num-steps 2 fails: topk 4 with page 64 is unsupported on trtllm_mla."""
    (result,) = preflight([[*SEED_ARGV, "--speculative-num-steps", "2"]])
    assert result["exception_type"] == "ValueError"
    assert result["message"] == (
        "speculative_eagle_topk > 1 with page_size > 1 is only supported on "
        "('flashinfer', 'fa3', 'triton'); got attention_backend='trtllm_mla'. "
        "Use page_size == 1 or one of those backends."
    )
    assert _frames(result["output"])[-1][1:] == ("_handle_eagle_family", "raise ValueError(")


def test_topk_one_passes_and_draft_tokens_follow_steps() -> None:
    """With topk 1 it passes; draft tokens are steps + 1, rewritten with SGLang's warning."""
    steps2, steps1 = preflight(
        [
            [*SEED_ARGV, "--speculative-num-steps", "2", "--speculative-eagle-topk", "1"],
            [*SEED_ARGV, "--speculative-num-steps", "1", "--speculative-eagle-topk", "1"],
        ]
    )
    warning = "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 when speculative_eagle_topk == 1"
    assert steps2["ok"] is True
    assert steps2["resolved"]["speculative_num_draft_tokens"] == 3
    assert steps2["resolved"]["attention_backend"] == "trtllm_mla"
    assert steps2["resolved"]["page_size"] == 64
    assert warning not in steps2["output"]
    assert steps1["ok"] is True
    assert steps1["resolved"]["speculative_num_steps"] == 1
    assert steps1["resolved"]["speculative_num_draft_tokens"] == 2
    assert warning in steps1["output"]


def test_auto_chosen_params_and_strict_sm120_backend() -> None:
    """No steps/topk/draft picks (3, 1, 4) for DeepseekV3; strict SM120 mode picks triton/page 1."""
    (auto,) = preflight([SEED_ARGV[:9]])
    assert auto["ok"] is True
    r = auto["resolved"]
    assert (r["speculative_num_steps"], r["speculative_eagle_topk"], r["speculative_num_draft_tokens"]) == (3, 1, 4)
    assert r["max_running_requests"] == 48
    (strict,) = preflight([SEED_ARGV[:4]], AUTOFIX_SIM_STRICT_SM120="1")
    assert strict["resolved"]["attention_backend"] == "triton"
    assert strict["resolved"]["page_size"] == 1
    assert "Attention backend not specified. Use triton backend by default." in strict["output"]


def test_missing_model_path_fails_like_huggingface_lookup() -> None:
    """A model path that does not exist fails in get_config with the HF repo-id OSError chain."""
    (result,) = preflight([["--model-path", "/models/Kimi-K2.7", "--tp", "8"]])
    assert result["exception_type"] == "OSError"
    assert result["message"] == (
        "Repo id must be in the form 'repo_name' or 'namespace/repo_name': "
        "'/models/Kimi-K2.7'. Use `repo_type` argument if needed."
    )
    out = result["output"]
    assert out.count("huggingface_hub.errors.HFValidationError: Repo id must be") == 2
    assert "The above exception was the direct cause of the following exception:" in out
    assert "During handling of the above exception, another exception occurred:" in out
    assert 'transformers/utils/hub.py", line 595, in cached_files' in out


def test_record_file_receives_every_argument_byte_for_byte(tmp_path: Path) -> None:
    """AUTOFIX_SIM_RECORD gets one JSON line per call with the exact argv and the pid."""
    record = tmp_path / "record.jsonl"
    odd = ["--model-path", "/models/Kimi-K2.6", "--served-model-name", 'K2.6 "eagle" é $HOME *', "--tp", "8"]
    results = preflight([odd, SEED_ARGV], AUTOFIX_SIM_RECORD=str(record))
    assert results[0]["ok"] is True
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [line["argv"] for line in lines] == [odd, SEED_ARGV]
    assert all(isinstance(line["pid"], int) and line["pid"] > 0 for line in lines)
