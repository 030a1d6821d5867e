"""The simulated host after preflight: rank processes, serving, and post-launch failures."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from sim_helpers import SEED_ARGV, free_port, group_alive, http_json, rank_processes

pytestmark = pytest.mark.integration

GOOD_SPEC = [
    "--model-path",
    "/models/Kimi-K2.6",
    "--tp",
    "8",
    "--trust-remote-code",
    "--speculative-algorithm",
    "EAGLE3",
    "--speculative-draft-model-path",
    "/models/Kimi-K2.6-EAGLE3",
    "--speculative-num-steps",
    "3",
    "--speculative-eagle-topk",
    "1",
    "--speculative-num-draft-tokens",
    "4",
]
TS = r"\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}"


def _wait_gone(pgid: int, timeout: float = 5.0) -> list[int]:
    deadline = time.monotonic() + timeout
    alive = group_alive(pgid)
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = group_alive(pgid)
    return alive


def _rank_failure(log: str, rank: int, exc_line: str) -> str:
    """The traceback a rank logged, asserting the SGLang journal shape around it."""
    m = re.search(TS + rf" TP{rank}\] Scheduler hit an exception: Traceback \(most recent call last\):\n", log)
    assert m, log
    tail = log[m.end() :]
    assert exc_line in tail, log
    assert re.search(TS + r"\] Received sigquit from a child process. It usually means the child failed.", tail), log
    return tail


def test_healthy_launch_serves_all_endpoints_and_stops_on_sigterm(launch: Any) -> None:
    """A good config loads 8 rank processes, serves OpenAI endpoints at the modelled speed, stops on SIGTERM."""
    port = free_port()
    run = launch([*GOOD_SPEC, "--host", "127.0.0.1", "--port", str(port), "--served-model-name", "kimi-k2.6"])
    run.wait_http(port, "/health", timeout=30)
    assert len(rank_processes(run.pid)) == 8  # one OS process per TP rank

    models = http_json(port, "/v1/models")
    assert models["object"] == "list"
    assert [m["id"] for m in models["data"]] == ["kimi-k2.6"]

    info = http_json(port, "/get_server_info")
    state = info["internal_states"][0]
    assert info["version"] == "0.5.23"
    assert info["speculative_num_draft_tokens"] == 4
    assert info["attention_backend"] == "trtllm_mla" and info["page_size"] == 64
    assert state["avg_spec_accept_length"] > 2.0

    started = time.monotonic()
    chat = http_json(
        port,
        "/v1/chat/completions",
        {"model": "kimi-k2.6", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 16},
    )
    elapsed = time.monotonic() - started
    assert chat["object"] == "chat.completion"
    assert chat["choices"][0]["message"]["content"].strip()
    assert chat["choices"][0]["finish_reason"] == "length"
    assert chat["usage"]["completion_tokens"] == 16
    tok_s = http_json(port, "/server_info")["internal_states"][0]["last_gen_throughput"]
    assert tok_s > 26.3
    assert elapsed >= 16 / tok_s * 0.9

    log = run.log()
    assert "'python -m sglang.launch_server' is still supported" in log
    assert re.search(TS + r"\] server_args=ServerArgs\(model_path='/models/Kimi-K2.6'", log)
    for rank in range(8):
        assert re.search(TS + rf" TP{rank}\] Load weight begin\. avail mem=\d+\.\d\d GB", log)
    assert re.search(TS + r" TP0\] Load weight end\. elapsed=.*type=DeepseekV3ForCausalLM", log)
    assert re.search(TS + r" TP0\] KV Cache is allocated\. dtype: torch\.bfloat16, #tokens: \d+", log)
    assert re.search(TS + r" TP0\] Capture target verify CUDA graph end\.", log)
    assert re.search(TS + r"\] INFO:     Uvicorn running on http://127\.0\.0\.1:\d+", log)
    assert "The server is fired up and ready to roll!" in log
    assert re.search(TS + r" TP0\] Decode batch, #running-req: 1, .*accept len: \d\.\d\d", log)

    os.kill(run.pid, signal.SIGTERM)
    assert run.wait_exit(timeout=10) == 0
    assert _wait_gone(run.pid) == []
    assert "INFO:     Shutting down" in run.log()


def test_autoregressive_baseline_speed(launch: Any) -> None:
    """Without speculative decoding the host decodes at 26.3 tok/s with accept length 1.0."""
    port = free_port()
    run = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "8", "--port", str(port)])
    run.wait_http(port, "/health", timeout=30)
    http_json(port, "/v1/chat/completions", {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 4})
    state = http_json(port, "/server_info")["internal_states"][0]
    assert state["last_gen_throughput"] == 26.3
    assert state["avg_spec_accept_length"] == 1.0


def test_seed_launch_dies_at_startup_with_bare_assertion(launch: Any, tmp_path: Path) -> None:
    """The seed command as a launch exits 1 within seconds with the bare AssertionError traceback."""
    record = tmp_path / "record.jsonl"
    argv = [*SEED_ARGV, "--host", "0.0.0.0", "--port", str(free_port())]
    run = launch(argv, AUTOFIX_SIM_RECORD=str(record))
    assert run.wait_exit(timeout=15) == 1
    (line,) = [json.loads(x) for x in record.read_text().splitlines()]
    assert line == {"argv": argv, "pid": run.pid, "entry": "sglang.launch_server"}
    log = run.log()
    assert 'sglang/launch_server.py", line' in log and "run_server(server_args)" in log
    assert "server_args.resolve_once()" in log
    assert "_handle_eagle_family\n    and cfg.speculative_num_draft_tokens is None\n" in log
    assert log.rstrip().endswith("AssertionError")
    assert "Scheduler" not in log  # nothing was launched


def test_invalid_choice_exits_2_like_argparse(launch: Any) -> None:
    """An invalid --kv-cache-dtype prints the usage and argparse's error and exits 2."""
    run = launch(["--model-path", "/models/Kimi-K2.6", "--kv-cache-dtype", "fp8"])
    assert run.wait_exit(timeout=15) == 2
    log = run.log()
    assert log.splitlines()[3].startswith("usage: sglang serve [-h] --model-path MODEL_PATH")
    assert log.rstrip().endswith(
        "sglang serve: error: argument --kv-cache-dtype: invalid choice: 'fp8' (choose from "
        "'auto', 'fp8_e5m2', 'fp8_e4m3', 'mxfp8', 'bf16', 'bfloat16', 'nvfp4', 'fp4_mx_block16')"
    )
    assert "Traceback" not in log


