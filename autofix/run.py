"""The orchestrator: the only module that wires everything together.

    search.ask -> store.begin_attempt -> preflight probe -> launch -> gates
      -> journal -> tracebacks -> classify -> repair -> search.tell -> store

One :class:`Runner` per ``autofix search``. It reports what happens through ``events``
(the command line renders them); it never prints. Every attempt row is written before
its candidate runs and completed after, so a killed controller leaves a true record.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx

from .catalog import Catalog
from .classify import Diagnosis, classify
from .config import BaseConfig, GatesConfig
from .errors import ConfigError, HostError, HostLost, InputError, PortTaken
from .gates import LiveGates, Watch
from .hosts.base import Host
from .locks import HostLock, acquire
from .logs import get_logger
from .model import (
    GATE_ORDER,
    Attempt,
    AttemptState,
    Candidate,
    Edit,
    EditOp,
    Failure,
    Gate,
    GatePlan,
    GateVerdict,
    Move,
    Run,
    RunStatus,
    added,
    gave_up,
    json_object,
    redact_text,
    renames,
    secret_names,
)
from .preflight import Preflight, ProbeAnswer
from .renames import base_warnings
from .repair import apply, propose
from .search import Child, Pick, Search
from .services import ProcessManager, ServiceHandle, ServiceManager
from .store import Store
from .targets import Target
from .tracebacks import Journal, JournalParser, parse_text

log = get_logger("autofix.run")

LOG_EXCERPT_LINES = 80
LOG_BLOCK = 1 << 20
SOURCE_LIMIT = 4 << 20


# --- events (rendered by the CLI) -----------------------------------------------------------


@dataclass(frozen=True)
class RunStarted:
    run: Run
    target_version: str
    simulated: bool


@dataclass(frozen=True)
class AttemptStarted:
    attempt: Attempt
    pick: Pick


@dataclass(frozen=True)
class GateProgress:
    gate: Gate
    elapsed: float
    line: str


@dataclass(frozen=True)
class GateDone:
    verdict: GateVerdict


@dataclass(frozen=True)
class AttemptDone:
    attempt: Attempt
    children: int


@dataclass(frozen=True)
class Notice:
    text: str


Event = RunStarted | AttemptStarted | GateProgress | GateDone | AttemptDone | Notice


@dataclass(frozen=True)
class SearchOptions:
    gates: tuple[Gate, ...]
    max_attempts: int
    max_time: float
    host_label: str
    explore: int = 0  # after the first pass, launch up to this many speculative variants


@dataclass(frozen=True)
class RunResult:
    run: Run
    attempts: int
    launches: int
    winner: Attempt | None
    # What the winner gave up from the base and what it adds, in the operator's words.
    gave_up: tuple[str, ...] = ()
    added: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        winner = None
        if self.winner is not None:
            winner = {
                "attempt": self.winner.id,
                "args": {k: list(v) if isinstance(v, tuple) else v for k, v in self.winner.candidate.args},
                "env": self.winner.candidate.env_dict(),
            }
        return {
            "run": self.run.id,
            "status": self.run.status.value,
            "attempts": self.attempts,
            "launches": self.launches,
            "winner": winner,
            "gave_up": list(self.gave_up),
            "added": list(self.added),
        }


def default_gates(config: BaseConfig) -> tuple[Gate, ...]:
    gates = [Gate.PREFLIGHT, Gate.START, Gate.READY, Gate.SMOKE]
    if config.gates.bench_min_tokens_per_s is not None:
        gates.append(Gate.BENCH)
    return tuple(gates)


def _hold(window: str) -> None:
    """For the crash-safety tests only: with ``AUTOFIX_TEST_HOLD`` naming this window
    (``start``: the service recorded, not yet started; ``started``: started, not yet
    recorded as such; ``passed``: the winner recorded, the run not yet closed), say so on
    stderr and wait to be killed there, in the windows where a kill hurts most."""
    if window in os.environ.get("AUTOFIX_TEST_HOLD", "").split(","):
        sys.stderr.write(f"autofix: test hold: {window}\n")
        sys.stderr.flush()
        time.sleep(120)


def require_cwd(host: Host, config: BaseConfig) -> None:
    """``launch.cwd`` exists on the host: a config error found before anything runs, not
    a start that fails on every candidate."""
    cwd = config.launch.cwd
    if cwd and not host.run(["test", "-d", cwd], timeout=30).ok:
        raise ConfigError(config.source, "launch.cwd", f"{cwd}: no such directory on {host.name}")


def gate_plan(gates: Sequence[Gate], settings: GatesConfig) -> GatePlan:
    """The gates a search runs, each with the settings its verdict depends on."""
    judged_by: dict[Gate, dict[str, object]] = {
        Gate.PREFLIGHT: {"timeout": settings.preflight_timeout},
        Gate.START: {"settle": settings.start_settle},
        Gate.READY: {"timeout": settings.ready_timeout},
        Gate.SMOKE: {"max_tokens": settings.smoke_max_tokens, "prompt": settings.smoke_prompt},
        Gate.BENCH: {
            "min_tokens_per_s": settings.bench_min_tokens_per_s,
            "concurrency": settings.bench_concurrency,
            "max_tokens": settings.bench_max_tokens,
        },
    }
    return GatePlan(tuple((g, tuple(judged_by[g].items())) for g in GATE_ORDER if g in gates))


@dataclass
class _Outcome:
    state: AttemptState
    verdicts: list[GateVerdict] = field(default_factory=list)
    diagnosis: Diagnosis | None = None
    failure: Failure | None = None
    resolved: dict[str, Any] = field(default_factory=dict)
    log_excerpt: str = ""
    launched: bool = False
    cached_from: int | None = None


class Runner:
    def __init__(
        self,
        config: BaseConfig,
        options: SearchOptions,
        *,
        store: Store,
        host: Host,
        target: Target,
        catalog: Catalog,
        events: Callable[[Event], None] = lambda e: None,
        preflight: Preflight | None = None,
        services: ServiceManager | None = None,
        lock: bool = True,
        resume_run: int | None = None,
        use_cache: bool = True,
    ) -> None:
        self.config = config
        self.options = options
        self.store = store
        self.host = host
        self.target = target
        self.catalog = catalog
        self.events_sink = events
        self.emit = events
        # A caller may share one warm probe across several searches (bench, tests).
        self._own_preflight = preflight is None
        self.preflight = preflight or Preflight(host, target)
        self._sources: dict[str, str | None] = {}
        self.services: ServiceManager = services or ProcessManager(host, target.python)
        self.use_lock = lock
        self.resume_run = resume_run
        self.use_cache = use_cache
        self._lost_counts: dict[str, int] = {}
        self._stopped_units: list[str] = []
        self._conflicts_handled = False
        self.http = httpx.Client(trust_env=False)
        # Moves that fixed a failure class before (any run in this store) are tried first.
        self.search = Search(config.base, success_rates=store.move_stats())
        self.plan = gate_plan(options.gates, config.gates)
        self._attempt_of_key: dict[str, int] = {}
        self._launched_handle: ServiceHandle | None = None
        # A host fault that ends the search once its attempt is recorded (the port is
        # someone else's; the candidate could not be started at all).
        self._fatal: HostError | None = None
        # --hosts: more runners, one per extra host, that only execute candidates; this
        # one keeps the search, the store and the order of outcomes.
        self.workers: list[Runner] = [self]
        self._emit_lock = threading.Lock()
        # Set from another thread (a fleet of searches on Ctrl-C): the search ends as if
        # interrupted, after stopping what it launched.
        self._cancelled = threading.Event()

    def add_worker(self, worker: Runner) -> None:
        """Another host for the frontier: ``worker`` executes, this runner decides."""
        worker.search = self.search
        worker._attempt_of_key = self._attempt_of_key
        worker._sources = self._sources
        worker.emit = self._emit_safely
        self.workers.append(worker)

    def cancel(self) -> None:
        """Stop this search from another thread: what it launched is stopped now, the
        attempt in flight is recorded ``interrupted`` and ``run()`` raises KeyboardInterrupt,
        exactly as after Ctrl-C in a single search."""
        self._cancelled.set()
        for worker in self.workers:
            with contextlib.suppress(HostError):
                worker._stop_launched()

    def _check_cancelled(self, attempts: Sequence[Attempt] = ()) -> None:
        if self._cancelled.is_set():
            self._interrupted(attempts)
            raise KeyboardInterrupt

    def _emit_safely(self, event: Event) -> None:
        with self._emit_lock:
            self.events_sink(event)

    # --- the loop --------------------------------------------------------------------
    def run(self) -> RunResult:
        """The whole search, under the host's lock for this unit."""
        if len(self.workers) > 1:
            self.emit = self._emit_safely
        held: list[HostLock] = []
        try:
            for worker in self.workers if self.use_lock else []:
                # A simulated host is a machine of its own, in its work dir; a real one's
                # lock is the machine's, whoever and wherever the controller is.
                own = f"{worker.host.workdir}/locks" if worker.target.simulated else None
                lock = acquire(worker.host, worker.target.python, self.config.unit, directory=own)
                held.append(lock)
                if lock.stale:
                    who = f"{lock.stale.get('controller', '?')} (pid {lock.stale.get('pid')})"
                    self.emit(Notice(f"took over a stale lock on {self.config.unit} left by {who}"))
            return self._run()
        finally:
            # Also after Ctrl-C or an error: the production service comes back.
            for worker in self.workers:
                if worker._stopped_units:
                    self.emit(Notice(f"starting {', '.join(worker._stopped_units)} again"))
                    with contextlib.suppress(HostError):
                        worker.services.start_units(worker._stopped_units)  # type: ignore[attr-defined]
            for lock in held:
                lock.release()

    def _run(self) -> RunResult:
        attempts = 0
        launches = 0
        spared = 0
        if self.resume_run is not None:
            run = self.store.run(self.resume_run)
            if run.status is RunStatus.PASSED and run.winner_id is not None:
                self.emit(Notice(f"run {run.id} already passed (attempt {run.winner_id}); nothing to resume"))
                done = self.store.attempts(run.id)
                return self._result(run, len(done), sum(a.launched for a in done), self.store.attempt(run.winner_id))
            run = self._resume(run)
            done = self.store.attempts(run.id)
            if (ended := self._passed_before(run, done)) is not None:
                return ended
            attempts, launches = len(done), sum(a.launched for a in done)
            # Attempts a dead controller cut short judged nothing: they do not spend the
            # budget, or a run resumed after several crashes would end exhausted untried.
            spared = sum(a.state is AttemptState.INTERRUPTED for a in done)
        else:
            run = self.store.create_run(
                name=self.config.name,
                base_path=self.config.source,
                # Secrets never reach the store in clear: the text is kept with them redacted.
                base_text=redact_text(self.config.text, secret_names(self.config.base)),
                host=self.options.host_label,
                target=self.target.kind,
                options={
                    "gates": [g.value for g in self.options.gates],
                    "max_attempts": self.options.max_attempts,
                    "max_time": self.options.max_time,
                },
            )
        started = time.monotonic()
        winner: Attempt | None = None
        status = RunStatus.EXHAUSTED
        try:
            version = "unknown"
            simulated = self.target.simulated
            if Gate.PREFLIGHT in self.options.gates:
                info = self.preflight.info or self.preflight.start()
                version, simulated = info.version, info.simulated
                self.store.set_run_version(run.id, version)
                # Flag facts and renames follow the parser the host runs, any version.
                self.catalog = self.catalog.with_parser(info.parser, version)
            self.emit(RunStarted(run, version, simulated))
            for line in base_warnings(self.config.base, self.catalog, version):
                self.emit(Notice(line))
            log.info("run.start", run=run.id, host=self.options.host_label, target=self.target.kind, version=version)
            if self.config.service.conflicts and not hasattr(self.services, "stop_units"):
                # Only a systemd host has the production units to stop.
                self.emit(
                    Notice(
                        f"service.conflicts ({', '.join(self.config.service.conflicts)}) not stopped: "
                        f"{self.options.host_label} runs candidates with the process manager, not systemd"
                    )
                )
            while True:
                self._check_cancelled()
                if attempts - spared >= self.options.max_attempts:
                    self.emit(Notice(f"budget spent: {attempts - spared} attempts (max {self.options.max_attempts})"))
                    break
                if time.monotonic() - started >= self.options.max_time:
                    self.emit(Notice(f"budget spent: {self.options.max_time:.0f} s"))
                    break
                batch = self._next_batch(run, version, self.options.max_attempts - attempts + spared)
                if not batch:
                    self.emit(Notice("no repair moves left to try"))
                    break
                done_batch = self._run_batch(run, batch, version)
                passed = None
                for pick, attempt in done_batch:
                    attempts += 1
                    launches += int(attempt.launched)
                    if attempt.state is AttemptState.HOST_LOST:
                        self._after_host_lost(pick)
                    if attempt.state is AttemptState.PASSED and passed is None:
                        passed = (pick, attempt)
                if passed is None:
                    self._raise_fatal()
                if passed is not None:
                    pick, attempt = passed
                    winner = attempt
                    status = RunStatus.PASSED
                    _hold("passed")
                    if self.options.explore:
                        winner, more, more_launches = self._explore(run, pick, attempt, version)
                        attempts += more
                        launches += more_launches
                    break
        except KeyboardInterrupt:
            status = RunStatus.INTERRUPTED
            raise
        except BaseException:
            status = RunStatus.ERROR
            raise
        finally:
            if self._own_preflight:
                self.preflight.close()
            self.http.close()
            final = self.store.finish_run(run.id, status, winner.id if winner else None)
        return self._result(final, attempts, launches, winner)

    def _attempt(self, run: Run, pick: Pick, version: str) -> Attempt:
        attempt = self._begin(run, pick, version, self)
        try:
            outcome = self._outcome(run, attempt, pick.candidate, version)
        except KeyboardInterrupt:
            self._interrupted([attempt])
            raise
        self._check_cancelled([attempt])
        return self._complete(run, attempt, pick, outcome)

    def _begin(self, run: Run, pick: Pick, version: str, worker: Runner) -> Attempt:
        """The attempt row, written before anything runs (on ``worker``'s host)."""
        candidate = pick.candidate
        parent_id = self._attempt_of_key.get(pick.parent_key) if pick.parent_key else None
        attempt = self.store.begin_attempt(
            run.id,
            candidate,
            parent_id=parent_id,
            move=pick.move,
            host=worker.options.host_label,
            target_version=version,
            plan=self.plan,
        )
        self._attempt_of_key[candidate.key] = attempt.id
        self.emit(AttemptStarted(attempt, pick))
        log.info("attempt.start", run=run.id, seq=attempt.seq, move=pick.move.label() if pick.move else None)
        return attempt

    def _outcome(self, run: Run, attempt: Attempt, candidate: Candidate, version: str) -> _Outcome:
        """Run one candidate on this runner's host (safe to call from a worker thread)."""
        try:
            cached = self._cached(candidate, version)
            return self._from_cache(cached) if cached is not None else self._execute(run, attempt, candidate)
        except HostError as exc:
            # The host, not the config, failed: recorded as such and never classified, and
            # whatever was launched is stopped. A dropped connection is tried again; any
            # other host fault ends the search once the attempt is recorded.
            with contextlib.suppress(HostError):
                self._stop_launched()
            self._launched_handle = None
            if not isinstance(exc, HostLost):
                self._fatal = exc
            return self._host_lost(_Outcome(AttemptState.HOST_LOST), Gate.START, str(exc))

    def _interrupted(self, attempts: Sequence[Attempt]) -> None:
        """Ctrl-C: every worker stops what it launched; the attempts are recorded as such."""
        for worker in self.workers:
            with contextlib.suppress(HostError):
                worker._stop_launched()
        for attempt in attempts:
            done = self.store.finish_attempt(attempt.id, state=AttemptState.INTERRUPTED, verdicts=[], failure=None)
            self.emit(AttemptDone(done, 0))

    def _complete(self, run: Run, attempt: Attempt, pick: Pick, outcome: _Outcome) -> Attempt:
        """Repairs for a failure, the search told, the attempt completed: in pick order."""
        candidate = pick.candidate
        children: list[Child] = []
        if outcome.state is AttemptState.FAILED and outcome.diagnosis is not None:
            proposals = propose(
                candidate,
                outcome.diagnosis,
                self.catalog,
                pinned=self.config.search.pinned,
                resolved=outcome.resolved,
                source=self._failing_source(outcome.diagnosis),
            )
            children = [Child(p.child, p.move, p.rank) for p in proposals]
            class_id = outcome.diagnosis.failure.class_id
            self.store.add_edges(run.id, candidate.key, [(c.candidate, c.move, class_id) for c in children])
            self.search.tell(
                candidate.key, outcome.state.value, children, class_id, outcome.diagnosis.failure.fingerprint
            )
        else:
            self.search.tell(candidate.key, outcome.state.value)
        done = self.store.finish_attempt(
            attempt.id,
            state=outcome.state,
            verdicts=outcome.verdicts,
            failure=outcome.failure,
            resolved=outcome.resolved,
            log_excerpt=outcome.log_excerpt,
            cached_from=outcome.cached_from,
        )
        self.emit(AttemptDone(done, len(children)))
        log.info(
            "attempt.done",
            run=run.id,
            seq=done.seq,
            state=done.state.value,
            failure_class=done.failure.class_id if done.failure else None,
            fingerprint=done.failure.fingerprint if done.failure else None,
            launched=done.launched,
            children=len(children),
        )
        return done

    # --- one candidate through the gates ----------------------------------------------
    def _execute(self, run: Run, attempt: Attempt, candidate: Candidate) -> _Outcome:
        gates = [g for g in GATE_ORDER if g in self.options.gates]
        outcome = _Outcome(AttemptState.PASSED)
        if Gate.PREFLIGHT in gates:
            answer = self.preflight.check(candidate, self.config.gates.preflight_timeout)
            outcome.resolved = _resolved(answer)
            verdict = GateVerdict(
                Gate.PREFLIGHT,
                answer.ok,
                answer.seconds,
                _preflight_detail(answer, candidate, "vLLM" if self.target.family == "vllm" else "SGLang"),
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
        self, run: Run, attempt: Attempt, candidate: Candidate, gates: Sequence[Gate], outcome: _Outcome
    ) -> _Outcome:
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
        self.store.set_service(attempt.id, _service_record(planned))
        self._launched_handle = planned
        _hold("start")
        try:
            handle = self.services.start(name, candidate, self.target, self.config.launch.cwd)
        except HostLost as exc:
            # The answer was lost with the connection: whatever did start is stopped (any
            # other host fault reaches _outcome, which stops it too and ends the search).
            with contextlib.suppress(HostError):
                self._stop_launched()
            return self._host_lost(outcome, Gate.START, f"the start failed: {exc}")
        self._launched_handle = handle
        _hold("started")
        self.store.set_service(attempt.id, _service_record(handle))
        watch = Watch(self.services, handle)
        bind = str(candidate.arg("host") or "127.0.0.1")
        # SGLang's --model-path, vLLM's --model (served under that name by default).
        model_path = str(candidate.arg("model" if self.target.family == "vllm" else "model-path") or "")
        live = LiveGates(
            watch=watch,
            base_url=f"http://{self.host.http_address(bind)}:{port}",
            settings=self.config.gates,
            progress=lambda g, t, line: self.emit(GateProgress(g, t, line)),
            engine=self.target.family,
            http=self.http,
            who_answers=lambda: self._who_answers(port, handle),
            expected_model=str(candidate.arg("served-model-name") or model_path),
            model_path=model_path,
        )
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
                    if live.foreign:
                        return self._blocked(outcome, gate, verdict.detail, emitted=True)
                    # A ready gate that failed early (a flapping /health) judged the server: failed.
                    timed_out = gate is Gate.READY and watch.state.running and live.timed_out
                    if watch.state.running and gate is not Gate.READY:
                        watch.poll()
                    if watch.state.gone:
                        return self._host_lost(outcome, gate, verdict.detail)
                    journal, tail = self._read_journal(handle)
                    status = "timeout" if timed_out else "failed"
                    return self._failed(outcome, gate, journal, tail, status, detail=verdict.detail)
            outcome.log_excerpt = self._read_journal(handle)[1]
            if live.bench_figures:
                outcome.resolved["__bench__"] = dict(live.bench_figures)
            return outcome
        finally:
            if watch.restarts:
                self.emit(Notice(f"the watcher's connection dropped {watch.restarts} time(s); reconnected and went on"))
            watch.close()
            self._stop_launched()

    # --- who answers on the candidate's port --------------------------------------------
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

    def _blocked(self, outcome: _Outcome, gate: Gate, detail: str, *, emitted: bool = False) -> _Outcome:
        """The host would not let the candidate be judged: never a pass, never the config's
        fault; the run ends with it (every candidate would meet the same port)."""
        if not emitted:
            verdict = GateVerdict(gate, False, 0.0, detail)
            outcome.verdicts.append(verdict)
            self.emit(GateDone(verdict))
        outcome.state = AttemptState.BLOCKED
        outcome.failure = Failure(gate, None, "", "PortTaken", detail, host_fault=True)
        self._fatal = PortTaken(detail + "; stop it, or give the candidate another port (launch.args.port)")
        return outcome

    def _stop_conflicts(self) -> None:
        """Before the first launch: stop the units that hold the same GPUs and port."""
        if self._conflicts_handled or not self.config.service.conflicts:
            return
        self._conflicts_handled = True
        stop_units = getattr(self.services, "stop_units", None)
        if stop_units is not None:
            self._stopped_units = list(stop_units(self.config.service.conflicts))
            if self._stopped_units:
                self.emit(Notice(f"stopped {', '.join(self._stopped_units)} (same GPUs); restarted at the end"))

    def _stop_launched(self) -> None:
        handle, self._launched_handle = self._launched_handle, None
        if handle is not None:
            self.services.stop(handle, grace=30.0)

    # --- one candidate per host ---------------------------------------------------------
    def _next_batch(self, run: Run, version: str, budget: int) -> list[tuple[Pick, Runner]]:
        """The best untried candidates, as many as there are hosts (and budget)."""
        batch: list[tuple[Pick, Runner]] = []
        for worker in self.workers[: max(budget, 1)]:
            pick = self.search.ask()
            if pick is None:
                break
            batch.append((pick, worker))
        return batch

    def _run_batch(self, run: Run, batch: list[tuple[Pick, Runner]], version: str) -> list[tuple[Pick, Attempt]]:
        """Each pick on its own host at the same time; outcomes told in pick order, so the
        search is deterministic for a given order of outcomes."""
        if len(batch) == 1:
            pick, _ = batch[0]
            return [(pick, self._attempt(run, pick, version))]
        begun = [(pick, worker, self._begin(run, pick, version, worker)) for pick, worker in batch]
        with ThreadPoolExecutor(max_workers=len(begun)) as pool:
            futures = [pool.submit(w._outcome, run, a, p.candidate, version) for p, w, a in begun]
            try:
                outcomes = [future.result() for future in futures]
            except KeyboardInterrupt:
                self._interrupted([a for _, _, a in begun])
                raise
        self._check_cancelled([a for _, _, a in begun])
        return [(p, self._complete(run, a, p, o)) for (p, _, a), o in zip(begun, outcomes, strict=True)]

    # --- --explore: the fastest passing config -----------------------------------------
    def _explore(self, run: Run, pick: Pick, first: Attempt, version: str) -> tuple[Attempt, int, int]:
        """After the first pass, try speculative variants of it (steps, topk, draft tokens)
        the way SGLang's bench_speculative sweeps a grid, but only what passes preflight is
        launched; the fastest by the bench gate (single-stream tokens/s) wins."""
        variants = [
            (move, child)
            for move, child in explore_variants(pick.candidate, self.catalog)
            if child.key not in self.search.graph  # never the same candidate twice
        ]
        tried = launched = 0
        best = first
        while variants and launched < self.options.explore and tried < 4 * self.options.explore:
            # One variant per host at a time (all of them with --hosts).
            room = min(len(self.workers), self.options.explore - launched)
            chunk, variants = variants[:room], variants[room:]
            batch: list[tuple[Pick, Runner]] = []
            for (move, child), worker in zip(chunk, self.workers, strict=False):
                self.store.add_edges(run.id, pick.candidate.key, [(child, move, None)])
                self.search.restore(pick.candidate.key, Child(child, move, 0), None)
                self.search.mark(child.key, "running")
                batch.append((Pick(child, pick.candidate.key, move, pick.depth + 1), worker))
            for _, attempt in self._run_batch(run, batch, version):
                tried += 1
                launched += int(attempt.launched)
                if attempt.state is AttemptState.PASSED and _speed(attempt) > _speed(best):
                    best = attempt
        note = f"explored {tried} variant(s), {launched} launched: fastest is #{best.seq} at {_speed(best):.1f} tok/s"
        self.emit(Notice(note + f" (first pass #{first.seq}: {_speed(first):.1f} tok/s)"))
        return best, tried, launched

    # --- the candidate cache ---------------------------------------------------------
    def _cached(self, candidate: Candidate, version: str) -> Attempt | None:
        """An earlier attempt of this very candidate on this host and target version."""
        if not self.use_cache:
            return None
        return self.store.cached(candidate.key, self.options.host_label, version, self.plan)

    def _from_cache(self, cached: Attempt) -> _Outcome:
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
        outcome = _Outcome(
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

    # --- resume ------------------------------------------------------------------------
    def _result(self, run: Run, attempts: int, launches: int, winner: Attempt | None) -> RunResult:
        """The outcome, with what the winner changed against the base (both as the store
        keeps them: secrets redacted)."""
        if winner is None:
            return RunResult(run, attempts, launches, None)
        base = self.config.base.redacted()
        respelled = renames(self.store.path_moves(winner))
        return RunResult(
            run,
            attempts,
            launches,
            winner,
            tuple(gave_up(base, winner.candidate, respelled)),
            tuple(added(base, winner.candidate, respelled)),
        )

    def _passed_before(self, run: Run, done: Sequence[Attempt]) -> RunResult | None:
        """A run killed after its winner passed and before it was closed ends with that
        winner: the pass is final (searching on would launch again and could export
        another winner). With --explore's variants, the fastest pass."""
        passed = [a for a in done if a.state is AttemptState.PASSED]
        if not passed:
            return None
        best = max(passed, key=lambda a: (_speed(a), -a.seq))
        self.emit(Notice(f"run {run.id}: attempt #{best.seq} had already passed; the run ends with it"))
        final = self.store.finish_run(run.id, RunStatus.PASSED, best.id)
        return self._result(final, len(done), sum(a.launched for a in done), best)

    def _resume(self, run: Run) -> Run:
        """Continue a run a dead (or stopped) controller left: what was running is
        interrupted and stopped on the host, and the search graph is rebuilt."""
        for lost in self.store.interrupt_running(run.id):
            service = self.store.service_of(lost.id)
            if service is not None:
                handle = _service_handle(service)
                with contextlib.suppress(HostError):
                    self.services.stop(handle, grace=30.0)
                self.emit(
                    Notice(f"attempt #{lost.seq} was left running; stopped {handle.name} and marked it interrupted")
                )
            else:
                self.emit(Notice(f"attempt #{lost.seq} was left running; marked it interrupted"))
        self._rebuild(run)
        return self.store.reopen_run(run.id)

    def _rebuild(self, run: Run) -> None:
        """The search graph from the store: every attempt's candidate is the base with its
        recorded moves replayed (the store keeps secrets redacted; the base has them)."""
        base = self.config.base
        by_id: dict[int, Candidate] = {}
        real: dict[str, Candidate] = {base.key: base}
        for a in self.store.attempts(run.id):
            candidate = base if a.parent_id is None or a.move is None else apply(by_id[a.parent_id], a.move)
            if candidate.key != _stored_key(self.store, a):
                raise InputError(
                    f"{self.config.source}: not the base config run {run.id} started from "
                    f"(attempt #{a.seq} does not replay); resume with the same --base"
                )
            by_id[a.id] = candidate
            real[candidate.key] = candidate
            self._attempt_of_key[candidate.key] = a.id
        for edge in self.store.edges(run.id):
            parent = real.get(edge.parent_key)
            if parent is None:
                continue
            child = apply(parent, edge.move)
            real[child.key] = child
            self.search.restore(edge.parent_key, Child(child, edge.move, edge.rank), edge.class_id)
        for a in self.store.attempts(run.id):
            key = by_id[a.id].key
            self.search.mark(key, a.state.value)
            if not a.state.judges_config:
                self.search.requeue(key)

    def _raise_fatal(self) -> None:
        """End the search with the host fault an attempt met (recorded by now)."""
        for worker in self.workers:
            fatal, worker._fatal = worker._fatal, None
            if fatal is not None:
                raise fatal

    def _after_host_lost(self, pick: Pick) -> None:
        """Try the candidate again once the host answers; give up if it does not."""
        key = pick.candidate.key
        self._lost_counts[key] = self._lost_counts.get(key, 0) + 1
        try:
            self.host.run(["true"], timeout=60)
        except HostError as exc:
            raise HostLost(f"{self.host.name}: the host is gone: {exc}") from exc
        if self._lost_counts[key] <= 1:
            self.search.requeue(key)
            self.emit(Notice(f"the host lost attempt's candidate {pick.candidate.short}; it will be tried again"))

    def _failing_source(self, diagnosis: Diagnosis) -> str | None:
        """For a failure no class knows: the failing frame's file as installed on the host,
        so inference can read the whole failing statement and the branches around it."""
        frame = diagnosis.subject.frame
        if diagnosis.failure_class is not None or frame is None or not frame.file.endswith(".py"):
            return None
        if frame.file not in self._sources:
            try:
                data = self.host.read(frame.file, limit=SOURCE_LIMIT)
            except HostError:
                data = b""
            self._sources[frame.file] = data.decode("utf-8", errors="replace") if data else None
        return self._sources[frame.file]

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
        self, outcome: _Outcome, gate: Gate, journal: Journal, tail: str, status: str, detail: str = ""
    ) -> _Outcome:
        fallback = ("Timeout", detail) if status == "timeout" else ("ProcessExit", detail or status)
        diagnosis = classify(journal, self.catalog, gate, package=self.target.family, fallback=fallback)
        outcome.state = AttemptState.TIMEOUT if status == "timeout" else AttemptState.FAILED
        outcome.diagnosis = diagnosis
        outcome.failure = diagnosis.failure
        outcome.log_excerpt = tail
        return outcome

    def _host_lost(self, outcome: _Outcome, gate: Gate, detail: str) -> _Outcome:
        outcome.state = AttemptState.HOST_LOST
        outcome.failure = Failure(gate, None, "", "HostLost", detail, host_fault=True)
        return outcome


