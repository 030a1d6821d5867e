"""One host's side of a search: a candidate run there through the gates, and what came of it.

A :class:`HostExecutor` holds what belongs to one host (its target, service manager, warm
preflight probe, lock, the candidate it launched, the production units it stopped) and
answers one question: what happened to this candidate on this host? The search, the store's
record of attempts and the order of outcomes stay with the :class:`~autofix.run.Runner`;
with ``--hosts`` it drives one executor per host.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from .catalog import Catalog
from .classify import Diagnosis, classify
from .config import BaseConfig
from .errors import HostError, HostLost, PortTaken
from .events import Event, GateDone, GateProgress, Notice
from .gates import LiveGates, Watch
from .hosts.base import Host
from .locks import HostLock, acquire
from .model import GATE_ORDER, Attempt, AttemptState, Candidate, Failure, Frame, Gate, GatePlan, GateVerdict, Run
from .preflight import Preflight, ProbeAnswer
from .services import ProcessManager, ServiceHandle, ServiceManager
from .store import Store
from .targets import Target
from .tracebacks import Journal, JournalParser, parse_text

LOG_EXCERPT_LINES = 80
LOG_BLOCK = 1 << 20
SOURCE_LIMIT = 4 << 20


@dataclass
class Outcome:
    """What one candidate's attempt came to, before the search is told."""

    state: AttemptState
    verdicts: list[GateVerdict] = field(default_factory=list)
    diagnosis: Diagnosis | None = None
    failure: Failure | None = None
    resolved: dict[str, Any] = field(default_factory=dict)
    log_excerpt: str = ""
    launched: bool = False
    cached_from: int | None = None


def hold(window: str) -> None:
    """For the crash-safety tests only: with ``AUTOFIX_TEST_HOLD`` naming this window
    (``start``: the service recorded, not yet started; ``started``: started, not yet
    recorded as such; ``passed``: the winner recorded, the run not yet closed), say so on
    stderr and wait to be killed there, in the windows where a kill hurts most."""
    if window in os.environ.get("AUTOFIX_TEST_HOLD", "").split(","):
        sys.stderr.write(f"autofix: test hold: {window}\n")
        sys.stderr.flush()
        time.sleep(120)


