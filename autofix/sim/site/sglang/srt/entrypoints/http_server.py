"""The HTTP server of the simulated SGLang runtime (stdlib ThreadingHTTPServer).

Serves the OpenAI-compatible and native endpoints the real 0.5.23 server has, with
uvicorn's log lines: GET /health, /health_generate, /v1/models, /model_info,
/server_info, /get_server_info; POST /v1/chat/completions, /v1/completions, /generate.
Completions take real time: completion_tokens / the simulated decode tok/s.
"""

import json
import logging
import os
import signal
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from sglang.srt._sim import faults
from sglang.srt._sim import speed as sim_speed
from sglang.srt.arg_groups.overrides import resolved_view
from sglang.srt.entrypoints.engine import Engine
from sglang.srt.utils.common import kill_process_tree
from sglang.version import __version__

logger = logging.getLogger(__name__)
uvicorn_logger = logging.getLogger("uvicorn.error")
access_logger = logging.getLogger("uvicorn.access")

_RESPONSE_WORDS = (
    "Speculative decoding lets a small draft model propose several tokens that the "
    "large target model then verifies in one forward pass, so each step can accept "
    "more than one token while the output distribution stays exactly the same as "
    "plain decoding. On this host the Kimi K2.6 deployment answers through the "
    "simulated SGLang runtime, which reports every step it takes in its logs."
).split()


class _UvicornFormatter(logging.Formatter):
    def format(self, record):
        levelname = record.levelname
        record.levelprefix = levelname + ":" + " " * (8 - len(levelname))
        return super().format(record)


