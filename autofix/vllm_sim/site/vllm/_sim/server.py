"""The simulated vLLM server: API server, engine core and one worker per TP rank (autofix's own).

Not vLLM. It keeps what an operator sees of `vllm serve`: the process layout (APIServer,
EngineCore_DP0, Worker_TP<i>), each line prefixed ``(Name pid=N)``, vLLM's log format,
the order of a start (weights, KV-cache sizing, ready), the wrappers a failed start prints
above which the root cause stands, and the OpenAI-compatible HTTP API with /health and the
speculative-decoding counters of /metrics. Runtime failures are rules.json's ``runtime``
rules; memory and speed are a small model of the GPUs in rules.json's ``gpu``.
"""

from __future__ import annotations

import json
import math
import os
import signal
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from vllm._sim.engine import RULES, FlexibleArgumentParser, holds, raise_at, resolve

GPU = {**RULES["gpu"], "count": int(os.environ.get("AUTOFIX_SIM_GPUS", RULES["gpu"]["count"])),
       "mem_gb": float(os.environ.get("AUTOFIX_SIM_GPU_MEM_GB", RULES["gpu"]["mem_gb"]))}
LOAD_S = float(os.environ.get("AUTOFIX_SIM_LOAD_S", "3"))


class _Prefixed:
    """A stream that starts every line with ``(Name pid=N) ``, as vLLM's processes do."""

    def __init__(self, stream: Any, name: str) -> None:
        self.stream, self.prefix, self.fresh = stream, f"({name} pid={os.getpid()}) ", True

    def write(self, text: str) -> int:
        out = []
        for piece in text.splitlines(keepends=True):
            out.append((self.prefix if self.fresh else "") + piece)
            self.fresh = piece.endswith("\n")
        self.stream.write("".join(out))
        self.stream.flush()
        return len(text)

    def flush(self) -> None:
        self.stream.flush()


def _as(name: str) -> None:
    sys.stdout = _Prefixed(sys.__stdout__, name)  # type: ignore[assignment]
    sys.stderr = _Prefixed(sys.__stderr__, name)  # type: ignore[assignment]


def log(level: str, where: str, message: str) -> None:
    stamp = time.strftime("%m-%d %H:%M:%S")
    sys.stdout.write(f"{level} {stamp} [{where}] {message}\n")


# --- the memory and speed model ------------------------------------------------------------