class HostExecutor:
    """Runs candidates of one search on one host, one at a time."""

    def __init__(
        self,
        config: BaseConfig,
        *,
        host: Host,
        target: Target,
        label: str,
        store: Store,
        catalog: Catalog,
        plan: GatePlan,
        emit: Callable[[Event], None],
        services: ServiceManager | None = None,
        preflight: Preflight | None = None,
        use_cache: bool = True,
        sources: dict[str, str | None] | None = None,
    ) -> None:
        self.config = config
        self.host = host
        self.target = target
        self.label = label
        self.store = store
        self.catalog = catalog  # the run's, once it knows the host's parser
        self.plan = plan
        self.emit = emit
        self.services: ServiceManager = services or ProcessManager(host, target.python)
        # A caller may share one warm probe across several searches (bench, tests, a fleet).
        self.own_preflight = preflight is None
        self.preflight = preflight or Preflight(host, target)
        self.use_cache = use_cache
        self.sources = {} if sources is None else sources  # failing files read from hosts
        self.http = httpx.Client(trust_env=False)
        self.launched: ServiceHandle | None = None
        # A host fault that ends the search once its attempt is recorded (the port is
        # someone else's; the candidate could not be started at all).
        self.fatal: HostError | None = None
        self.stopped_units: list[str] = []
        self._conflicts_handled = False
        self._lost_counts: dict[str, int] = {}

    # --- the host for the whole search ----------------------------------------------------
    def lock(self, unit: str) -> HostLock:
        """This host's lock of ``unit``: a simulated host's lives in its work dir (a machine
        of its own); a real one's is the machine's, whoever and wherever the controller is."""
        own = f"{self.host.workdir}/locks" if self.target.simulated else None
        return acquire(self.host, self.target.python, unit, directory=own)

    def restore_units(self) -> None:
        """The production units stopped for the search run again (also after an error)."""
        if self.stopped_units:
            self.emit(Notice(f"starting {', '.join(self.stopped_units)} again"))
            with contextlib.suppress(HostError):
                self.services.start_units(self.stopped_units)  # type: ignore[attr-defined]

    def close(self) -> None:
        if self.own_preflight:
            self.preflight.close()
        self.http.close()

    def take_fatal(self) -> HostError | None:
        fatal, self.fatal = self.fatal, None
        return fatal

    def stop_launched(self) -> None:
        handle, self.launched = self.launched, None
        if handle is not None:
            self.services.stop(handle, grace=30.0)

    def stop_left(self, record: dict[str, Any]) -> str:
        """Stop what a dead controller left running (the service it recorded); its name."""
        handle = service_handle(record)
        with contextlib.suppress(HostError):
            self.services.stop(handle, grace=30.0)
        return handle.name

    def lost_again(self, candidate: Candidate) -> bool:
        """After the host lost ``candidate``'s attempt: False to try it once more (the host
        answers again), True once it was lost twice. HostLost if the host is gone."""
        key = candidate.key
        self._lost_counts[key] = self._lost_counts.get(key, 0) + 1
        try:
            self.host.run(["true"], timeout=60)
        except HostError as exc:
            raise HostLost(f"{self.host.name}: the host is gone: {exc}") from exc
        return self._lost_counts[key] > 1

    def source_at(self, frame: Frame) -> str | None:
        """A frame's file as installed on the host (None: not Python, or not readable), so
        inference can read the whole failing statement and the branches around it (the
        failing frame's, then its callers' in the target's code: repair.propose_outward)."""
        if not frame.file.endswith(".py"):
            return None
        if frame.file not in self.sources:
            try:
                data = self.host.read(frame.file, limit=SOURCE_LIMIT)
            except HostError:
                data = b""
            self.sources[frame.file] = data.decode("utf-8", errors="replace") if data else None
        return self.sources[frame.file]

    # --- one candidate --------------------------------------------------------------------
    def outcome(self, run: Run, attempt: Attempt, candidate: Candidate, version: str) -> Outcome:
        """Run one candidate on this host (safe to call from a worker thread)."""
        try:
            cached = self._cached(candidate, version)
            return self._from_cache(cached) if cached is not None else self._execute(run, attempt, candidate)
        except HostError as exc:
            # The host, not the config, failed: recorded as such and never classified, and
            # whatever was launched is stopped. A dropped connection is tried again; any
            # other host fault ends the search once the attempt is recorded.
            with contextlib.suppress(HostError):
                self.stop_launched()
            self.launched = None
            if not isinstance(exc, HostLost):
                self.fatal = exc
            return _host_lost(Outcome(AttemptState.HOST_LOST), Gate.START, str(exc))

    def _execute(self, run: Run, attempt: Attempt, candidate: Candidate) -> Outcome:
        gates = [g for g in GATE_ORDER if g in self.plan.gates]
        outcome = Outcome(AttemptState.PASSED)
        if Gate.PREFLIGHT in gates:
            answer = self.preflight.check(candidate, self.config.gates.preflight_timeout)
            outcome.resolved = _resolved(answer)
            engine = "vLLM" if self.target.family == "vllm" else "SGLang"
            verdict = GateVerdict(
                Gate.PREFLIGHT, answer.ok, answer.seconds, _preflight_detail(answer, candidate, engine)
            )
            outcome.verdicts.append(verdict)
            self.emit(GateDone(verdict))
            if not answer.ok:
                journal = parse_text(answer.output)
                tail = _tail(answer.output, LOG_EXCERPT_LINES)
                return self._failed(outcome, Gate.PREFLIGHT, journal, tail, answer.status)
        live = [g for g in gates if g.on_gpus]
        if not live:
            return outcome
        return self._launch(run, attempt, candidate, live, outcome)

    def _launch(
        self, run: Run, attempt: Attempt, candidate: Candidate, gates: Sequence[Gate], outcome: Outcome
    ) -> Outcome:
        # Unique per launch: run ids repeat across stores, and a stale exit record in a
        # reused directory would read as an instant crash.
        name = f"autofix-{run.id}-{attempt.seq}-{uuid.uuid4().hex[:8]}"
        port = self.target.port(candidate)
        self._stop_conflicts()
        if taken := self._port_taken(port):
            return self._blocked(outcome, Gate.START, f"{taken}: the candidate was not launched")
        self.store.mark_launched(attempt.id)
        outcome.launched = True
        # Written ahead: a controller killed (or interrupted) while the start runs leaves a
        # name that --resume (or the clean-up) can stop: the candidate outlives its
        # controller by design.
        planned = self.services.planned(name)
        self.store.set_service(attempt.id, service_record(planned))
        self.launched = planned
        hold("start")
        try:
            handle = self.services.start(
                name, candidate, self.target, self.config.launch.cwd, env_files=self.config.launch.env_files
            )
        except HostLost as exc:
            # The answer was lost with the connection: whatever did start is stopped (any
            # other host fault reaches outcome(), which stops it too and ends the search).
            with contextlib.suppress(HostError):
                self.stop_launched()
            return _host_lost(outcome, Gate.START, f"the start failed: {exc}")
        self.launched = handle
        hold("started")
        self.store.set_service(attempt.id, service_record(handle))
        watch = Watch(self.services, handle)
        live = self._gates(candidate, watch, handle, port)
        speculative = (
            candidate.arg("speculative-algorithm") is not None or candidate.arg("speculative-config") is not None
        )
        runners: dict[Gate, Callable[[], GateVerdict]] = {
            Gate.START: live.start,
            Gate.READY: live.ready,
            Gate.SMOKE: live.smoke,
            Gate.BENCH: lambda: live.bench(speculative),
        }
        try:
            for gate in gates:
                verdict = runners[gate]()
                outcome.verdicts.append(verdict)
                self.emit(GateDone(verdict))
                if not verdict.ok:
                    return self._gate_failed(outcome, gate, verdict, live, watch, handle)
            outcome.log_excerpt = self._read_journal(handle)[1]
            if live.bench_figures:
                outcome.resolved["__bench__"] = dict(live.bench_figures)
            return outcome
        finally:
            if watch.restarts:
                self.emit(Notice(f"the watcher's connection dropped {watch.restarts} time(s); reconnected and went on"))
            watch.close()
            self.stop_launched()

    def _gates(self, candidate: Candidate, watch: Watch, handle: ServiceHandle, port: int) -> LiveGates:
        bind = str(candidate.arg("host") or "127.0.0.1")
        # SGLang's --model-path, vLLM's --model (served under that name by default).
        model_path = str(candidate.arg("model" if self.target.family == "vllm" else "model-path") or "")
        timeouts = {Gate.START: self.config.gates.start_settle, Gate.READY: self.config.gates.ready_timeout}
        return LiveGates(
            watch=watch,
            base_url=f"http://{self.host.http_address(bind)}:{port}",
            settings=self.config.gates,
            progress=lambda g, t, line: self.emit(GateProgress(g, t, line, timeouts.get(g), watch.shards)),
            engine=self.target.family,
            http=self.http,
            who_answers=lambda: self._who_answers(port, handle),
            expected_model=str(candidate.arg("served-model-name") or model_path),
            model_path=model_path,
        )

    def _gate_failed(
        self, outcome: Outcome, gate: Gate, verdict: GateVerdict, live: LiveGates, watch: Watch, handle: ServiceHandle
    ) -> Outcome:
        if live.foreign:
            return self._blocked(outcome, gate, verdict.detail, emitted=True)
        # A ready gate that failed early (a flapping /health) judged the server: failed.
        timed_out = gate is Gate.READY and watch.state.running and live.timed_out
        if watch.state.running and gate is not Gate.READY:
            watch.poll()
        if watch.state.gone:
            return _host_lost(outcome, gate, verdict.detail)
        journal, tail = self._read_journal(handle)
        status = "timeout" if timed_out else "failed"
        return self._failed(outcome, gate, journal, tail, status, detail=verdict.detail)

    # --- who answers on the candidate's port ------------------------------------------------
    def _port_taken(self, port: int) -> str | None:
        """Before a launch: who holds the port, if anyone does (the conflicts units are
        stopped by now, so whoever is left is no part of this search)."""
        holders = self.services.listeners(port, None)
        if not holders:
            return None
        return f"port {port} on {self.host.name} is held by {holders[0].describe()}, not by this search"

    def _who_answers(self, port: int, handle: ServiceHandle) -> str | None:
        """While the gates run: None when the candidate's processes, and only they, listen
        on its port; otherwise who does (or that nothing there does)."""
        holders = self.services.listeners(port, handle)
        if not holders:
            return f"nothing on {self.host.name} listens on port {port}, yet something answered there"
        strangers = [h for h in holders if not h.ours]
        if strangers:
            return f"port {port} on {self.host.name} is held by {strangers[0].describe()}"
        return None

    def _blocked(self, outcome: Outcome, gate: Gate, detail: str, *, emitted: bool = False) -> Outcome:
        """The host would not let the candidate be judged: never a pass, never the config's
        fault; the run ends with it (every candidate would meet the same port)."""
        if not emitted:
            verdict = GateVerdict(gate, False, 0.0, detail)
            outcome.verdicts.append(verdict)
            self.emit(GateDone(verdict))
        outcome.state = AttemptState.BLOCKED
        outcome.failure = Failure(gate, None, "", "PortTaken", detail, host_fault=True)
        self.fatal = PortTaken(detail + "; stop it, or give the candidate another port (launch.args.port)")
        return outcome

    def _stop_conflicts(self) -> None:
        """Before the first launch: stop the units that hold the same GPUs and port."""
        if self._conflicts_handled or not self.config.service.conflicts:
            return
        self._conflicts_handled = True
        stop_units = getattr(self.services, "stop_units", None)
        if stop_units is not None:
            self.stopped_units = list(stop_units(self.config.service.conflicts))
            if self.stopped_units:
                self.emit(Notice(f"stopped {', '.join(self.stopped_units)} (same GPUs); restarted at the end"))

    # --- the candidate cache ----------------------------------------------------------------
    def _cached(self, candidate: Candidate, version: str) -> Attempt | None:
        """An earlier attempt of this very candidate on this host and target version that
        answers the same gates."""
        if not self.use_cache:
            return None
        return self.store.cached(candidate.key, self.label, version, self.plan)

    def _from_cache(self, cached: Attempt) -> Outcome:
        """Reuse a recorded outcome instead of running the candidate again: only the
        verdicts of the gates this search runs (a pass under more gates covers fewer)."""
        wanted = set(self.plan.gates)
        verdicts = [v for v in cached.verdicts if v.gate in wanted]
        covered = ",".join(v.gate.value for v in verdicts) or "none"
        self.emit(
            Notice(
                f"already tried: attempt {cached.id} (run {cached.run_id}) {cached.state.value} "
                f"under the same gates ({covered}); reused"
            )
        )
        outcome = Outcome(
            cached.state,
            verdicts=verdicts,
            failure=cached.failure,
            resolved=dict(cached.resolved),
            log_excerpt=cached.log_excerpt,
            cached_from=cached.id,
        )
        if cached.failure is not None and cached.state is AttemptState.FAILED:
            # The class and its match groups come from the evidence, classified again.
            journal = parse_text(cached.failure.evidence)
            fallback = (cached.failure.exception, cached.failure.message)
            outcome.diagnosis = classify(
                journal, self.catalog, cached.failure.gate, package=self.target.family, fallback=fallback
            )
        return outcome

    # --- reading what happened --------------------------------------------------------------
    def _read_journal(self, handle: ServiceHandle) -> tuple[Journal, str]:
        """The whole log, parsed block by block (memory flat in its size), and its tail."""
        parser = JournalParser()
        offset = 0
        while chunk := self.services.read_log(handle, offset, LOG_BLOCK):
            parser.feed_bytes(chunk)
            offset += len(chunk)
        journal = parser.result()
        return journal, "\n".join(journal.tail[-LOG_EXCERPT_LINES:])

    def _failed(
        self, outcome: Outcome, gate: Gate, journal: Journal, tail: str, status: str, detail: str = ""
    ) -> Outcome:
        fallback = ("Timeout", detail) if status == "timeout" else ("ProcessExit", detail or status)
        diagnosis = classify(journal, self.catalog, gate, package=self.target.family, fallback=fallback)
        outcome.state = AttemptState.TIMEOUT if status == "timeout" else AttemptState.FAILED
        outcome.diagnosis = diagnosis
        outcome.failure = diagnosis.failure
        outcome.log_excerpt = tail
        return outcome


