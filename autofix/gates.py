"""The gates a launched candidate must pass: start, ready, smoke, bench.

(Preflight is the probe's; see preflight.py.) Each gate is a small method returning a
:class:`GateVerdict`; while one waits it watches the process, so a crash ends the gate
within a poll interval instead of at its timeout, and it reports progress (elapsed time
and the last log line) for the live display. HTTP checks are real requests to the
server's OpenAI-compatible API.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx

from .config import GatesConfig
from .events import shard_progress
from .hosts.base import Channel
from .model import Gate, GateVerdict
from .services import ServiceHandle, ServiceManager, ServiceState

Progress = Callable[[Gate, float, str], None]

POLL_S = 0.25
SILENCE_S = 10.0  # the watcher beats every 2 s; this long without a word means it is gone
IDLE_DRAFTER = 1.05  # an accept length this close to 1.0: the draft tokens are all rejected
# Ready takes /health answering 200 this many times in a row, a poll apart: one 200 from a
# server whose /health flaps is luck, not readiness (a load balancer would flap it too).
READY_STREAK = 3
# This many falls from 200 back to anything else and the server flaps: the ready gate
# fails then and says so, rather than waiting out its timeout for a streak that never comes.
FLAP_LIMIT = 3
BENCH_PROMPTS = (
    "Explain in a few sentences why the sky is blue.",
    "Write a short story about a lighthouse keeper.",
)


@dataclass
class Watch:
    """The launched process as the gates see it: its state and its log so far.

    A watcher on the host (probes/watch.py) pushes log lines and the exit over one
    channel, so the controller runs no command per look and learns of a crash within
    about a tenth of a second of the exit. If the watcher's channel drops (SSH hiccup),
    it is started again from the log offset reached; only if the host cannot say what
    became of the process is the state ``gone`` (host lost).
    """

    service: ServiceManager
    handle: ServiceHandle
    log_offset: int = 0
    last_line: str = ""
    shards: tuple[int, int] | None = None  # weights loaded, from any line seen
    state: ServiceState = field(default_factory=lambda: ServiceState(True))
    channel: Channel | None = None
    last_heard: float = field(default_factory=time.monotonic)
    restarts: int = 0

    def start(self) -> None:
        self.channel = self.service.watch(self.handle, self.log_offset)
        self.last_heard = time.monotonic()

    def poll(self, wait: float = 0.0) -> ServiceState:
        """Take in what the watcher pushed (waiting up to ``wait`` for the first event)."""
        if not self.state.running:
            return self.state
        if self.channel is None:
            self.start()
        assert self.channel is not None
        timeout = wait
        while True:
            try:
                line = self.channel.read_line(timeout)
            except EOFError:
                self._reconnect()
                return self.state
            if line is None:
                break
            timeout = 0.0
            self.last_heard = time.monotonic()
            self._take(line)
            if not self.state.running:
                break
        if time.monotonic() - self.last_heard > SILENCE_S:
            self._reconnect()
        return self.state

    def _take(self, line: str) -> None:
        try:
            event = json.loads(line)
        except ValueError:
            return
        if "log" in event:
            text = str(event["log"])
            self.log_offset = int(event.get("offset", self.log_offset + len(text.encode())))
            self._last(text)
        elif "journal" in event:
            try:
                message = json.loads(event["journal"]).get("MESSAGE", "")
            except (ValueError, AttributeError):
                message = ""
            self._last(message if isinstance(message, str) else "")
        elif "exit" in event:
            info = event["exit"] or {}
            self.state = ServiceState(False, info.get("code"), info.get("signal"))
        elif event.get("gone"):
            self.state = ServiceState(False, gone=True)

    def _last(self, text: str) -> None:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if lines:
            self.last_line = lines[-1][:400]  # its start: where a log line says what it is about
        for line in lines:
            shards = shard_progress(line)
            if shards is not None and (self.shards is None or shards[0] >= self.shards[0]):
                self.shards = shards  # ranks report in turn: the bar never goes back

    def _reconnect(self) -> None:
        """The watcher went quiet or its session dropped: ask the host, then watch again."""
        if self.channel is not None:
            self.channel.close()
            self.channel = None
        self.restarts += 1
        self.state = self.service.state(self.handle, deep=True)
        if self.state.running:
            self.start()

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()
            self.channel = None


@dataclass
class LiveGates:
    """The gates after the launch, talking to the candidate's server and only to it.

    What answers on the port is not taken on trust: before a gate passes, ``who_answers``
    asks the host who listens there (None: the candidate's own processes and nobody else;
    otherwise who does), and the model served must be the candidate's (``expected_model``
    at /v1/models, its model path at /get_server_info where the server has it). A gate that
    finds someone else answering fails with :attr:`foreign` set: a verdict about the host,
    never about the config, and never a pass.
    """

    watch: Watch
    base_url: str
    settings: GatesConfig
    progress: Progress
    http: httpx.Client
    who_answers: Callable[[], str | None] = lambda: None
    expected_model: str = ""
    model_path: str = ""
    model_id: str = ""
    bench_figures: dict[str, float] = field(default_factory=dict)
    # Set when the ready gate gave up on its timeout (the attempt is then ``timeout``, not
    # ``failed``: a ready gate that fails early, on a flapping /health, judged the server).
    timed_out: bool = False
    foreign: str = ""  # who answered in the candidate's place, when someone else did
    engine: str = "sglang"  # whose API: SGLang's /get_server_info, or vLLM's /metrics

    def _foreign(self, gate: Gate, started: float, who: str) -> GateVerdict:
        self.foreign = who
        return GateVerdict(gate, False, time.monotonic() - started, f"not the candidate: {who}")

    def _not_ours(self) -> str | None:
        """Who answers on the port if it is not the candidate (alive, the one listening)."""
        if not self.watch.poll().running:
            return None  # the caller reports the death itself
        return self.who_answers()

    def _serves_other_model(self) -> str | None:
        """The server lists or runs another model than the candidate's: another server."""
        ids = self._listed_models()
        if self.expected_model and ids and self.expected_model not in ids:
            return f"the server serves {', '.join(ids)}, not the candidate's {self.expected_model}"
        info = self._get("/get_server_info", timeout=5.0)
        path = info.get("model_path") if isinstance(info, dict) else None
        if self.model_path and isinstance(path, str) and path != self.model_path:
            return f"/get_server_info names model {path}, not the candidate's {self.model_path}"
        return None

    def _died(self, gate: Gate, started: float) -> GateVerdict:
        state = self.watch.state
        detail = "the host lost the process" if state.gone else state.describe()
        return GateVerdict(
            gate, False, time.monotonic() - started, f"{detail} after {time.monotonic() - started:.1f} s"
        )

    def start(self) -> GateVerdict:
        """Alive past the settle time (or already answering HTTP, as itself), not failed."""
        started = time.monotonic()
        while True:
            if not self.watch.poll().running:
                return self._died(Gate.START, started)
            elapsed = time.monotonic() - started
            self.progress(Gate.START, elapsed, self.watch.last_line)
            if elapsed >= self.settings.start_settle:
                return GateVerdict(Gate.START, True, elapsed, f"alive after {elapsed:.1f} s")
            if self._get("/health", timeout=1.0) is not None:
                if who := self._not_ours():
                    return self._foreign(Gate.START, started, who)
                if not self.watch.state.running:
                    return self._died(Gate.START, started)
                return GateVerdict(Gate.START, True, elapsed, f"answering HTTP after {elapsed:.1f} s")
            self.watch.poll(wait=POLL_S)

    def ready(self) -> GateVerdict:
        """``GET /v1/models`` lists a model id and ``GET /health`` answers 200
        :data:`READY_STREAK` times in a row, before the timeout.

        /v1/models alone is not readiness: SGLang serves it as soon as uvicorn is up, while
        /health stays 503 until the warmup forward has run, so a server whose first forward
        hangs lists its model and never answers a request (the smoke gate would wait out
        its own long timeout). A /health that keeps falling back from 200 fails the gate
        after :data:`FLAP_LIMIT` falls, with the answers it gave.
        """
        started = time.monotonic()
        health = _HealthRun()
        while True:
            if not self.watch.poll().running:
                return self._died(Gate.READY, started)
            elapsed = time.monotonic() - started
            self.progress(Gate.READY, elapsed, self.watch.last_line)
            if not self.model_id and (listed := self._listed_model()):
                # The first answer: from the candidate, serving the candidate's model?
                if who := self._not_ours() or self._serves_other_model():
                    return self._foreign(Gate.READY, started, who)
                self.model_id = listed
            if self.model_id:
                health.take(self._health())
                if health.flaps >= FLAP_LIMIT:
                    return GateVerdict(Gate.READY, False, elapsed, health.flapping(elapsed))
                if health.streak >= READY_STREAK:
                    if who := self._not_ours():
                        return self._foreign(Gate.READY, started, who)
                    if not self.watch.state.running:
                        return self._died(Gate.READY, started)
                    return GateVerdict(Gate.READY, True, elapsed, f"serving {self.model_id}")
            if elapsed >= self.settings.ready_timeout:
                self.timed_out = True
                return GateVerdict(Gate.READY, False, elapsed, self._not_ready(health))
            self.watch.poll(wait=POLL_S if health.streak else POLL_S * 2)

    def _listed_model(self) -> str:
        ids = self._listed_models()
        return ids[0] if ids else ""

    def _listed_models(self) -> list[str]:
        """The model ids at /v1/models (the base model first, then LoRA adapters)."""
        body = self._get("/v1/models", timeout=2.0)
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list):
            return []
        return [str(m["id"]) for m in data if isinstance(m, dict) and m.get("id")]

    def _health(self) -> str:
        """``GET /health`` as a short answer: "200", "503", or the transport error's name.

        SGLang's /health generates one token when the server is idle; 5 s leaves a slow
        but healthy server room, so that it is not taken for a flapping one."""
        try:
            response = self.http.get(self.base_url + "/health", timeout=5.0)
        except httpx.HTTPError as exc:
            return type(exc).__name__
        return str(response.status_code)

    def _not_ready(self, health: _HealthRun) -> str:
        timeout = f"{self.settings.ready_timeout:.0f} s"
        if not self.model_id:
            return f"no model at /v1/models within {timeout}"
        return (
            f"{self.model_id} listed, but /health never answered 200 {READY_STREAK} times in a row "
            f"within {timeout} (last: {health.last})"
        )

    def smoke(self) -> GateVerdict:
        """A real chat completion returns text."""
        started = time.monotonic()
        self.progress(Gate.SMOKE, 0.0, "POST /v1/chat/completions")
        body, error = self._chat(self.settings.smoke_prompt, self.settings.smoke_max_tokens, timeout=120.0)
        elapsed = time.monotonic() - started
        if body is None:
            self.watch.poll()
            return GateVerdict(Gate.SMOKE, False, elapsed, error)
        if unproven := self._unproven(Gate.SMOKE, started):
            return unproven
        text, tokens = _completion_text(body)
        if not text or tokens <= 0:
            return GateVerdict(Gate.SMOKE, False, elapsed, f"completion returned no text: {str(body)[:200]}")
        return GateVerdict(Gate.SMOKE, True, elapsed, f"{tokens} tokens: {text[:60]!r}")

    def _unproven(self, gate: Gate, started: float) -> GateVerdict | None:
        """After a gate's requests: the answers came from the candidate, still alive and
        still the one listening; otherwise the verdict that says why not."""
        who = self._not_ours()
        if not self.watch.state.running:
            return self._died(gate, started)
        return self._foreign(gate, started, who) if who else None

    def bench(self, speculative: bool = False) -> GateVerdict:
        """Decode speed of one stream and at the configured concurrency (output tokens/s),
        and the speculative accept length the server reports (/get_server_info).

        Fails below ``bench.min_tokens_per_s`` (single stream), or with an accept length of
        about 1.0 when speculative decoding is on: a drafter that silently does nothing.
        """
        started = time.monotonic()
        floor = self.settings.bench_min_tokens_per_s or 0.0
        max_tokens = self.settings.bench_max_tokens
        single = self._stream_rate(BENCH_PROMPTS, max_tokens, started, "single")
        if isinstance(single, str):
            return GateVerdict(Gate.BENCH, False, time.monotonic() - started, single)
        concurrency = max(self.settings.bench_concurrency, 1)
        batch = self._concurrent_rate(concurrency, max_tokens, started)
        if isinstance(batch, str):
            return GateVerdict(Gate.BENCH, False, time.monotonic() - started, batch)
        accept = self._accept_length()
        if unproven := self._unproven(Gate.BENCH, started):
            return unproven  # figures of another server, or of a candidate that died meanwhile
        self.bench_figures = {"tokens_per_s": round(single, 2), f"tokens_per_s_x{concurrency}": round(batch, 2)}
        if accept is not None:
            self.bench_figures["accept_length"] = round(accept, 3)
        detail = f"{single:.1f} tok/s single, {batch:.1f} tok/s at {concurrency} streams"
        detail += f", accept length {accept:.2f}" if accept is not None else ""
        elapsed = time.monotonic() - started
        if single < floor:
            return GateVerdict(Gate.BENCH, False, elapsed, f"{detail}: below the floor of {floor:g} tok/s")
        if speculative and accept is not None and accept < IDLE_DRAFTER:
            return GateVerdict(
                Gate.BENCH, False, elapsed, f"{detail}: the drafter accepts nothing (speculation is idle)"
            )
        return GateVerdict(Gate.BENCH, True, elapsed, f"{detail} (floor {floor:g})")

    def _stream_rate(self, prompts: tuple[str, ...], max_tokens: int, started: float, label: str) -> float | str:
        tokens, spent = 0, 0.0
        for i, prompt in enumerate(prompts):
            self.progress(Gate.BENCH, time.monotonic() - started, f"{label} request {i + 1}/{len(prompts)}")
            t0 = time.monotonic()
            body, error = self._chat(prompt, max_tokens, timeout=300.0)
            if body is None:
                return error
            spent += time.monotonic() - t0
            tokens += _completion_text(body)[1]
        return tokens / spent if spent > 0 else 0.0

    def _concurrent_rate(self, concurrency: int, max_tokens: int, started: float) -> float | str:
        self.progress(Gate.BENCH, time.monotonic() - started, f"{concurrency} concurrent requests")
        prompts = [BENCH_PROMPTS[i % len(BENCH_PROMPTS)] for i in range(concurrency)]
        t0 = time.monotonic()
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            results = list(pool.map(lambda p: self._chat(p, max_tokens, timeout=300.0), prompts))
        wall = time.monotonic() - t0
        errors = [error for body, error in results if body is None]
        if errors:
            return errors[0]
        tokens = sum(_completion_text(body)[1] for body, _ in results if body is not None)
        return tokens / wall if wall > 0 else 0.0

    # --- HTTP ------------------------------------------------------------------------
    def _get(self, path: str, timeout: float) -> Any:
        try:
            response = self.http.get(self.base_url + path, timeout=timeout)
        except httpx.HTTPError:
            return None
        if response.status_code != 200:
            return None
        try:
            return response.json()
        except ValueError:
            return {}

    def _chat(self, prompt: str, max_tokens: int, timeout: float) -> tuple[dict[str, Any] | None, str]:
        payload = {
            "model": self.model_id or "default",
            "messages": [{"role": "user", "content": prompt}],
            "max_tokens": max_tokens,
            "temperature": 0,
        }
        try:
            response = self.http.post(self.base_url + "/v1/chat/completions", json=payload, timeout=timeout)
        except httpx.HTTPError as exc:
            return None, f"request failed: {type(exc).__name__}: {exc}"
        if response.status_code != 200:
            return None, f"HTTP {response.status_code}: {response.text[:200]}"
        try:
            body = response.json()
        except ValueError:
            return None, f"not JSON: {response.text[:200]}"
        return (body, "") if isinstance(body, dict) else (None, f"unexpected body: {str(body)[:200]}")

    def _accept_length(self) -> float | None:
        if self.engine == "vllm":
            return self._vllm_accept_length()
        info = self._get("/get_server_info", timeout=5.0)
        if not isinstance(info, dict):
            return None
        states = info.get("internal_states") or []
        for state in states if isinstance(states, list) else []:
            if isinstance(state, dict) and state.get("avg_spec_accept_length") is not None:
                try:
                    return float(state["avg_spec_accept_length"])
                except (TypeError, ValueError):
                    return None
        return None

    def _vllm_accept_length(self) -> float | None:
        """vLLM's mean acceptance length from its Prometheus /metrics: 1 + accepted draft
        tokens per drafting step (its spec_decode counters); None before any draft ran."""
        try:
            response = self.http.get(self.base_url + "/metrics", timeout=5.0)
        except httpx.HTTPError:
            return None
        if response.status_code != 200:
            return None
        return spec_accept_length(response.text)


