"""The simulated server's HTTP API (stdlib ThreadingHTTPServer), with uvicorn's log lines.

GET /health, /health_generate, /v1/models, /model_info, /server_info, /get_server_info,
/version; POST /v1/chat/completions (also streamed), /v1/completions, /generate,
/flush_cache. A completion takes real time: its tokens at the speed model's decode rate.
"""

import http
import json
import logging
import os
import signal
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from sglang.srt._sim import faults, models, rules, speed
from sglang.version import __version__

logger = logging.getLogger("sglang.srt.entrypoints.http_server")
uvicorn = logging.getLogger("uvicorn.error")
access = logging.getLogger("uvicorn.access")
_WORDS = (
    "Speculative decoding lets a small draft model propose several tokens that the large target model then "
    "verifies in one forward pass, so each step can accept more than one token while the output distribution "
    "stays exactly the same as plain decoding. On this host the Kimi K2.6 deployment answers through the "
    "simulated SGLang runtime, which reports every step it takes in its logs."
).split()


_READY = "The server is fired up and ready to roll!"


class _Uvicorn(logging.Formatter):
    def format(self, record):
        record.levelprefix = f"{record.levelname}:".ljust(9)
        return super().format(record)


def _uvicorn_logging():
    to_stderr = logging.StreamHandler(sys.stderr)
    to_stderr.setFormatter(_Uvicorn("[%(asctime)s] %(levelprefix)s %(message)s", "%Y-%m-%d %H:%M:%S"))
    for log in (uvicorn, access):
        log.handlers, log.propagate = [to_stderr], False
        log.setLevel(logging.INFO)


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


