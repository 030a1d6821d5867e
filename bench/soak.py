"""Benchmark: a soak, 300 attempts in ONE run (one ``Runner.run()``) on the sim host.

Prints, side by side, the controller's resident memory (RSS), open file descriptors
(``/proc/self/fd``) and threads at the start, after the warm-up (attempt 10) and at the
end, the attempts and launches done, then what the run left behind: candidate processes
still running (the supervisor, the launcher, its ranks; must be 0) and zombies.

How 300 attempts come out of one run, honestly
----------------------------------------------

A real search ends long before 300: the frontier is finite (a candidate is never handed
out twice, ``use_cache`` or not), and the richest base found, the seed with
``mem-fraction-static: 0.95`` pinned with the other memory flags, gives 21 attempts (13
launches) and then "no repair moves left to try". So this bench drives the real Runner
with one purpose-built policy, :class:`EpisodeSearch`: the real best-first
:class:`autofix.search.Search` (its ask/tell, priorities and the catalogue's moves,
untouched), except that when its frontier is empty it starts an *episode* again from the
base plus an inert ``--random-seed N``, so the new candidates have new keys and the run
goes on. Everything else is the product's own code path: preflight in the warm probe,
launches under the process supervisor, the watcher channel, the HTTP gates, reading and
classifying the journal, repair proposals, the store.

Each episode mixes both kinds of attempt, about 8 preflight-only failures (the seed's
bare AssertionError, the topk/page-size check) and 13 launches that die soon after
launch: the simulated CUDA OOM at graph capture (mem-fraction-static 0.95, pinned with
cuda-graph-max-bs and disable-cuda-graph, so no move can fix it). The port is pinned too
and the bench holds it bound for the whole soak: should the sim ever serve one of these
candidates, its HTTP server cannot bind and the launch still fails, so the soak cannot
end early on a pass. ``use_cache=False``, as in bench/search.py.

Memory is sampled after every attempt; the line the figures stand on is the growth per
attempt after the warm-up (a least-squares slope), since the store and the search graph
legitimately grow a little with every attempt.

    python bench/soak.py [--attempts 300] [--load 0.2] [--every 25] [--trace]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import socket
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from autofix import logs
from autofix.catalog import load_catalog
from autofix.config import BaseConfig, parse_base
from autofix.hosts.local import LocalHost
from autofix.model import AttemptState, Gate
from autofix.run import AttemptDone, Event, Runner, SearchOptions
from autofix.search import Pick, Search
from autofix.store import open_store
from autofix.targets import make_target

ROOT = Path(__file__).resolve().parent.parent
WARMUP = 10
GATES = (Gate.PREFLIGHT, Gate.START, Gate.READY, Gate.SMOKE)
# Flags no move may touch: the memory flags keep the OOM unfixable, the port stays the
# one the bench holds.
PINNED_EXTRA = ("mem-fraction-static", "cuda-graph-max-bs", "disable-cuda-graph", "port", "host")


# --- the policy that keeps one run going ------------------------------------------------


class EpisodeSearch(Search):
    """The real search; when its frontier is empty, an episode starts again from the
    base with ``--random-seed N`` (inert for the failure, new candidate keys)."""

    def __init__(self, base_candidate: object, **kwargs: object) -> None:
        super().__init__(base_candidate, **kwargs)  # type: ignore[arg-type]
        self.episodes = 1

    def ask(self) -> Pick | None:
        pick = super().ask()
        if pick is not None:
            return pick
        self.episodes += 1
        again = self.base.with_arg("random-seed", str(self.episodes))
        self._add(again, parent=None, move=None, class_id=None, rank=0, depth=0)
        return super().ask()


def soak_config(port: int) -> BaseConfig:
    """The seed's deployment, broken twice: in preflight (topk 4 without num-steps) and
    after launch (mem-fraction-static 0.95: CUDA OOM at graph capture), no bench gate."""
    data = yaml.safe_load((ROOT / "bench" / "corpus" / "seed.yaml").read_text())
    data["name"] = "soak"
    data["launch"]["args"].update({"mem-fraction-static": 0.95, "host": "127.0.0.1", "port": port})
    data["search"]["pinned"] = [*data["search"]["pinned"], *PINNED_EXTRA]
    return parse_base(yaml.safe_dump(data, sort_keys=False), source="soak.yaml")


# --- what the controller holds ----------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    attempts: int
    launches: int
    rss_mb: float
    fds: int
    threads: int
    seconds: float


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def sample(attempts: int, launches: int, started: float) -> Sample:
    return Sample(attempts, launches, rss_mb(), open_fds(), threading.active_count(), time.monotonic() - started)


# --- what the run left on the host ------------------------------------------------------


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    state: str
    start_ticks: int
    cmd: str


def _procs() -> Iterator[Proc]:
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                stat = fh.read()
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmd = fh.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        rest = stat[stat.rfind(")") + 2 :].split()
        yield Proc(int(entry), int(rest[1]), rest[0], int(rest[19]), cmd)


def _environ_has(pid: int, marker: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return marker in fh.read().split(b"\0")
    except OSError:
        return False


def left_running(tmpdir: str) -> list[Proc]:
    """Processes started for the soak that are still alive: every candidate process
    (supervisor, launcher, ranks, forkserver) inherits the bench's own TMPDIR."""
    marker = f"TMPDIR={tmpdir}".encode()
    me = os.getpid()
    return [p for p in _procs() if p.pid != me and p.state != "Z" and _environ_has(p.pid, marker)]


