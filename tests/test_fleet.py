"""The fleet's scheduling (autofix/fleet.py): each host takes the next base, a host that
fails drops out, Ctrl-C cancels every running search. The searches here are stand-ins
that only record where and when they ran; the real searches are in
tests/integration/test_fleet_cli.py."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from autofix.errors import HostUnreachable, InputError
from autofix.fleet import Fleet
from autofix.run import Runner


@dataclass
class Search:
    index: int
    host: str
    log: list[tuple[int, str]]
    fail: BaseException | None = None
    hold: threading.Event | None = None
    cancelled: threading.Event = field(default_factory=threading.Event)

    def run(self) -> Any:
        self.log.append((self.index, self.host))
        if self.hold is not None:
            # A long search: it only ends when cancelled, as Runner.run does after cancel().
            while not self.cancelled.wait(0.01):
                pass
            raise KeyboardInterrupt
        time.sleep(0.01)
        if self.fail is not None:
            raise self.fail
        return f"result {self.index}"

    def cancel(self) -> None:
        self.cancelled.set()


def fleet(count: int, hosts: list[str], **failures: BaseException) -> tuple[Fleet[str], list[tuple[int, str]]]:
    log: list[tuple[int, str]] = []

    def make(index: int, host: str) -> Runner:
        fail = failures.get(f"{host}_{index}")
        return cast(Runner, Search(index, host, log, fail))

    return Fleet(count, hosts, make), log


def test_every_base_runs_once_in_order_over_all_hosts() -> None:
    f, log = fleet(9, ["a", "b", "c"])
    results = f.run()
    assert [r.index for r in results] == list(range(9))
    assert sorted(i for i, _ in log) == list(range(9))  # each base exactly once
    assert {h for _, h in log} == {"a", "b", "c"}  # every host took work
    assert [cast(Any, r.result) for r in results] == [f"result {i}" for i in range(9)]


def test_a_host_that_fails_drops_out_and_the_others_finish() -> None:
    f, log = fleet(6, ["a", "b"], a_0=HostUnreachable("a: connection refused"))
    results = f.run()
    assert results[0].error is not None and results[0].exit_code == 3
    assert [h for i, h in log if i > 0] == ["b"] * 5  # a took nothing after its failure
    assert all(r.result is not None for r in results[1:])


def test_an_input_error_ends_that_base_only() -> None:
    f, log = fleet(3, ["a"], a_1=InputError("bad"))
    results = f.run()
    assert results[1].exit_code == 2 and results[1].result is None
    assert results[0].result is not None and results[2].result is not None
    assert [i for i, _ in log] == [0, 1, 2]


def test_cancel_stops_every_running_search() -> None:
    hold = threading.Event()
    searches: list[Search] = []
    log: list[tuple[int, str]] = []

    def make(index: int, host: str) -> Runner:
        search = Search(index, host, log, hold=hold)
        searches.append(search)
        return cast(Runner, search)

    f: Fleet[str] = Fleet(5, ["a", "b"], make)
    timer = threading.Timer(0.2, f.cancel)
    timer.start()
    results = f.run()
    timer.join()
    assert len(searches) == 2 and all(s.cancelled.is_set() for s in searches)
    assert [r.interrupted for r in results[:2]] == [True, True]
    assert all(r.skipped for r in results[2:])  # never started
    assert {r.exit_code for r in results[:2]} == {130}


def test_a_bug_in_a_search_surfaces() -> None:
    f, _ = fleet(2, ["a"], a_0=ZeroDivisionError("bug"))
    with pytest.raises(ZeroDivisionError):
        f.run()