def _tokens(text):
    return max(1, len(str(text).split()) * 4 // 3)


class Server:
    """What the handlers share: the resolved config, rank 0's pipe, the speed model."""

    def __init__(self, server_args, ranks, info):
        self.server_args, self.ranks, self.info = server_args, ranks, info
        self.view = view = rules.view_of(server_args)
        self.name = view.served_model_name or view.model_path
        self.created = int(time.time())
        self.ready = False
        self.lock = threading.Lock()
        self.health_answers = 0
        self.last_tok_s = 0.0
        self.tok_s, self.accept = speed.decode_tok_s(
            models.weight_bytes(view.model_path),
            view.tp_size,
            view.speculative_algorithm,
            view.speculative_num_steps,
            view.speculative_eagle_topk,
            view.speculative_num_draft_tokens,
        )

    def to_rank0(self, message):
        try:
            with self.lock:
                self.ranks[0][1].send(message)
        except (OSError, EOFError):
            pass

    def generate(self, prompt_tokens, max_tokens, warmup=False):
        """(text, completion tokens, finish reason) after the time the speed model says."""
        natural = len(_WORDS)
        count = natural if max_tokens is None else max(0, min(max_tokens, natural))
        finish = "length" if max_tokens is not None and max_tokens <= natural else "stop"
        self.to_rank0({"type": "batch", "phase": "prefill", "tokens": prompt_tokens, "warmup": warmup})
        if faults.active("hang"):  # the first forward never returns (a collective a rank never joins)
            faults.stall()
        time.sleep(prompt_tokens / 8000.0 + 0.005 + (count / self.tok_s if self.tok_s > 0 else 0.0))
        if count:
            self.last_tok_s = self.tok_s
            batch = {"phase": "decode", "running": 1, "tokens": prompt_tokens + count}
            batch.update(type="batch", accept_length=self.accept, throughput=self.tok_s, warmup=warmup)
            self.to_rank0(batch)
        return " ".join(_WORDS[:count]), count, finish

    def server_info(self):
        info = _jsonable(self.server_args.resolved_dict())
        info["enable_dp_attention"] = self.view.attn_dp_size > 1
        info["launch_command"] = self.server_args.launch_command
        info["max_total_num_tokens"] = self.info["max_total_num_tokens"]
        info["max_req_input_len"] = self.info["max_req_input_len"]
        info["startup_time"] = self.info["startup_time"]
        info["internal_states"] = [
            {
                "world_size": self.view.tp_size * self.view.pp_size,
                "startup_time": self.info["startup_time"],
                "effective_max_running_requests_per_dp": self.info["effective_max_running_requests_per_dp"],
                "last_gen_throughput": self.last_tok_s,
                "memory_usage": self.info["memory_usage"],
                "avg_spec_accept_length": self.accept,
            }
        ]
        info.update(version=__version__, frontend="python", simulated=True)
        return info


class Handler(BaseHTTPRequestHandler):
    server_version, sys_version, protocol_version = "uvicorn", "", "HTTP/1.1"
    state = None

    def log_message(self, format, *args):  # noqa: A002 - uvicorn's access log instead
        pass

    def _logged(self, status):
        phrase = http.HTTPStatus(status).phrase
        access.info('%s:%d - "%s %s HTTP/1.1" %d %s', *self.client_address, self.command, self.path, status, phrase)

    def _send(self, status, body=b"", kind="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response_only(status)
        for name, value in (("date", self.date_time_string()), ("server", "uvicorn")):
            self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.send_header("content-type", kind)
        self.end_headers()
        self.wfile.write(data)
        self._logged(status)

    def _error(self, message):
        self._send(400, {"object": "error", "message": message, "type": "BadRequestError", "param": None, "code": 400})

    def do_GET(self):  # noqa: N802 - http.server's name
        state, path = self.state, self.path.split("?", 1)[0]
        if path in ("/health", "/health_generate"):
            if not state.ready:
                return self._send(503, kind="text/plain")
            if faults.active("flap-health") and self._flapped():
                return None
            if path == "/health_generate":
                state.generate(4, 1)
            return self._send(200, kind="text/plain")
        if path == "/v1/models":
            card = {"id": state.name, "object": "model", "created": state.created, "owned_by": "sglang"}
            card.update(root=state.name, parent=None, max_model_len=state.info["context_len"])
            return self._send(200, {"object": "list", "data": [card]})
        if path in ("/model_info", "/get_model_info"):
            view = state.view
            return self._send(
                200,
                {
                    "model_path": view.model_path,
                    "tokenizer_path": view.tokenizer_path,
                    "is_generation": True,
                    "preferred_sampling_params": None,
                    "weight_version": "default",
                    "has_image_understanding": False,
                    "has_audio_understanding": False,
                    "model_type": None,
                    "architectures": None,
                },
            )
        if path in ("/server_info", "/get_server_info"):
            if path == "/get_server_info":
                logger.warning(
                    "Endpoint '/get_server_info' is deprecated and will be removed in a future version. "
                    "Please use '/server_info' instead."
                )
            return self._send(200, state.server_info())
        if path == "/version":
            return self._send(200, {"version": __version__})
        return self._send(404, {"detail": "Not Found"})

    def _flapped(self):
        """flap-health: 200, 503, then a dropped connection, in turn (True: answered here)."""
        with self.state.lock:
            turn = self.state.health_answers % 3
            self.state.health_answers += 1
        if turn == 1:
            self._send(503, kind="text/plain")
        elif turn == 2:
            self.close_connection = True  # no answer at all: the client sees the connection go
        return turn != 0

    def do_POST(self):  # noqa: N802 - http.server's name
        state, path = self.state, self.path.split("?", 1)[0]
        try:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
        except (ValueError, UnicodeDecodeError) as exc:
            return self._error(f"Invalid JSON: {exc}")
        if path == "/v1/chat/completions":
            return self._chat(body)
        if path == "/v1/completions":
            prompt_tokens = _tokens(body.get("prompt", ""))
            text, count, finish = state.generate(prompt_tokens, body.get("max_tokens", 16))
            choice = {"index": 0, "text": text, "logprobs": None, "finish_reason": finish, "matched_stop": None}
            return self._send(200, self._completion("text_completion", choice, prompt_tokens, count))
        if path == "/generate":
            prompt_tokens = _tokens(body.get("text", ""))
            limit = (body.get("sampling_params") or {}).get("max_new_tokens", 128)
            text, count, finish = state.generate(prompt_tokens, limit)
            meta = {"id": uuid.uuid4().hex, "finish_reason": {"type": finish}, "prompt_tokens": prompt_tokens}
            meta.update(completion_tokens=count, cached_tokens=0, spec_verify_ct=max(1, round(count / max(1.0, state.accept))))
            meta["e2e_latency"] = round(count / state.tok_s, 4) if state.tok_s else 0.0
            return self._send(200, {"text": text, "output_ids": list(range(1000, 1000 + count)), "meta_info": meta})
        if path == "/flush_cache":
            return self._send(200, b"Cache flushed.\n", kind="text/plain")
        return self._send(404, {"detail": "Not Found"})

    def _completion(self, kind, choice, prompt_tokens, count):
        usage = {"prompt_tokens": prompt_tokens, "total_tokens": prompt_tokens + count, "completion_tokens": count}
        usage["prompt_tokens_details"] = None
        body = {"id": uuid.uuid4().hex, "object": kind, "created": int(time.time()), "model": self.state.name}
        body.update(choices=[choice], usage=usage)
        return body

    def _chat(self, body):
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return self._error("messages must be a non-empty list")
        limit = body.get("max_completion_tokens", body.get("max_tokens"))
        if limit is not None and (not isinstance(limit, int) or limit < 0):
            return self._error("max_tokens must be a non-negative integer")
        prompt = " ".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))
        prompt_tokens = _tokens(prompt) + 4 * len(messages)
        text, count, finish = self.state.generate(prompt_tokens, limit)
        if body.get("stream"):
            return self._stream(text, count, finish, prompt_tokens, body.get("stream_options") or {})
        message = {"role": "assistant", "content": text, "reasoning_content": None, "tool_calls": None}
        choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": finish, "matched_stop": None}
        reply = self._completion("chat.completion", choice, prompt_tokens, count)
        reply["usage"]["reasoning_tokens"] = 0
        reply["metadata"] = {"weight_version": "default"}
        return self._send(200, reply)

    def _stream(self, text, count, finish, prompt_tokens, options):
        self.send_response_only(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        head = {"id": uuid.uuid4().hex, "object": "chat.completion.chunk", "created": int(time.time())}
        head["model"] = self.state.name

        def chunk(data):
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

        for i, word in enumerate(text.split(" ") if text else []):
            delta = {"role": "assistant", "content": word if i == 0 else " " + word}
            event = dict(head, choices=[{"index": 0, "delta": delta, "logprobs": None, "finish_reason": None}])
            chunk(f"data: {json.dumps(event)}\n\n".encode())
        last = dict(head, choices=[{"index": 0, "delta": {}, "logprobs": None, "finish_reason": finish}])
        if options.get("include_usage"):
            last["usage"] = {"prompt_tokens": prompt_tokens, "total_tokens": prompt_tokens + count, "completion_tokens": count}
        chunk(f"data: {json.dumps(last)}\n\n".encode())
        chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self._logged(200)


def _warm_up(state):
    # SGLang's warmup goes through its own HTTP API; the access lines are what the log shows.
    port = 35000 + os.getpid() % 20000
    access.info('%s:%d - "%s %s HTTP/1.1" %d %s', "127.0.0.1", port, "GET", "/model_info", 200, "OK")
    state.generate(6, 8, warmup=True)
    access.info('%s:%d - "%s %s HTTP/1.1" %d %s', "127.0.0.1", port + 1, "POST", "/generate", 200, "OK")
    state.ready = True
    logger.info(_READY)


def serve(server_args, ranks, info):
    state = Server(server_args, ranks, info)
    Handler.state = state
    host, port = state.view.host, state.view.port
    _uvicorn_logging()
    uvicorn.info("Started server process [%d]", os.getpid())
    uvicorn.info("Waiting for application startup.")
    uvicorn.info("Application startup complete.")
    try:
        ThreadingHTTPServer.allow_reuse_address = True
        ThreadingHTTPServer.daemon_threads = True
        server = ThreadingHTTPServer(("" if host in ("0.0.0.0", "") else host, port), Handler)
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        uvicorn.error(f"[Errno {exc.errno}] error while attempting to bind on address {(host, port)!r}: {reason}")
        uvicorn.info("Waiting for application shutdown.")
        uvicorn.info("Application shutdown complete.")
        sys.exit(1)
    uvicorn.info("Uvicorn running on %s://%s:%d (Press CTRL+C to quit)", "http", host, port)
    stopping = threading.Event()

    def stop(signum, frame):
        if not stopping.is_set():
            stopping.set()
            threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if state.view.skip_server_warmup:
        state.ready = True
    else:
        threading.Thread(target=_warm_up, args=(state,), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.1)
    finally:
        for line in ("Shutting down", "Waiting for application shutdown.", "Application shutdown complete."):
            uvicorn.info(line)
        uvicorn.info("Finished server process [%d]", os.getpid())
        server.server_close()
        state.to_rank0({"type": "shutdown"})