def memory(names: dict[str, Any]) -> dict[str, Any]:
    """Per-GPU KV-cache memory after weights and activations, and what max_model_len needs."""
    tp = int(names.get("tensor_parallel_size") or 1) * int(names.get("pipeline_parallel_size") or 1)
    draft = 1.6 if names.get("spec_model") else 0.0
    overhead = 1.0 if names.get("enforce_eager") else 3.5  # activation peak (+ CUDA graphs)
    usable = GPU["mem_gb"] * float(names["gpu_memory_utilization"])
    available = usable - (names["weights_gb"] + draft) / tp - overhead
    kv_heads = max(names["kv_heads"] // int(names.get("tensor_parallel_size") or 1), 1)
    per_token = 2 * names["layers"] * kv_heads * names["head_dim"] * 2 / 2**30
    needed = per_token * int(names["max_model_len"])
    estimated = int(max(available, 0) / per_token) // 16 * 16 if per_token else 0
    return {"kv_available_gb": available, "kv_needed_gb": needed, "estimated_max_len": estimated,
            "gpu_sm": GPU["sm"], "gpu_count": GPU["count"]}


def accept_length(names: dict[str, Any]) -> float:
    """Mean tokens per decoding step: 1 without speculation; a drafter accepts part of its drafts."""
    if not names.get("spec"):
        return 1.0
    tokens = int(names.get("spec_num_speculative_tokens") or 1)
    rate = {"eagle3": 0.7, "eagle": 0.6, "draft_model": 0.55, "ngram": 0.3}.get(str(names.get("spec_method")), 0.4)
    return 1.0 + sum(rate**i for i in range(1, tokens + 1))


# --- processes ------------------------------------------------------------------------------


def _fail(exc: BaseException, frame: list[Any] | None = None) -> None:
    try:
        if frame is None:
            raise exc
        raise_at(frame, exc)
    except BaseException:
        traceback.print_exc()
    sys.stderr.flush()
    os._exit(1)


def _runtime(proc: str, names: dict[str, Any]) -> None:
    for rule in RULES["runtime"]:
        if rule["proc"] == proc and holds(rule["when"], names):
            error = {"ValueError": ValueError, "RuntimeError": RuntimeError}[rule["raise"]]
            _fail(error(rule["message"].format(**names)), rule["frame"])


def _worker(rank: int, names: dict[str, Any]) -> None:
    _as(f"Worker_TP{rank}")
    log("INFO", "gpu_model_runner.py:3020", f"Starting to load model {names.get('model')}...")
    _runtime("worker", names)
    time.sleep(LOAD_S)
    log("INFO", "default_loader.py:507", f"Loading weights took {LOAD_S:.2f} seconds")
    os._exit(0)


def _engine_core(names: dict[str, Any], ready_fd: int) -> None:
    _as("EngineCore_DP0")
    tp = int(names.get("tensor_parallel_size") or 1)
    log("INFO", "core.py:97", f"Initializing a V1 LLM engine (v0.33.0) with config: model='{names.get('model')}', "
        f"tensor_parallel_size={tp}, max_seq_len={names['max_model_len']}, speculative_config={names.get('spec')}")
    if tp * int(names.get("pipeline_parallel_size") or 1) > GPU["count"]:
        _fail(ValueError(f"World size ({tp}) is larger than the number of available GPUs ({GPU['count']}) "
                         "in this node."))
    pids = []
    for rank in range(tp):
        pid = os.fork()
        if pid == 0:
            _worker(rank, names)
        pids.append(pid)
    failed = [p for p in pids if os.waitpid(p, 0)[1] != 0]
    if failed:
        _fail(Exception("WorkerProc initialization failed due to an exception in a background process. "
                        "See stack trace for root cause."),
              ["vllm/v1/executor/multiproc_executor.py", 891, "wait_for_ready", "raise e from None"])
    _runtime("engine", names)
    log("INFO", "kv_cache_utils.py:1190", f"GPU KV cache size: {names['estimated_max_len']:,} tokens")
    log("INFO", "core.py:413", "init engine (profile, create kv cache, warmup model) took 1.20 s")
    os.write(ready_fd, b"ready\n")
    signal.pause()


def serve(argv: list[str]) -> None:
    _as("APIServer")
    from vllm.entrypoints.common.cli_args import make_arg_parser

    parser = make_arg_parser(FlexibleArgumentParser(prog="vllm serve"))
    ns = parser.parse_args(argv)
    if ns.model_tag is not None:
        ns.model = ns.model_tag
    log("INFO", "api_server.py:1855", "vLLM API server version 0.33.0 (simulated by autofix)")
    log("INFO", "utils.py:253", f"non-default args: {{{', '.join(f'{a!r}' for a in argv if a.startswith('--'))}}}")
    try:
        names = resolve(ns)
    except BaseException:
        traceback.print_exc()
        sys.exit(1)
    names.update(memory(names))
    read_fd, write_fd = os.pipe()
    core = os.fork()
    if core == 0:
        os.close(read_fd)
        _engine_core(names, write_fd)
    os.close(write_fd)

    def stop(*_: Any) -> None:
        try:
            os.kill(core, signal.SIGKILL)
        except OSError:
            pass
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    if not os.read(read_fd, 16):
        _, status = os.waitpid(core, 0)
        code = os.waitstatus_to_exitcode(status)
        _fail(RuntimeError("Engine core initialization failed. See root cause above. "
                           f"Failed core proc(s): {{'EngineCore_DP0': {code}}}"),
              ["vllm/v1/engine/utils.py", 1474, "wait_for_engine_startup", "raise RuntimeError("])
    _http(names, stop)


# --- the HTTP API ------------------------------------------------------------------------------


def _http(names: dict[str, Any], stop: Any) -> None:
    served = (names.get("served_model_name") or [names.get("model")])[0]
    accept = accept_length(names)
    tp = int(names.get("tensor_parallel_size") or 1)
    drafted = int(names.get("spec_num_speculative_tokens") or 0) if names.get("spec") else 0
    # One decoding step of the target model, and the drafter's passes (a tenth each).
    step_s = (1.0 + 0.12 * drafted) / (22.0 * math.sqrt(tp))
    counters = {"drafts": 0, "accepted": 0, "generated": 0}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, fmt: str, *args: Any) -> None:
            log("INFO", "h11_impl.py:473", f'{self.address_string()} - "{self.requestline}" {args[1] if len(args) > 1 else ""}')

        def _send(self, code: int, body: Any, kind: str = "application/json") -> None:
            data = (body if isinstance(body, str) else json.dumps(body)).encode()
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802
            if self.path == "/health":
                self._send(200, "", "text/plain")
            elif self.path == "/v1/models":
                self._send(200, {"object": "list", "data": [{"id": served, "object": "model", "owned_by": "vllm",
                                                             "max_model_len": names["max_model_len"]}]})
            elif self.path == "/metrics":
                self._send(200, _metrics(served, counters), "text/plain; version=0.0.4")
            else:
                self._send(404, {"detail": "Not Found"})

        def do_POST(self) -> None:  # noqa: N802
            if self.path not in ("/v1/chat/completions", "/v1/completions"):
                self._send(404, {"detail": "Not Found"})
                return
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._send(400, {"error": {"message": "invalid JSON"}})
                return
            if body.get("model") not in (served, None):
                self._send(404, {"error": {"message": f"The model `{body.get('model')}` does not exist."}})
                return
            tokens = max(1, min(int(body.get("max_tokens") or 16), 512))
            steps = math.ceil(tokens / accept)
            time.sleep(steps * step_s)
            with lock:
                if names.get("spec"):
                    counters["drafts"] += steps
                    counters["accepted"] += tokens - steps
                counters["generated"] += tokens
            text = " ".join(["Hello"] + ["from the simulated vLLM"] * tokens)[: tokens * 6]
            self._send(200, {"id": "chatcmpl-sim", "object": "chat.completion", "model": served,
                             "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                          "finish_reason": "length"}],
                             "usage": {"prompt_tokens": 12, "completion_tokens": tokens,
                                       "total_tokens": 12 + tokens}})

    host = names.get("host") or "0.0.0.0"
    port = int(names.get("port") or 8000)
    try:
        server = ThreadingHTTPServer((host, port), Handler)
    except OSError as exc:
        _fail(OSError(exc.errno, f"[Errno {exc.errno}] error while attempting to bind on address "
                                 f"('{host}', {port}): {exc.strerror}"))
    log("INFO", "entry.py:139", f"Starting vLLM server on http://{host}:{port}")
    log("INFO", "on.py:62", "Application startup complete.")
    try:
        server.serve_forever()
    finally:
        stop()


def _metrics(served: str, counters: dict[str, int]) -> str:
    labels = f'{{engine="0",model_name="{served}"}}'
    return (
        "# HELP vllm:spec_decode_num_drafts_total Number of spec decoding drafts.\n"
        "# TYPE vllm:spec_decode_num_drafts_total counter\n"
        f"vllm:spec_decode_num_drafts_total{labels} {float(counters['drafts'])}\n"
        "# TYPE vllm:spec_decode_num_accepted_tokens_total counter\n"
        f"vllm:spec_decode_num_accepted_tokens_total{labels} {float(counters['accepted'])}\n"
        "# TYPE vllm:generation_tokens_total counter\n"
        f"vllm:generation_tokens_total{labels} {float(counters['generated'])}\n"
    )
