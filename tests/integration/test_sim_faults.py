"""Host faults on the simulated host (AUTOFIX_SIM_FAULT, set in the base's launch.env): each
ends its attempt in the right state, at the right gate, classified or described, within a
bounded time, and leaves no process of the candidate behind.

Every test runs ``autofix search --max-attempts 1`` through the real command line with
small gate timeouts (settle 1 s, ready 4 s), so a hang costs seconds, not the 15 minutes of
a real ready timeout.
"""

from __future__ import annotations

import itertools
import json
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from autofix.tracebacks import parse_text

from ..conftest import ROOT
from .helpers import cli, left_running

pytestmark = pytest.mark.integration

SETTLE_S = 1.0
READY_TIMEOUT_S = 4.0
# For faults that kill the server during startup: a settle time it never outlives, so the
# death is the start gate's whatever the machine's load (with 1 s it could be ready's).
CRASH_SETTLE_S = 30.0
# A bound on the whole search that a gate waiting out a real default would break (smoke's
# request waits 120 s, ready's real timeout is 900 s) and the machine's load would not:
# preflight, start and stop took up to 39 s beyond the gates under CI on two loaded cores.
WITHIN_S = 100.0
# How late a gate may end past its own timeout: one poll interval and a probe's answer.
GATE_SLACK_S = 2.0


@dataclass(frozen=True)
class Ended:
    """One search of a faulty base: its single attempt, as history and show report it."""

    attempt: dict[str, Any]
    shown: dict[str, Any]
    seconds: float

    @property
    def failed_verdict(self) -> dict[str, Any]:
        return next(g for g in self.attempt["gates"] if not g["ok"])

    @property
    def failed_within(self) -> float:
        """How long the failing gate ran, as it recorded it (not the machine's wall time)."""
        return float(self.failed_verdict["seconds"])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def faulty_base(work: Path, fault: str, settle: float) -> Path:
    """The seed's base already past preflight, the fault in launch.env, small timeouts."""
    data = yaml.safe_load((ROOT / "examples" / "k26-eagle3.yaml").read_text())
    data["launch"]["args"].update(
        {"speculative-num-steps": 2, "speculative-eagle-topk": 1, "host": "127.0.0.1", "port": free_port()}
    )
    data["launch"]["env"]["AUTOFIX_SIM_FAULT"] = fault
    data["gates"] = {
        "preflight": {"timeout": 60},
        "start": {"settle": settle},
        "ready": {"timeout": READY_TIMEOUT_S},
        "smoke": {"max_tokens": 8},
    }
    data["service"]["conflicts"] = []
    path = work / "base.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def search_fault(work: Path, fault: str, settle: float = SETTLE_S) -> Ended:
    base = faulty_base(work, fault, settle)
    started = time.monotonic()
    done = cli("search", "--base", str(base), "--host", "sim", "--max-attempts", "1", "--json", cwd=work, load_s="0.3")
    seconds = time.monotonic() - started
    assert done.returncode == 1, done.stderr  # the search ends without a winner
    run = json.loads(done.stdout.strip().splitlines()[-1])["run"]
    history = cli("history", str(run), "--json", cwd=work)
    (attempt,) = json.loads(history.stdout)["attempts"]
    shown = json.loads(cli("show", str(attempt["id"]), "--json", cwd=work).stdout)
    assert_nothing_left(work)
    return Ended(attempt, shown, seconds)