def test_weights_that_do_not_fit_oom_while_loading(launch: Any) -> None:
    """K2.6 at TP4 (139 GiB of weights per GPU) dies with torch's CUDA OOM in the weight loader."""
    run = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "4", "--port", str(free_port())])
    assert run.wait_exit(timeout=20) == -signal.SIGKILL
    tail = _rank_failure(run.log(), 0, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate ")
    assert re.search(r"GPU 0 has a total capacity of 95\.59 GiB of which [\d.]+ MiB is free\.", tail)
    assert 'torch/utils/_device.py", line 104, in __torch_function__' in tail
    assert "layers/quantization/unquant.py" in tail
    assert _wait_gone(run.pid) == []


def test_static_fraction_too_high_ooms_in_cuda_graph_capture(launch: Any) -> None:
    """--mem-fraction-static 0.95 leaves too little room: capture fails with SGLang's hint."""
    run = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "8", "--mem-fraction-static", "0.95"])
    assert run.wait_exit(timeout=20) == -signal.SIGKILL
    tail = _rank_failure(run.log(), 0, "Exception: Capture cuda graph failed: CUDA out of memory.")
    assert "During handling of the above exception, another exception occurred:" in tail
    assert "1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)" in tail


def test_static_fraction_too_low_leaves_no_kv_cache(launch: Any) -> None:
    """--mem-fraction-static 0.7 is below the weights: SGLang's 'Not enough memory' RuntimeError."""
    run = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "8", "--mem-fraction-static", "0.7"])
    assert run.wait_exit(timeout=20) == -signal.SIGKILL
    _rank_failure(
        run.log(),
        0,
        "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. "
        "Current value: mem_fraction_static=0.7",
    )


def test_invalid_nccl_proto_fails_at_parallel_init(launch: Any) -> None:
    """NCCL_PROTO=LL256 leaves AllReduce no protocol: NCCL WARN + NCCL error from the PyNccl warmup."""
    run = launch(
        ["--model-path", "/models/Kimi-K2.6", "--tp", "8"], NCCL_PROTO="LL256", NCCL_ALGO="Ring", NCCL_DEBUG="WARN"
    )
    assert run.wait_exit(timeout=20) == -signal.SIGKILL
    log = run.log()
    assert re.search(
        r"\S+:\d+:\d+ \[0\] NCCL WARN Error : no algorithm/protocol available for function AllReduce "
        r"with datatype ncclFloat32\. NCCL_ALGO was set to Ring\. NCCL_PROTO was set to LL256\.",
        log,
    )
    tail = _rank_failure(log, 0, "RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)")
    assert "self.pynccl_comm = PyNcclCommunicator(" in tail
    assert "Load weight begin" not in log


