"""Regenerate the sim-*.log journals here: run the simulated host with argv that fail after
launch and keep what the server printed (all ranks, as one log file). Not run by the tests.

    python tests/data/journals/make_sim_captures.py
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from autofix.sim import sim_env

HERE = Path(__file__).resolve().parent
K26 = ["--model-path", "/models/Kimi-K2.6", "--tp", "8", "--trust-remote-code"]
SPEC = [
    "--speculative-algorithm",
    "EAGLE3",
    "--speculative-draft-model-path",
    "/models/Kimi-K2.6-EAGLE3",
    "--speculative-num-steps",
    "2",
    "--speculative-eagle-topk",
    "1",
    "--speculative-num-draft-tokens",
    "3",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


CASES: dict[str, tuple[list[str], dict[str, str]]] = {
    "sim-oom-graph-capture": ([*K26, *SPEC, "--mem-fraction-static", "0.95"], {}),
    "sim-oom-load": (
        ["--model-path", "/models/Kimi-K2.6", "--tp", "4", "--trust-remote-code"],
        {"AUTOFIX_SIM_GPUS": "8"},
    ),
    "sim-mem-fraction-too-low": ([*K26, "--mem-fraction-static", "0.7"], {}),
    "sim-nccl-bad-proto": ([*K26, *SPEC], {"NCCL_PROTO": "LL256", "NCCL_DEBUG": "WARN"}),
    "sim-nccl-socket-ifname": ([*K26], {"NCCL_SOCKET_IFNAME": "ib99", "NCCL_DEBUG": "WARN"}),
    "sim-invalid-device-ordinal": ([*K26], {"CUDA_VISIBLE_DEVICES": "0,1,2,3"}),
    "sim-fa3-on-blackwell": ([*K26, "--attention-backend", "fa3"], {}),
    "sim-cpu-offload-host-ram": ([*K26, "--cpu-offload-gb", "400"], {}),
    "sim-missing-model": (["--model-path", "/models/Kimi-K2.7", "--tp", "8"], {}),
    # Argument validation on the simulated Blackwell host (what preflight sees).
    "sim-seed-assert": ([*K26, *SPEC[:4], "--speculative-num-draft-tokens", "3", "--speculative-eagle-topk", "4"], {}),
    "sim-seed-topk-page-size": (
        [
            *K26,
            *SPEC[:4],
            "--speculative-num-draft-tokens",
            "3",
            "--speculative-eagle-topk",
            "4",
            "--speculative-num-steps",
            "2",
        ],
        {},
    ),
    "sim-trtllm-mha-topk": (
        [
            "--model-path",
            str(HERE.parent / "models" / "llama3-8b"),
            "--attention-backend",
            "trtllm_mha",
            "--speculative-algorithm",
            "EAGLE3",
            "--speculative-draft-model-path",
            str(HERE.parent / "models" / "eagle3-llama31-8b"),
            "--speculative-num-steps",
            "3",
            "--speculative-eagle-topk",
            "4",
            "--speculative-num-draft-tokens",
            "8",
        ],
        {},
    ),
}


def main() -> int:
    for name, (argv, extra) in CASES.items():
        port = free_port()
        env = {**os.environ, **sim_env(0.5), **extra}
        done = subprocess.run(
            [sys.executable, "-m", "sglang.launch_server", *argv, "--host", "127.0.0.1", "--port", str(port)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        (HERE / f"{name}.log").write_text(done.stdout + done.stderr)
        print(f"{name}: exit {done.returncode}, {len((done.stdout + done.stderr).splitlines())} lines")
    # Port in use: hold the port while the server tries to bind it.
    port = free_port()
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("127.0.0.1", port))
        holder.listen()
        env = {**os.environ, **sim_env(0.5)}
        done = subprocess.run(
            [sys.executable, "-m", "sglang.launch_server", *K26, "--host", "127.0.0.1", "--port", str(port)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
    (HERE / "sim-port-in-use.log").write_text(done.stdout + done.stderr)
    print(f"sim-port-in-use: exit {done.returncode}")
    oom_under_load()
    return 0


def oom_under_load() -> None:
    """AUTOFIX_SIM_FAULT=oom-under-load: the server comes up, the first chat completion's
    forward runs out of GPU memory on rank 0 and the server dies."""
    port = free_port()
    env = {**os.environ, **sim_env(0.5), "AUTOFIX_SIM_FAULT": "oom-under-load"}
    argv = [*K26, *SPEC, "--host", "127.0.0.1", "--port", str(port)]
    with subprocess.Popen(
        [sys.executable, "-m", "sglang.launch_server", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    ) as server:
        _wait_healthy(port, server)
        body = json.dumps({"messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 8}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", data=body)
        # The server dies under the request: that is the capture.
        with contextlib.suppress(urllib.error.URLError, ConnectionError):
            urllib.request.urlopen(request, timeout=30)
        out, _ = server.communicate(timeout=60)
    (HERE / "sim-oom-under-load.log").write_text(out)
    print(f"sim-oom-under-load: exit {server.returncode}")


def _wait_healthy(port: int, server: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            pass
        time.sleep(0.2)
    raise RuntimeError("the server never became healthy")


if __name__ == "__main__":
    sys.exit(main())
