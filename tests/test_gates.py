"""The gates talk only to the candidate: against a real HTTP server on loopback, a gate
passes only while the candidate is alive, is the one listening and serves its own model.

The candidate's side (its watcher channel and who listens on its port) is scripted here;
the HTTP side is a real server answering like SGLang would (or like somebody else's)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx
import pytest

from autofix.config import GatesConfig
from autofix.gates import LiveGates, Watch
from autofix.model import Gate
from autofix.services import ServiceHandle, ServiceState

from .integration.helpers import foreign_server, free_port


@dataclass
class ScriptedChannel:
    """The watcher's channel: the lines given, then silence (a live process) or EOF."""

    lines: list[str]

    def send_line(self, text: str) -> None:
        return None

    def read_line(self, timeout: float) -> str | None:
        return self.lines.pop(0) if self.lines else None

    def stderr_tail(self) -> str:
        return ""

    def close(self) -> None:
        return None


@dataclass
class ScriptedService:
    events: list[str] = field(default_factory=list)

    def watch(self, handle: ServiceHandle, offset: int = 0) -> ScriptedChannel:
        return ScriptedChannel(list(self.events))

    def state(self, handle: ServiceHandle, *, deep: bool = True) -> ServiceState:
        return ServiceState(True)


HANDLE = ServiceHandle("autofix-1-1-test", "/nonexistent", 1, "/nonexistent/log")
SETTINGS = GatesConfig(start_settle=5.0, ready_timeout=5.0, smoke_max_tokens=4)


@pytest.fixture
def server() -> Iterator[str]:
    """A server on loopback that serves ``the-model`` and answers chat completions."""
    port = free_port()
    with foreign_server(port, model="the-model"):
        yield f"http://127.0.0.1:{port}"


def gates(
    url: str, *, dead: bool = False, who: Callable[[], str | None] = lambda: None, model: str = "the-model"
) -> LiveGates:
    events = [json.dumps({"exit": {"code": 1, "signal": None}})] if dead else []
    watch = Watch(ScriptedService(events), HANDLE)  # type: ignore[arg-type]
    return LiveGates(
        watch=watch,
        base_url=url,
        settings=SETTINGS,
        progress=lambda g, t, line: None,
        http=httpx.Client(trust_env=False),
        who_answers=who,
        expected_model=model,
        model_path=model,
    )


def test_the_candidate_alive_listening_and_serving_its_model_passes(server: str) -> None:
    """The baseline: every gate passes when everything is the candidate's."""
    live = gates(server)
    assert live.start().ok and live.ready().ok and live.smoke().ok
    assert live.foreign == ""


def test_a_dead_candidate_fails_even_while_something_answers(server: str) -> None:
    """The candidate died; the server on its port still answers. No gate passes, and the
    verdict names the death, not the server."""
    for gate in ("start", "ready", "smoke"):
        verdict = getattr(gates(server, dead=True), gate)()
        assert not verdict.ok, gate
        assert "exited with status 1" in verdict.detail


def test_another_process_on_the_port_is_not_the_candidate(server: str) -> None:
    """The candidate is alive, but another process holds its port: every gate that would
    pass fails as foreign, naming who holds it."""
    who = "port 1 on h is held by pid 42 (python -m http.server, uid 0)"
    for gate in (Gate.START, Gate.READY, Gate.SMOKE):
        live = gates(server, who=lambda: who)
        verdict = getattr(live, gate.value)()
        assert not verdict.ok and live.foreign == who, gate
        assert "pid 42" in verdict.detail


def test_a_server_with_another_model_is_not_the_candidate(server: str) -> None:
    """/v1/models lists another model than the candidate's: the ready gate fails, foreign."""
    live = gates(server, model="/models/Kimi-K2.6")
    verdict = live.ready()
    assert not verdict.ok
    assert "the-model" in live.foreign and "/models/Kimi-K2.6" in live.foreign


def test_the_watch_keeps_the_load_progress_of_every_line_not_only_the_last() -> None:
    """Loading ends between two looks: the chunk's last line is already the next message,
    yet the bar says 64/64, and a rank reporting late never moves it back."""
    shard = "[2026-12-03 10:00:0{s} TP{r}] Loading safetensors checkpoint shards: {p}% Completed | {n}/64"
    chunk = "\n".join(
        [
            shard.format(s=1, r=0, p=50, n=32),
            shard.format(s=2, r=0, p=100, n=64),
            shard.format(s=2, r=3, p=75, n=48),
            "[2026-12-03 10:00:03 TP0] Load weight end. elapsed=9.1 s",
        ]
    )
    watch = Watch(ScriptedService([json.dumps({"log": chunk, "offset": len(chunk)})]), HANDLE)  # type: ignore[arg-type]
    watch.poll()
    assert watch.last_line.endswith("Load weight end. elapsed=9.1 s")
    assert watch.shards == (64, 64)