def assert_nothing_left(work: Path, within: float = 5.0) -> None:
    """No live process of this search: every process it started (supervisor, launcher,
    ranks, watcher, probe) inherited TMPDIR=work from the command line (helpers.sim_env)."""
    deadline = time.monotonic() + within
    while (left := left_running(work)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert left == [], f"left running: {left}"


def test_hang_at_warmup_times_out_at_ready(tmp_path: Path) -> None:
    """Loads, binds, lists its model, but the first forward never returns: /health stays
    503. Ready needs /health, so the attempt is a timeout at ready, not a smoke request
    waiting out its own two minutes."""
    ended = search_fault(tmp_path, "hang")
    assert ended.attempt["state"] == "timeout" and ended.attempt["failed_gate"] == "ready"
    assert "/health never answered 200" in ended.failed_verdict["detail"]
    assert "last: 503" in ended.failed_verdict["detail"]
    assert ended.failed_within < READY_TIMEOUT_S + GATE_SLACK_S
    assert ended.seconds < WITHIN_S


def test_hang_while_loading_times_out_at_ready(tmp_path: Path) -> None:
    """Every rank stops halfway through the shards: nothing ever listens."""
    ended = search_fault(tmp_path, "hang-load")
    assert ended.attempt["state"] == "timeout" and ended.attempt["failed_gate"] == "ready"
    assert ended.failed_verdict["detail"] == f"no model at /v1/models within {READY_TIMEOUT_S:.0f} s"
    assert "50% Completed" in ended.shown["log_excerpt"]
    assert ended.failed_within < READY_TIMEOUT_S + GATE_SLACK_S
    assert ended.seconds < WITHIN_S


def test_crash_while_loading_fails_at_start_with_the_ranks_exception(tmp_path: Path) -> None:
    """A torn shard: every rank raises SafetensorError halfway through loading. It is the
    damaged checkpoint's class (round 30h: no flag fixes the file), with the real exception
    kept."""
    ended = search_fault(tmp_path, "crash-load", settle=CRASH_SETTLE_S)
    assert ended.attempt["state"] == "failed" and ended.attempt["failed_gate"] == "start"
    assert ended.attempt["class"] == "checkpoint-corrupt"
    assert ended.attempt["exception"] == "safetensors_rust.SafetensorError"
    assert "MetadataIncompleteBuffer" in ended.attempt["message"]
    assert ended.shown["frame"]["function"] == "_safetensors_weights_iterator"
    assert ended.failed_within < CRASH_SETTLE_S  # start saw the death, not its settle time
    assert ended.seconds < WITHIN_S


def test_flapping_health_fails_ready_and_says_so(tmp_path: Path) -> None:
    """/health answers 200, 503, then drops the connection, in turn. An operator expects no
    winner from a server a load balancer would keep pulling out: ready fails (not a
    timeout) after three falls from 200, long before its timeout, with the answers seen,
    which follow the server's cycle exactly (nothing in the verdict depends on timing)."""
    ended = search_fault(tmp_path, "flap-health")
    assert ended.attempt["state"] == "failed" and ended.attempt["failed_gate"] == "ready"
    detail = ended.failed_verdict["detail"]
    assert detail.startswith("/health flaps: fell from 200 3 times in ")
    answers = detail.split("last answers: ", 1)[1].split(")", 1)[0].split(", ")
    cycle = {"200": "503", "503": "RemoteProtocolError", "RemoteProtocolError": "200"}
    flapping = answers[answers.index("200") :]  # before it, maybe a 503 of the warmup
    assert all(cycle[a] == b for a, b in itertools.pairwise(flapping))
    assert answers[-2:] == ["200", "503"]  # the third fall is the verdict
    assert ended.failed_within < READY_TIMEOUT_S
    assert ended.seconds < WITHIN_S


def test_oom_under_load_fails_smoke_as_cuda_oom(tmp_path: Path) -> None:
    """Serves, then the first chat completion's forward runs out of GPU memory on rank 0
    and the server dies: failed at smoke, classified as a CUDA OOM while serving."""
    ended = search_fault(tmp_path, "oom-under-load")
    assert ended.attempt["state"] == "failed" and ended.attempt["failed_gate"] == "smoke"
    assert ended.attempt["class"] == "cuda-oom-serving"
    assert ended.attempt["exception"] == "torch.OutOfMemoryError"
    assert ended.attempt["message"].startswith("CUDA out of memory. Tried to allocate")
    assert [g["gate"] for g in ended.attempt["gates"] if g["ok"]] == ["preflight", "start", "ready"]
    assert ended.seconds < WITHIN_S


def test_oom_killer_fails_start_with_signal_9(tmp_path: Path) -> None:
    """SIGKILL mid-load and no traceback: the detail says signal 9 / 137 and names the OOM
    killer; the supervisor's systemd-style exit line classifies it as under systemd."""
    ended = search_fault(tmp_path, "oom-killer", settle=CRASH_SETTLE_S)
    assert ended.attempt["state"] == "failed" and ended.attempt["failed_gate"] == "start"
    detail = ended.failed_verdict["detail"]
    assert detail.startswith("killed by signal 9 (SIGKILL, exit status 137")
    assert "OOM killer" in detail
    assert ended.attempt["class"] == "killed-by-signal"
    assert "status=9/KILL" in ended.attempt["message"]
    assert ended.failed_within < CRASH_SETTLE_S  # start saw the death, not its settle time
    assert ended.seconds < WITHIN_S


def test_segfault_fails_start_with_signal_11(tmp_path: Path) -> None:
    """The launcher dies of a real SIGSEGV after faulthandler's report."""
    ended = search_fault(tmp_path, "segfault", settle=CRASH_SETTLE_S)
    assert ended.attempt["state"] == "failed" and ended.attempt["failed_gate"] == "start"
    assert ended.failed_verdict["detail"].startswith("killed by signal 11 (SIGSEGV, exit status 139)")
    assert ended.attempt["class"] == "segfault"
    assert "Fatal Python error: Segmentation fault" in ended.shown["log_excerpt"]
    assert ended.failed_within < CRASH_SETTLE_S  # start saw the death, not its settle time
    assert ended.seconds < WITHIN_S


def test_torn_traceback_is_kept_and_the_attempt_fails(tmp_path: Path) -> None:
    """Killed two frames into printing a traceback: the attempt fails at start, the partial
    block is in the stored excerpt and parses as a truncated traceback without raising."""
    ended = search_fault(tmp_path, "torn-traceback", settle=CRASH_SETTLE_S)
    assert ended.attempt["state"] == "failed" and ended.attempt["failed_gate"] == "start"
    assert ended.failed_verdict["detail"].startswith("killed by signal 9")
    excerpt = ended.shown["log_excerpt"]
    assert "Traceback (most recent call last):" in excerpt
    (torn,) = [tb for tb in parse_text(excerpt).tracebacks if tb.truncated]
    assert torn.exc_type == "" and len(torn.frames) == 2
    assert torn.frames[-1].function == "_load_tokenizer"
    assert ended.failed_within < CRASH_SETTLE_S  # start saw the death, not its settle time
    assert ended.seconds < WITHIN_S


def test_torn_traceback_then_hang_times_out(tmp_path: Path) -> None:
    """The same half traceback, then the launcher hangs: a timeout at ready, excerpt kept."""
    ended = search_fault(tmp_path, "torn-traceback-hang")
    assert ended.attempt["state"] == "timeout" and ended.attempt["failed_gate"] == "ready"
    assert "Traceback (most recent call last):" in ended.shown["log_excerpt"]
    assert ended.failed_within < READY_TIMEOUT_S + GATE_SLACK_S
    assert ended.seconds < WITHIN_S