def zombies(since_ticks: int) -> list[Proc]:
    """Zombies born after ``since_ticks`` (a zombie's environ is gone, so any parent)."""
    return [p for p in _procs() if p.state == "Z" and p.start_ticks >= since_ticks]


def orphan_zombies(since_ticks: int, timeout: float = 10.0) -> tuple[int, list[Proc]]:
    """Zombies reparented to PID 1 right after the run, and those still there once PID 1
    had ``timeout`` s to reap them. Candidates are orphans by design (the supervisor
    detaches from the command that started it, the ranks outlive nothing), so their exits
    are PID 1's to collect; on a shared machine other users' orphans count here too."""
    first = [p for p in zombies(since_ticks) if p.ppid == 1]
    deadline = time.monotonic() + timeout
    left = first
    while left and time.monotonic() < deadline:
        time.sleep(0.5)
        pids = {p.pid for p in zombies(since_ticks) if p.ppid == 1}
        left = [p for p in left if p.pid in pids]
    return len(first), left


def boot_ticks_now() -> int:
    """Now, in the clock ticks since boot that /proc/PID/stat's starttime uses."""
    with open("/proc/uptime") as fh:
        uptime = float(fh.read().split()[0])
    return int(uptime * os.sysconf("SC_CLK_TCK"))


def settle(tmpdir: str, timeout: float = 10.0) -> list[Proc]:
    """What is still running once the supervisors had time to finish (0.5 s after an exit)."""
    deadline = time.monotonic() + timeout
    while True:
        alive = left_running(tmpdir)
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.2)


# --- the soak -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SoakResult:
    attempts: int
    launches: int
    episodes: int
    start: Sample
    warm: Sample
    end: Sample
    samples: tuple[Sample, ...]
    recorded: int  # attempt rows in the store
    unfinished: int  # rows still "running"
    duplicate_seqs: int
    passed: int
    states: dict[str, int]
    left: tuple[Proc, ...]
    own_zombies: tuple[Proc, ...]  # the controller's own un-reaped children: autofix's bug
    orphan_zombies: int  # reparented to PID 1 at the end of the run
    orphan_zombies_left: tuple[Proc, ...]  # ... and still there after PID 1's grace
    seconds: float

    def slope(self, attr: str, start: int = WARMUP) -> float:
        """Least-squares growth of ``attr`` per attempt from attempt ``start`` on."""
        points = [(s.attempts, float(getattr(s, attr))) for s in self.samples if s.attempts >= start]
        if len(points) < 2:
            return 0.0
        n = len(points)
        mx = sum(x for x, _ in points) / n
        my = sum(y for _, y in points) / n
        var = sum((x - mx) ** 2 for x, _ in points)
        return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


@dataclass
class _Tally:
    started: float
    attempts: int = 0
    launches: int = 0
    samples: list[Sample] = field(default_factory=list)
    on_sample: Callable[[Sample], None] | None = None

    def event(self, event: Event) -> None:
        if not isinstance(event, AttemptDone):
            return
        self.attempts += 1
        self.launches += int(event.attempt.launched)
        now = sample(self.attempts, self.launches, self.started)
        self.samples.append(now)
        if self.on_sample is not None:
            self.on_sample(now)


@contextlib.contextmanager
def held_port() -> Iterator[int]:
    """A port bound (not listening) for the whole soak: no candidate can serve on it."""
    sock = socket.socket()
    try:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])
    finally:
        sock.close()


def run_soak(
    attempts: int,
    *,
    load_s: float = 0.2,
    workdir: Path,
    on_sample: Callable[[Sample], None] | None = None,
) -> SoakResult:
    """One Runner.run() of ``attempts`` attempts; the sim's own TMPDIR must be ``workdir``."""
    assert os.environ.get("TMPDIR") == str(workdir), "run_soak needs TMPDIR set to its workdir"
    born = boot_ticks_now()
    started = time.monotonic()
    with held_port() as port:
        config = soak_config(port)
        store = open_store(f"sqlite:///{workdir / 'soak.db'}")
        options = SearchOptions(gates=GATES, max_attempts=attempts, max_time=24 * 3600, host_label="sim")
        tally = _Tally(started, on_sample=on_sample)
        runner = Runner(
            config,
            options,
            store=store,
            host=LocalHost(workdir=str(workdir / "host")),
            target=make_target("sim", config, sim_load_s=load_s),
            catalog=load_catalog(),
            events=tally.event,
            use_cache=False,
        )
        search = EpisodeSearch(config.base)
        runner.search = search
        first = sample(0, 0, started)
        result = runner.run()
        end = sample(result.attempts, result.launches, started)
    left = settle(str(workdir))
    own = [p for p in zombies(born) if p.ppid == os.getpid()]
    orphans, orphans_left = orphan_zombies(born)
    rows = store.attempts(result.run.id)
    seqs = [a.seq for a in rows]
    states: dict[str, int] = {}
    for a in rows:
        states[a.state.value] = states.get(a.state.value, 0) + 1
    warm = next((s for s in tally.samples if s.attempts == WARMUP), first)
    return SoakResult(
        attempts=result.attempts,
        launches=result.launches,
        episodes=search.episodes,
        start=first,
        warm=warm,
        end=end,
        samples=tuple(tally.samples),
        recorded=len(rows),
        unfinished=sum(not a.state.is_finished for a in rows),
        duplicate_seqs=len(seqs) - len(set(seqs)),
        passed=sum(a.state is AttemptState.PASSED for a in rows),
        states=states,
        left=tuple(left),
        own_zombies=tuple(own),
        orphan_zombies=orphans,
        orphan_zombies_left=tuple(orphans_left),
        seconds=time.monotonic() - started,
    )