def _service_record(handle: ServiceHandle) -> dict[str, Any]:
    return {"name": handle.name, "directory": handle.directory, "pid": handle.pid, "log_path": handle.log_path}


def _service_handle(record: dict[str, Any]) -> ServiceHandle:
    """The handle back from what ``_service_record`` stored."""
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


def _stored_key(store: Store, attempt: Attempt) -> str:
    """The key the store recorded for an attempt's candidate (of the unredacted candidate)."""
    return store.candidate_key(attempt.id)


def _speed(attempt: Attempt) -> float:
    bench = dict(attempt.resolved).get("__bench__")
    return float(bench.get("tokens_per_s", 0.0)) if isinstance(bench, dict) else 0.0


def explore_variants(winner: Candidate, catalog: Catalog) -> list[tuple[Move, Candidate]]:
    """Speculative variants of a passing candidate, closest to it first: num-steps over its
    domain with draft tokens = steps + 1 for a chain (topk 1), and wider trees (topk 2, 4)."""
    if winner.arg("speculative-algorithm") is None:
        return _vllm_variants(winner)
    steps_domain = sorted({int(v) for v in catalog.domains.get("speculative-num-steps", (1, 2, 3, 5))} | {4})
    out: list[tuple[int, int, Move, Candidate]] = []
    for topk in (1, 2, 4):
        for steps in steps_domain:
            draft = steps + 1 if topk == 1 else min(topk * steps, 16)
            wanted = {
                "speculative-num-steps": str(steps),
                "speculative-eagle-topk": str(topk),
                "speculative-num-draft-tokens": str(draft),
            }
            edits = tuple(Edit(EditOp.SET, f, v) for f, v in wanted.items() if winner.arg(f) != v)
            if not edits:
                continue
            move = Move(edits, inferred=False, origin="explore")
            child = apply(winner, move)
            current = int(str(winner.arg("speculative-num-steps") or 3))
            out.append((len(edits), abs(steps - current), move, child))
    out.sort(key=lambda item: (item[0], item[1]))
    return [(move, child) for _, _, move, child in out]


def _vllm_variants(winner: Candidate) -> list[tuple[Move, Candidate]]:
    """vLLM: more or fewer draft tokens per step (one key of --speculative-config), nearest first."""
    if json_object(winner.arg("speculative-config")) is None:
        return []
    current = winner.json_key("speculative-config", "num_speculative_tokens")
    now = int(current) if isinstance(current, int) and not isinstance(current, bool) else 3
    out = []
    for tokens in sorted((n for n in range(1, 8) if n != now), key=lambda n: (abs(n - now), n)):
        move = Move(
            (Edit(EditOp.SET_KEY, "speculative-config", tokens, key="num_speculative_tokens"),), origin="explore"
        )
        out.append((move, apply(winner, move)))
    return out