def _host_lost(outcome: Outcome, gate: Gate, detail: str) -> Outcome:
    outcome.state = AttemptState.HOST_LOST
    outcome.failure = Failure(gate, None, "", "HostLost", detail, host_fault=True)
    return outcome


def service_record(handle: ServiceHandle) -> dict[str, Any]:
    return {"name": handle.name, "directory": handle.directory, "pid": handle.pid, "log_path": handle.log_path}


def service_handle(record: dict[str, Any]) -> ServiceHandle:
    """The handle back from what ``service_record`` stored."""
    return ServiceHandle(record["name"], record["directory"], record.get("pid"), record["log_path"])


def _resolved(answer: ProbeAnswer) -> dict[str, Any]:
    out = dict(answer.resolved)
    if answer.changed:
        out["__changed__"] = answer.changed
    return out


def _preflight_detail(answer: ProbeAnswer, candidate: Candidate, engine: str = "SGLang") -> str:
    if answer.ok:
        # Only what the operator set and SGLang silently changed (num-draft-tokens 3 -> 2).
        asked = {flag.replace("-", "_") for flag, _ in candidate.args}
        rewrites = [f"{k}: {v[0]!r} -> {v[1]!r}" for k, v in answer.changed.items() if v[0] is not None and k in asked]
        steps = "+".join(answer.steps_run)
        return f"{steps} ok" + (f"; {engine} rewrote {', '.join(rewrites[:4])}" if rewrites else "")
    if answer.status == "timeout":
        return "probe timed out"
    # pydantic ends its errors with a link to its docs: the line above says what failed.
    last = [ln for ln in answer.output.strip().splitlines() if ln.strip() and "errors.pydantic.dev/" not in ln]
    return last[-1][:200] if last else answer.status


def _tail(text: str, lines: int) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])