def test_port_in_use_fails_after_loading(launch: Any) -> None:
    """A taken --port is only found when uvicorn binds, after the model loaded: exit 1."""
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "8", "--host", "127.0.0.1", "--port", str(port)])
        assert run.wait_exit(timeout=20) == 1
    log = run.log()
    assert "Load weight end" in log
    assert re.search(
        TS + rf"\] ERROR:    \[Errno 98\] error while attempting to bind on address \('127\.0\.0\.1', {port}\): "
        r"address already in use",
        log,
    )
    assert "Application shutdown complete." in log
    assert _wait_gone(run.pid) == []


def test_more_ranks_than_gpus_is_an_invalid_device_ordinal(launch: Any) -> None:
    """--tp 16 on the 8-GPU host: ranks 8 and up cannot select their GPU."""
    run = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "16"], load_s=2.0)
    assert run.wait_exit(timeout=20) == -signal.SIGKILL
    # Ranks 8-15 all lack a GPU; whichever reports first gets the launcher to kill the
    # rest, so under load the first traceback may come from any of them.
    first = re.search(TS + r" TP(\d+)\] Scheduler hit an exception", run.log())
    assert first is not None and int(first.group(1)) >= 8
    tail = _rank_failure(run.log(), int(first.group(1)), "torch.AcceleratorError: CUDA error: invalid device ordinal")
    assert "torch.get_device_module(device).set_device(get_device().gpu_id)" in tail


def test_rank_killed_by_the_kernel_is_a_scheduler_died_error(launch: Any) -> None:
    """A rank SIGKILLed (host OOM from --cpu-offload-gb) surfaces as 'Rank 0 scheduler died'."""
    run = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "8", "--cpu-offload-gb", "400"])
    assert run.wait_exit(timeout=20) == 1
    log = run.log()
    assert log.rstrip().endswith(
        "RuntimeError: Rank 0 scheduler died during initialization (exit code: -9). "
        "If exit code is -9 (SIGKILL), a common cause is the OS OOM killer. "
        "Run `dmesg -T | grep -i oom` to check."
    )
    assert "in _wait_for_scheduler_ready" in log
    assert _wait_gone(run.pid) == []


def test_sigterm_while_loading_stops_every_rank(launch: Any) -> None:
    """SIGTERM to the launcher during weight loading ends it and all 8 ranks promptly."""
    run = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "8"], load_s=20.0)
    deadline = time.monotonic() + 15
    while "TP7] Load weight begin" not in run.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(rank_processes(run.pid)) == 8
    os.kill(run.pid, signal.SIGTERM)
    assert run.wait_exit(timeout=5) == -signal.SIGTERM
    assert _wait_gone(run.pid, timeout=3) == []


def test_fa3_is_rejected_by_the_rank_on_blackwell(launch: Any) -> None:
    """--attention-backend fa3 passes preflight (as in 0.5.23) but the SM120 rank rejects FA3."""
    run = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "8", "--attention-backend", "fa3"])
    assert run.wait_exit(timeout=20) == -signal.SIGKILL
    tail = _rank_failure(
        run.log(),
        0,
        "AssertionError: FlashAttention v3 Backend requires SM>=80 and SM<=90. "
        "Please use `--attention-backend flashinfer`.",
    )
    assert "in create_flashattention_v3_backend" in tail


def test_gpu_count_and_memory_follow_the_environment(launch: Any) -> None:
    """AUTOFIX_SIM_GPUS=4 makes rank 4 of TP8 fail; AUTOFIX_SIM_GPU_MEM_GB=48 makes TP8 K2.6 OOM."""
    four = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "8"], AUTOFIX_SIM_GPUS="4")
    small = launch(["--model-path", "/models/Kimi-K2.6", "--tp", "8"], AUTOFIX_SIM_GPU_MEM_GB="48")
    assert four.wait_exit(timeout=20) == -signal.SIGKILL
    assert small.wait_exit(timeout=20) == -signal.SIGKILL
    # Ranks 4-7 all lack a GPU; whichever reports first ends the launch (as for --tp 16).
    first = re.search(TS + r" TP(\d+)\] Scheduler hit an exception", four.log())
    assert first is not None and int(first.group(1)) >= 4
    _rank_failure(four.log(), int(first.group(1)), "torch.AcceleratorError: CUDA error: invalid device ordinal")
    first = re.search(TS + r" TP(\d+)\] Scheduler hit an exception", small.log())
    assert first is not None  # every rank runs out of memory: any may report first
    tail = _rank_failure(small.log(), int(first.group(1)), "torch.OutOfMemoryError: CUDA out of memory.")
    assert re.search(r"GPU \d has a total capacity of 47\.80 GiB", tail)