def _setup_uvicorn_logging():
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        _UvicornFormatter("[%(asctime)s] %(levelprefix)s %(message)s", "%Y-%m-%d %H:%M:%S")
    )
    for name in ("uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers = [handler]
        lg.setLevel(logging.INFO)
        lg.propagate = False


class _GlobalState:
    def __init__(self, server_args, scheduler_init_result):
        self.server_args = server_args
        self.view = resolved_view(server_args)
        self.scheduler_init_result = scheduler_init_result
        self.scheduler_info = scheduler_init_result.scheduler_infos[0]
        self.ready = False
        self.lock = threading.Lock()
        self.last_gen_throughput = 0.0
        self.total_tokens = 0
        self.created = int(time.time())
        self.health_answers = 0  # /health answers since ready (flap-health)
        view = self.view
        weight_bytes = self.scheduler_info["weight_bytes"]
        self.decode_tok_s, self.accept_length = sim_speed.decode_tok_s(
            weight_bytes,
            view.tp_size,
            view.speculative_algorithm,
            view.speculative_num_steps,
            view.speculative_eagle_topk,
            view.speculative_num_draft_tokens,
        )
        self.served_model_name = view.served_model_name or view.model_path

    def send_to_rank0(self, msg):
        try:
            with self.lock:
                self.scheduler_init_result.scheduler_pipe_readers[0].send(msg)
        except (OSError, EOFError, BrokenPipeError):
            pass

    def generate(self, prompt_tokens, max_tokens, stop_early=True, warmup=False):
        """Run one request; returns (text, completion_tokens, finish_reason)."""
        natural = len(_RESPONSE_WORDS)
        completion_tokens = max(0, min(max_tokens, natural)) if max_tokens is not None else natural
        finish_reason = "length" if max_tokens is not None and max_tokens <= natural else "stop"
        self.send_to_rank0({"type": "batch", "phase": "prefill", "tokens": prompt_tokens, "warmup": warmup})
        if faults.active("hang"):
            # SIMULATOR: the first forward deadlocks (a collective a rank never joins).
            faults.stall()
        time.sleep(prompt_tokens / 8000.0 + 0.005)
        decode_s = completion_tokens / self.decode_tok_s if self.decode_tok_s > 0 else 0.0
        time.sleep(decode_s)
        if completion_tokens:
            self.last_gen_throughput = self.decode_tok_s
            self.send_to_rank0(
                {
                    "type": "batch",
                    "phase": "decode",
                    "running": 1,
                    "tokens": prompt_tokens + completion_tokens,
                    "accept_length": self.accept_length,
                    "throughput": self.decode_tok_s,
                    "warmup": warmup,
                }
            )
        self.total_tokens += completion_tokens
        text = " ".join(_RESPONSE_WORDS[:completion_tokens])
        return text, completion_tokens, finish_reason

    def server_info(self):
        info = _jsonable(self.server_args.resolved_dict())
        info["launch_command"] = self.server_args.launch_command
        info.update(
            {
                "max_total_num_tokens": self.scheduler_info["max_total_num_tokens"],
                "max_req_input_len": self.scheduler_info["max_req_input_len"],
            }
        )
        internal = {
            "world_size": self.view.tp_size * self.view.pp_size,
            "startup_time": self.scheduler_info["startup_time"],
            "effective_max_running_requests_per_dp": self.scheduler_info[
                "effective_max_running_requests_per_dp"
            ],
            "last_gen_throughput": self.last_gen_throughput,
            "memory_usage": self.scheduler_info["memory_usage"],
            "avg_spec_accept_length": self.accept_length,
        }
        info["startup_time"] = self.scheduler_info["startup_time"]
        info["internal_states"] = [internal]
        info["version"] = __version__
        info["frontend"] = "python"
        info["simulated"] = True  # the autofix simulator says so
        return info


def _jsonable(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if hasattr(value, "to_dict"):
        return _jsonable(value.to_dict())
    return repr(value)


def _count_tokens(text):
    return max(1, len(str(text).split()) * 4 // 3)


class _Handler(BaseHTTPRequestHandler):
    server_version = "uvicorn"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    state: _GlobalState = None

    def log_message(self, format, *args):  # noqa: A002
        pass

    def _access(self, status):
        import http

        try:
            phrase = http.HTTPStatus(status).phrase
        except ValueError:
            phrase = ""
        access_logger.info(
            '%s:%d - "%s %s HTTP/1.1" %d %s',
            self.client_address[0],
            self.client_address[1],
            self.command,
            self.path,
            status,
            phrase,
        )

    def _send(self, status, body=None, content_type="application/json"):
        data = b"" if body is None else (
            body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        )
        self.send_response_only(status)
        self.send_header("date", self.date_time_string())
        self.send_header("server", "uvicorn")
        self.send_header("content-length", str(len(data)))
        self.send_header("content-type", content_type)
        self.end_headers()
        if data:
            self.wfile.write(data)
        self._access(status)

    def _error(self, status, message):
        self._send(
            status,
            {"object": "error", "message": message, "type": "BadRequestError", "param": None, "code": status},
        )

    def _body(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return {}
        return json.loads(raw.decode("utf-8"))

    def do_GET(self):  # noqa: N802
        st = self.state
        path = self.path.split("?", 1)[0]
        if path in ("/health", "/health_generate"):
            if not st.ready:
                self._send(503, b"", content_type="text/plain")
                return
            if faults.active("flap-health") and self._flap():
                return
            if path == "/health_generate":
                st.generate(4, 1)
            self._send(200, b"", content_type="text/plain")
        elif path == "/v1/models":
            self._send(
                200,
                {
                    "object": "list",
                    "data": [
                        {
                            "id": st.served_model_name,
                            "object": "model",
                            "created": st.created,
                            "owned_by": "sglang",
                            "root": st.served_model_name,
                            "parent": None,
                            "max_model_len": st.scheduler_info["context_len"],
                        }
                    ],
                },
            )
        elif path in ("/model_info", "/get_model_info"):
            self._send(
                200,
                {
                    "model_path": st.view.model_path,
                    "tokenizer_path": st.view.tokenizer_path,
                    "is_generation": True,
                    "preferred_sampling_params": None,
                    "weight_version": "default",
                    "has_image_understanding": False,
                    "has_audio_understanding": False,
                    "model_type": None,
                    "architectures": None,
                },
            )
        elif path in ("/server_info", "/get_server_info"):
            if path == "/get_server_info":
                logger.warning(
                    "Endpoint '/get_server_info' is deprecated and will be removed in a future version. "
                    "Please use '/server_info' instead."
                )
            self._send(200, st.server_info())
        elif path == "/version":
            self._send(200, {"version": __version__})
        else:
            self._send(404, {"detail": "Not Found"})

    def _flap(self):
        """flap-health: 200, 503, a dropped connection, in turn (True: answered here)."""
        with self.state.lock:
            turn = self.state.health_answers % 3
            self.state.health_answers += 1
        if turn == 1:
            self._send(503, b"", content_type="text/plain")
            return True
        if turn == 2:
            self.close_connection = True  # no response at all: the client sees a reset
            return True
        return False

    def do_POST(self):  # noqa: N802
        st = self.state
        path = self.path.split("?", 1)[0]
        try:
            body = self._body()
        except (ValueError, UnicodeDecodeError) as e:
            self._error(400, f"Invalid JSON: {e}")
            return
        if path == "/v1/chat/completions":
            messages = body.get("messages")
            if not isinstance(messages, list) or not messages:
                self._error(400, "messages must be a non-empty list")
                return
            prompt = " ".join(
                str(m.get("content", "")) for m in messages if isinstance(m, dict)
            )
            max_tokens = body.get("max_completion_tokens", body.get("max_tokens"))
            if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 0):
                self._error(400, "max_tokens must be a non-negative integer")
                return
            prompt_tokens = _count_tokens(prompt) + 4 * len(messages)
            if body.get("stream"):
                self._stream_chat(prompt_tokens, max_tokens, body.get("stream_options") or {})
                return
            text, n, finish = st.generate(prompt_tokens, max_tokens)
            self._send(
                200,
                {
                    "id": uuid.uuid4().hex,
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": st.served_model_name,
                    "choices": [
                        {
                            "index": 0,
                            "message": {
                                "role": "assistant",
                                "content": text,
                                "reasoning_content": None,
                                "tool_calls": None,
                            },
                            "logprobs": None,
                            "finish_reason": finish,
                            "matched_stop": None,
                        }
                    ],
                    "usage": {
                        "prompt_tokens": prompt_tokens,
                        "total_tokens": prompt_tokens + n,
                        "completion_tokens": n,
                        "prompt_tokens_details": None,
                        "reasoning_tokens": 0,
                    },
                    "metadata": {"weight_version": "default"},
                },
            )
        elif path == "/v1/completions":
            prompt = body.get("prompt", "")
            prompt_tokens = _count_tokens(prompt)
            text, n, finish = st.generate(prompt_tokens, body.get("max_tokens", 16))
            self._send(
                200,
                {
                    "id": uuid.uuid4().hex,
                    "object": "text_completion",
                    "created": int(time.time()),
                    "model": st.served_model_name,
                    "choices": [
                        {"index": 0, "text": text, "logprobs": None, "finish_reason": finish, "matched_stop": None}
                    ],
                    "usage": {
                        "prompt_tokens": prompt_tokens,
                        "total_tokens": prompt_tokens + n,
                        "completion_tokens": n,
                        "prompt_tokens_details": None,
                    },
                },
            )
        elif path == "/generate":
            params = body.get("sampling_params") or {}
            prompt_tokens = _count_tokens(body.get("text", ""))
            text, n, finish = st.generate(prompt_tokens, params.get("max_new_tokens", 128))
            self._send(
                200,
                {
                    "text": text,
                    "output_ids": list(range(1000, 1000 + n)),
                    "meta_info": {
                        "id": uuid.uuid4().hex,
                        "finish_reason": {"type": finish},
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": n,
                        "cached_tokens": 0,
                        "spec_verify_ct": max(1, round(n / max(1.0, st.accept_length))),
                        "e2e_latency": round(n / st.decode_tok_s, 4) if st.decode_tok_s else 0.0,
                    },
                },
            )
        elif path == "/flush_cache":
            self._send(200, b"Cache flushed.\n", content_type="text/plain")
        else:
            self._send(404, {"detail": "Not Found"})

    def _stream_chat(self, prompt_tokens, max_tokens, stream_options):
        st = self.state
        text, n, finish = st.generate(prompt_tokens, max_tokens)
        self.send_response_only(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        rid = uuid.uuid4().hex
        created = int(time.time())

        def chunk(obj):
            data = ("data: " + json.dumps(obj) + "\n\n").encode("utf-8")
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

        words = text.split(" ") if text else []
        for i, w in enumerate(words):
            chunk(
                {
                    "id": rid,
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": st.served_model_name,
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"role": "assistant", "content": (w if i == 0 else " " + w)},
                            "logprobs": None,
                            "finish_reason": None,
                        }
                    ],
                }
            )
        final = {
            "id": rid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": st.served_model_name,
            "choices": [{"index": 0, "delta": {}, "logprobs": None, "finish_reason": finish}],
        }
        if stream_options.get("include_usage"):
            final["usage"] = {
                "prompt_tokens": prompt_tokens,
                "total_tokens": prompt_tokens + n,
                "completion_tokens": n,
            }
        chunk(final)
        end = b"data: [DONE]\n\n"
        self.wfile.write(f"{len(end):x}\r\n".encode() + end + b"\r\n0\r\n\r\n")
        self._access(200)


def _execute_server_warmup(state: _GlobalState, host: str, port: int):
    # The real warmup request goes through HTTP; its access lines are what the log shows.
    access_logger.info('%s:%d - "%s %s HTTP/1.1" %d %s', "127.0.0.1", 35000 + os.getpid() % 20000, "GET", "/model_info", 200, "OK")
    state.generate(6, 8, warmup=True)
    access_logger.info('%s:%d - "%s %s HTTP/1.1" %d %s', "127.0.0.1", 35001 + os.getpid() % 20000, "POST", "/generate", 200, "OK")
    state.ready = True
    logger.info("The server is fired up and ready to roll!")


def _setup_and_run_http_server(server_args, scheduler_init_result):
    """Set up global state, configure middleware, and run uvicorn."""
    state = _GlobalState(server_args, scheduler_init_result)
    _Handler.state = state
    view = state.view
    host = view.host
    port = view.port

    _setup_uvicorn_logging()
    uvicorn_logger.info("Started server process [%d]", os.getpid())
    uvicorn_logger.info("Waiting for application startup.")
    uvicorn_logger.info("Application startup complete.")
    bind_host = "" if host in ("0.0.0.0", "") else host
    try:
        ThreadingHTTPServer.allow_reuse_address = True
        ThreadingHTTPServer.daemon_threads = True
        httpd = ThreadingHTTPServer((bind_host, port), _Handler)
    except OSError as exc:
        err = OSError(
            exc.errno,
            "error while attempting to bind on address %r: %s"
            % ((host, port), (exc.strerror or str(exc)).lower()),
        )
        uvicorn_logger.error(err)
        uvicorn_logger.info("Waiting for application shutdown.")
        uvicorn_logger.info("Application shutdown complete.")
        sys.exit(1)

    scheme = "http"
    uvicorn_logger.info(
        "Uvicorn running on %s://%s:%d (Press CTRL+C to quit)", scheme, host, port
    )

    stopping = threading.Event()

    def _graceful(signum, frame):
        if stopping.is_set():
            return
        stopping.set()
        threading.Thread(target=httpd.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, _graceful)
    signal.signal(signal.SIGINT, _graceful)

    if not view.skip_server_warmup:
        threading.Thread(
            target=_execute_server_warmup, args=(state, host, port), daemon=True
        ).start()
    else:
        state.ready = True

    try:
        httpd.serve_forever(poll_interval=0.1)
    finally:
        uvicorn_logger.info("Shutting down")
        uvicorn_logger.info("Waiting for application shutdown.")
        uvicorn_logger.info("Application shutdown complete.")
        uvicorn_logger.info("Finished server process [%d]", os.getpid())
        httpd.server_close()
        state.send_to_rank0({"type": "shutdown"})


def _terminate_during_launch(signum, frame):
    # Before uvicorn runs, SIGTERM/SIGINT end the launcher; take the ranks along.
    kill_process_tree(os.getpid(), include_parent=False, wait_timeout=None)
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def launch_server(server_args, launch_callback=None):
    """
    Launch SRT (SGLang Runtime) Server.

    The SRT server consists of an HTTP server and an SRT engine.
    """
    signal.signal(signal.SIGTERM, _terminate_during_launch)
    signal.signal(signal.SIGINT, _terminate_during_launch)

    # Launch subprocesses
    (
        port_args,
        scheduler_init_result,
    ) = Engine._launch_subprocesses(
        server_args=server_args,
    )

    _setup_and_run_http_server(
        server_args,
        scheduler_init_result,
    )