# vLLM's speculative-decoding counters (Prometheus names; the _total suffix is the exposition's).
_VLLM_ACCEPTED = "vllm:spec_decode_num_accepted_tokens"
_VLLM_DRAFTS = "vllm:spec_decode_num_drafts"


def spec_accept_length(metrics: str) -> float | None:
    """The mean acceptance length in a vLLM /metrics text: 1 + accepted / drafts, each
    counter summed over its label sets; None when no draft was made (or no counters)."""
    sums = {_VLLM_ACCEPTED: 0.0, _VLLM_DRAFTS: 0.0}
    for found in _SAMPLE.finditer(metrics):
        name = found.group("name").removesuffix("_total")
        if name in sums:
            try:
                sums[name] += float(found.group("value"))
            except ValueError:
                continue
    if sums[_VLLM_DRAFTS] <= 0:
        return None
    return 1.0 + sums[_VLLM_ACCEPTED] / sums[_VLLM_DRAFTS]


# One sample line of the Prometheus text format: name, optional {labels}, value.
_SAMPLE = re.compile(r"^(?P<name>[A-Za-z_:][\w:]*)(?:\{[^}\n]*\})?[ \t]+(?P<value>\S+)", re.MULTILINE)


@dataclass
class _HealthRun:
    """The ready gate's reading of /health: the current run of 200s and the falls from it."""

    streak: int = 0
    flaps: int = 0
    last: str = ""
    seen: list[str] = field(default_factory=list)

    def take(self, answer: str) -> None:
        self.last = answer
        self.seen = [*self.seen[-8:], answer]
        if answer == "200":
            self.streak += 1
            return
        if self.streak:
            self.flaps += 1
        self.streak = 0

    def flapping(self, elapsed: float) -> str:
        return (
            f"/health flaps: fell from 200 {self.flaps} times in {elapsed:.1f} s "
            f"(last answers: {', '.join(self.seen)}); an unstable server is not ready"
        )


def _completion_text(body: dict[str, Any]) -> tuple[str, int]:
    try:
        text = str(body["choices"][0]["message"]["content"] or "")
    except (KeyError, IndexError, TypeError):
        text = ""
    usage = body.get("usage") or {}
    tokens = int(usage.get("completion_tokens") or 0) if isinstance(usage, dict) else 0
    if tokens == 0 and text:
        tokens = len(text.split())
    return text, tokens
