"""The orchestrator: the only module that wires everything together.

    search.ask -> store.begin_attempt -> a host's executor (preflight probe -> launch ->
      gates -> journal -> tracebacks -> classify) -> repair -> search.tell -> store

One :class:`Runner` per ``autofix search``. It keeps the search, the record and the order
of outcomes; each host runs candidates through its :class:`~autofix.executor.HostExecutor`
(one, or one per host with ``--hosts``). It reports what happens through ``events`` (the
command line renders them); it never prints. Every attempt row is written before its
candidate runs and completed after, so a killed controller leaves a true record.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from .catalog import Catalog
from .config import BaseConfig, GatesConfig, parse_base
from .errors import ConfigError, HostError, InputError
from .events import AttemptDone, AttemptStarted, Event, GateDone, GateProgress, Notice, RunStarted
from .executor import HostExecutor, Outcome, hold
from .hosts.base import Host
from .locks import HostLock
from .logs import get_logger
from .model import (
    GATE_ORDER,
    Attempt,
    AttemptState,
    Candidate,
    Edit,
    EditOp,
    Gate,
    GatePlan,
    Move,
    Run,
    RunStatus,
    added,
    gave_up,
    json_object,
    renames,
)
from .preflight import Preflight
from .renames import base_warnings
from .repair import apply, caused_by, propose_outward
from .search import Child, Pick, Search
from .secrets import keep_out, kept_out, known_secret_flags, secret_flags_from_parser
from .services import ServiceManager
from .store import Store
from .targets import Target

__all__ = [
    "AttemptDone",
    "AttemptStarted",
    "Event",
    "GateDone",
    "GateProgress",
    "Notice",
    "RunResult",
    "RunStarted",
    "Runner",
    "SearchOptions",
    "default_gates",
    "explore_variants",
    "gate_plan",
    "require_launch_paths",
]

log = get_logger("autofix.run")


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


def require_launch_paths(host: Host, config: BaseConfig) -> None:
    """``launch.cwd`` and every required ``launch.env_files`` entry exist on the host: a
    config error found before anything runs, not a start that fails on every candidate."""
    cwd = config.launch.cwd
    if cwd and not host.run(["test", "-d", cwd], timeout=30).ok:
        raise ConfigError(config.source, "launch.cwd", f"{cwd}: no such directory on {host.name}")
    for i, path in enumerate(config.launch.env_files):
        if not path.startswith("-") and not host.run(["test", "-e", path], timeout=30).ok:
            raise ConfigError(config.source, f"launch.env_files[{i}]", f"{path}: no such file on {host.name}")


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


class Runner:
    """One search: the graph, the record, and the hosts that run its candidates."""

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
        # From here on the store, the logs and the terminal show none of the config's secrets.
        keep_out(config.secrets)
        self.options = options
        self.store = store
        self.catalog = catalog
        self.events_sink = events
        self.emit = events
        self.use_lock = lock
        self.resume_run = resume_run
        self.use_cache = use_cache
        # Moves that fixed a failure class before (any run in this store) are tried first.
        self.search = Search(
            config.base,
            success_rates=store.move_stats(),
            gpu_counts=catalog.gpu_count_spellings(),
            gpu_shares=catalog.gpu_share_spellings(),
        )
        self.plan = gate_plan(options.gates, config.gates)
        self._attempt_of_key: dict[str, int] = {}
        self._sources: dict[str, str | None] = {}  # failing source files, shared by the hosts
        self._emit_lock = threading.Lock()
        # Set from another thread (a fleet of searches on Ctrl-C): the search ends as if
        # interrupted, after stopping what it launched.
        self._cancelled = threading.Event()
        self.executors: list[HostExecutor] = []
        self.add_host(host, target, options.host_label, services=services, preflight=preflight)

    @property
    def executor(self) -> HostExecutor:
        """The first host's: it starts the probe the run's version and parser come from."""
        return self.executors[0]

    def add_host(
        self,
        host: Host,
        target: Target,
        label: str,
        *,
        services: ServiceManager | None = None,
        preflight: Preflight | None = None,
    ) -> HostExecutor:
        """Another host for the frontier (--hosts): it runs candidates, this runner decides."""
        executor = HostExecutor(
            self.config,
            host=host,
            target=target,
            label=label,
            store=self.store,
            catalog=self.catalog,
            plan=self.plan,
            emit=lambda event: self.emit(event),
            services=services,
            preflight=preflight,
            use_cache=self.use_cache,
            sources=self._sources,
        )
        self.executors.append(executor)
        return executor

    def cancel(self) -> None:
        """Stop this search from another thread: what it launched is stopped now, the
        attempt in flight is recorded ``interrupted`` and ``run()`` raises KeyboardInterrupt,
        exactly as after Ctrl-C in a single search."""
        self._cancelled.set()
        for executor in self.executors:
            with contextlib.suppress(HostError):
                executor.stop_launched()

    def _check_cancelled(self, attempts: Sequence[Attempt] = ()) -> None:
        if self._cancelled.is_set():
            self._interrupted(attempts)
            raise KeyboardInterrupt

    def _emit_safely(self, event: Event) -> None:
        with self._emit_lock:
            self.events_sink(event)

    # --- the loop --------------------------------------------------------------------
    def run(self) -> RunResult:
        """The whole search, under each host's lock for this unit."""
        if len(self.executors) > 1:
            self.emit = self._emit_safely
        held: list[HostLock] = []
        try:
            for executor in self.executors if self.use_lock else []:
                lock = executor.lock(self.config.unit)
                held.append(lock)
                if lock.stale:
                    who = f"{lock.stale.get('controller', '?')} (pid {lock.stale.get('pid')})"
                    self.emit(Notice(f"took over a stale lock on {self.config.unit} left by {who}"))
            return self._run()
        finally:
            # Also after Ctrl-C or an error: the production service comes back.
            for executor in self.executors:
                executor.restore_units()
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
                # Never the user's text: the config written again with its secrets redacted.
                base_text=self.config.stored_text,
                host=self.options.host_label,
                target=self.executor.target.kind,
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
            version = self._start(run, started)
            while True:
                self._check_cancelled()
                if attempts - spared >= self.options.max_attempts:
                    self.emit(Notice(f"budget spent: {attempts - spared} attempts (max {self.options.max_attempts})"))
                    break
                if time.monotonic() - started >= self.options.max_time:
                    self.emit(Notice(f"budget spent: {self.options.max_time:.0f} s"))
                    break
                batch = self._next_batch(self.options.max_attempts - attempts + spared)
                if not batch:
                    self.emit(Notice("no repair moves left to try"))
                    break
                done_batch = self._run_batch(run, batch, version)
                passed = None
                for (pick, attempt), (_, executor) in zip(done_batch, batch, strict=True):
                    attempts += 1
                    launches += int(attempt.launched)
                    if attempt.state is AttemptState.HOST_LOST:
                        self._after_host_lost(pick, executor)
                    if attempt.state is AttemptState.PASSED and passed is None:
                        passed = (pick, attempt)
                if passed is None:
                    self._raise_fatal()
                if passed is not None:
                    pick, attempt = passed
                    winner = attempt
                    status = RunStatus.PASSED
                    hold("passed")
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
            for executor in self.executors:
                executor.close()
            final = self.store.finish_run(run.id, status, winner.id if winner else None)
        return self._result(final, attempts, launches, winner)

    def _start(self, run: Run, started: float) -> str:
        """The probe started (the host's version and parser known), the run announced;
        the target version."""
        version = "unknown"
        executor = self.executor
        simulated = executor.target.simulated
        if Gate.PREFLIGHT in self.options.gates:
            info = executor.preflight.info or executor.preflight.start()
            version, simulated = info.version, info.simulated
            self.store.set_run_version(run.id, version)
            # Flag facts and renames follow the parser the host runs, any version.
            self.catalog = self.catalog.with_parser(info.parser, version)
            for each in self.executors:
                each.catalog = self.catalog
            self._learn_secrets(run, info.parser)
        self.emit(RunStarted(run, version, simulated, self.options.max_attempts, started))
        for line in base_warnings(self.config.base, self.catalog, version):
            self.emit(Notice(line))
        log.info("run.start", run=run.id, host=self.options.host_label, target=executor.target.kind, version=version)
        if self.config.service.conflicts and not hasattr(executor.services, "stop_units"):
            # Only a systemd host has the production units to stop.
            self.emit(
                Notice(
                    f"service.conflicts ({', '.join(self.config.service.conflicts)}) not stopped: "
                    f"{self.options.host_label} runs candidates with the process manager, not systemd"
                )
            )
        return version

    def _learn_secrets(self, run: Run, parser: dict[str, Any]) -> None:
        """The host's parser may document flags as secrets that strategies' facts do not
        know (another version): from its answer on, before any attempt is written or
        launched, they are kept out of every sink and off every command line; a base that
        holds one has its stored text written again without it."""
        learned = secret_flags_from_parser(parser) - self.config.secrets.flags
        if not learned:
            return
        secrets = self.config.secrets.with_flags(learned, self.config.base)
        keep_out(secrets)
        for executor in self.executors:
            executor.target = replace(executor.target, secrets=secrets)
        if any(flag in learned for flag, _ in self.config.base.args):
            again = parse_base(
                self.config.text,
                source=self.config.source,
                default_name=self.config.name,
                secret_flags=known_secret_flags() | learned,
            )
            self.store.redact_base_text(run.id, again.stored_text)

    def _attempt(self, run: Run, pick: Pick, version: str, executor: HostExecutor) -> Attempt:
        attempt = self._begin(run, pick, version, executor)
        try:
            outcome = executor.outcome(run, attempt, pick.candidate, version)
        except KeyboardInterrupt:
            self._interrupted([attempt])
            raise
        self._check_cancelled([attempt])
        return self._complete(run, attempt, pick, outcome, executor)

    def _begin(self, run: Run, pick: Pick, version: str, executor: HostExecutor) -> Attempt:
        """The attempt row, written before anything runs (on ``executor``'s host)."""
        candidate = pick.candidate
        parent_id = self._attempt_of_key.get(pick.parent_key) if pick.parent_key else None
        attempt = self.store.begin_attempt(
            run.id,
            candidate,
            parent_id=parent_id,
            move=pick.move,
            host=executor.label,
            target_version=version,
            plan=self.plan,
        )
        self._attempt_of_key[candidate.key] = attempt.id
        self.emit(AttemptStarted(attempt, pick))
        log.info("attempt.start", run=run.id, seq=attempt.seq, move=pick.move.label() if pick.move else None)
        return attempt

    def _interrupted(self, attempts: Sequence[Attempt]) -> None:
        """Ctrl-C: every host stops what it launched; the attempts are recorded as such."""
        for executor in self.executors:
            with contextlib.suppress(HostError):
                executor.stop_launched()
        for attempt in attempts:
            done = self.store.finish_attempt(attempt.id, state=AttemptState.INTERRUPTED, verdicts=[], failure=None)
            self.emit(AttemptDone(done, 0))

    def _complete(self, run: Run, attempt: Attempt, pick: Pick, outcome: Outcome, executor: HostExecutor) -> Attempt:
        """Repairs for a failure, the search told, the attempt completed: in pick order."""
        candidate = pick.candidate
        children: list[Child] = []
        if outcome.state is AttemptState.FAILED and outcome.diagnosis is not None:
            proposals = propose_outward(
                candidate,
                outcome.diagnosis,
                self.catalog,
                executor.source_at,
                pinned=self.config.search.pinned,
                resolved=outcome.resolved,
            )
            children = [Child(p.child, p.move, p.rank, p.gives_up) for p in proposals]
            class_id = outcome.diagnosis.failure.class_id
            self.store.add_edges(run.id, candidate.key, [(c.candidate, c.move, class_id) for c in children])
            message = outcome.diagnosis.subject.said or ""
            caused = pick.move is not None and caused_by(pick.move, message, self.catalog)
            self.search.tell(
                candidate.key, outcome.state.value, children, class_id, outcome.diagnosis.failure.fingerprint, caused
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

    # --- one candidate per host ---------------------------------------------------------
    def _next_batch(self, budget: int) -> list[tuple[Pick, HostExecutor]]:
        """The best untried candidates, as many as there are hosts (and budget)."""
        batch: list[tuple[Pick, HostExecutor]] = []
        for executor in self.executors[: max(budget, 1)]:
            pick = self.search.ask()
            if pick is None:
                break
            batch.append((pick, executor))
        return batch

    def _run_batch(self, run: Run, batch: list[tuple[Pick, HostExecutor]], version: str) -> list[tuple[Pick, Attempt]]:
        """Each pick on its own host at the same time; outcomes told in pick order, so the
        search is deterministic for a given order of outcomes."""
        if len(batch) == 1:
            pick, executor = batch[0]
            return [(pick, self._attempt(run, pick, version, executor))]
        begun = [(pick, executor, self._begin(run, pick, version, executor)) for pick, executor in batch]
        with ThreadPoolExecutor(max_workers=len(begun)) as pool:
            futures = [pool.submit(e.outcome, run, a, p.candidate, version) for p, e, a in begun]
            try:
                outcomes = [future.result() for future in futures]
            except KeyboardInterrupt:
                self._interrupted([a for _, _, a in begun])
                raise
        self._check_cancelled([a for _, _, a in begun])
        return [(p, self._complete(run, a, p, o, e)) for (p, e, a), o in zip(begun, outcomes, strict=True)]

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
            room = min(len(self.executors), self.options.explore - launched)
            chunk, variants = variants[:room], variants[room:]
            batch: list[tuple[Pick, HostExecutor]] = []
            for (move, child), executor in zip(chunk, self.executors, strict=False):
                self.store.add_edges(run.id, pick.candidate.key, [(child, move, None)])
                self.search.restore(pick.candidate.key, Child(child, move, 0), None)
                self.search.mark(child.key, "running")
                batch.append((Pick(child, pick.candidate.key, move, pick.depth + 1), executor))
            for _, attempt in self._run_batch(run, batch, version):
                tried += 1
                launched += int(attempt.launched)
                if attempt.state is AttemptState.PASSED and _speed(attempt) > _speed(best):
                    best = attempt
        note = f"explored {tried} variant(s), {launched} launched: fastest is #{best.seq} at {_speed(best):.1f} tok/s"
        self.emit(Notice(note + f" (first pass #{first.seq}: {_speed(first):.1f} tok/s)"))
        return best, tried, launched

    def _result(self, run: Run, attempts: int, launches: int, winner: Attempt | None) -> RunResult:
        """The outcome, with what the winner changed against the base (both as the store
        keeps them: secrets redacted)."""
        if winner is None:
            return RunResult(run, attempts, launches, None)
        base = kept_out().redact(self.config.base)  # every secret the run knows, flags included
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
                name = self.executor.stop_left(service)
                self.emit(Notice(f"attempt #{lost.seq} was left running; stopped {name} and marked it interrupted"))
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
        for executor in self.executors:
            if (fatal := executor.take_fatal()) is not None:
                raise fatal

    def _after_host_lost(self, pick: Pick, executor: HostExecutor) -> None:
        """Try the candidate again once the host answers; give up if it does not."""
        if not executor.lost_again(pick.candidate):
            self.search.requeue(pick.candidate.key)
            self.emit(Notice(f"the host lost attempt's candidate {pick.candidate.short}; it will be tried again"))


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