# --- the report ---------------------------------------------------------------------------


def report(r: SoakResult) -> str:
    rows = [("start", r.start), (f"after attempt {WARMUP}", r.warm), ("end", r.end)]
    out = [f"{'':<20} {'attempts':>9} {'launches':>9} {'RSS MB':>8} {'open FDs':>9} {'threads':>8} {'wall s':>8}"]
    for name, s in rows:
        out.append(
            f"{name:<20} {s.attempts:>9} {s.launches:>9} {s.rss_mb:>8.1f} {s.fds:>9} {s.threads:>8} {s.seconds:>8.1f}"
        )
    grow_rss = r.end.rss_mb - r.warm.rss_mb
    grow_fds = r.end.fds - r.warm.fds
    out += [
        "",
        f"after warm-up: RSS {grow_rss:+.1f} MB ({r.slope('rss_mb') * 1024:+.1f} KB per attempt, least squares; "
        f"{r.slope('rss_mb', r.attempts // 2) * 1024:+.1f} KB over the second half), "
        f"FDs {grow_fds:+d} ({r.slope('fds'):+.3f} per attempt), "
        f"peak FDs {max(s.fds for s in r.samples)}, peak threads {max(s.threads for s in r.samples)}",
        f"record: {r.recorded} attempt rows for {r.attempts} attempts, {r.unfinished} unfinished, "
        f"{r.duplicate_seqs} duplicate seqs, states {r.states}; {r.episodes} episode(s)",
        f"left running after the run: {len(r.left)} candidate process(es)"
        + "".join(f"\n  pid {p.pid} ppid {p.ppid} {p.state} {p.cmd[:120]}" for p in r.left),
        f"zombies: {len(r.own_zombies)} children of the controller left un-reaped; "
        f"{r.orphan_zombies} orphans awaiting PID 1 at the end of the run, "
        f"{len(r.orphan_zombies_left)} still there 10 s later",
    ]
    return "\n".join(out)


def _trace_top(before: tracemalloc.Snapshot, limit: int = 12) -> None:
    gc.collect()
    after = tracemalloc.take_snapshot()
    print(f"\ntracemalloc: biggest growth since attempt {WARMUP} (by line)", file=sys.stderr)
    for stat in after.compare_to(before, "lineno")[:limit]:
        print(f"  {stat}", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attempts", type=int, default=300)
    parser.add_argument("--load", type=float, default=0.2, help="sim load time per launch (default 0.2 s)")
    parser.add_argument("--every", type=int, default=25, help="print a sample every N attempts (0: never)")
    parser.add_argument("--trace", action="store_true", help="tracemalloc: where memory grew after the warm-up")
    args = parser.parse_args()
    logs.configure()
    with tempfile.TemporaryDirectory(prefix="autofix-soak-") as tmp:
        os.environ["TMPDIR"] = tmp
        snapshot: list[tracemalloc.Snapshot] = []
        if args.trace:
            tracemalloc.start(8)

        def progress(s: Sample) -> None:
            if args.trace and s.attempts == WARMUP:
                gc.collect()
                snapshot.append(tracemalloc.take_snapshot())
            if snapshot and s.attempts == args.attempts:
                _trace_top(snapshot[0])  # inside the run: what the controller still holds
            if args.every and s.attempts % args.every == 0:
                print(
                    f"  {s.attempts:>4} attempts {s.launches:>4} launches  RSS {s.rss_mb:6.1f} MB  "
                    f"FDs {s.fds:>3}  threads {s.threads:>2}  {s.seconds:6.1f} s",
                    file=sys.stderr,
                    flush=True,
                )

        result = run_soak(args.attempts, load_s=args.load, workdir=Path(tmp), on_sample=progress)
        print(f"soak: {args.attempts} attempts in one Runner.run() on the sim host, load {args.load} s per launch")
        print(report(result))
    ok = (
        result.attempts == args.attempts
        and result.recorded == result.attempts
        and result.unfinished == 0
        and not result.left
        and not result.own_zombies
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
