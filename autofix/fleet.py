"""Several base configs over several hosts: each free host takes the next base and runs
its whole search there, under its own lock, until no base is left.

Why whole searches and not candidates: with preflight, one search launches about one
candidate (the rest die in SGLang's argument validation in milliseconds), so the frontier
of a single search has little to spread over hosts. An operator with a batch of broken
configs (one per model, per node type …) and a few idle hosts gets the parallelism from
the configs. With one base, ``--hosts`` keeps its other meaning: that search's frontier,
one candidate per host (``Runner.add_host``, a ``HostExecutor`` per host).

The scheduling is here, the searches are ``Runner``s built by the caller; hosts are the
caller's too (this module opens nothing).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .errors import AutofixError, HostError
from .run import Runner, RunResult

H = TypeVar("H")


@dataclass(frozen=True)
class FleetResult:
    """What became of one base: its search's result, or the error that ended it, or
    neither (``skipped``: every host had failed before its turn came)."""

    index: int
    host: str | None
    result: RunResult | None = None
    error: AutofixError | None = None
    interrupted: bool = False

    @property
    def skipped(self) -> bool:
        return self.result is None and self.error is None and not self.interrupted

    @property
    def exit_code(self) -> int:
        if self.interrupted:
            return 130
        if self.error is not None:
            return self.error.exit_code
        if self.result is None:
            return 1
        return self.result.run.status.exit_code


class Fleet(Generic[H]):
    """Run ``count`` searches over ``hosts``, one search per host at a time, in base order.

    ``make(index, host)`` builds the Runner of base ``index`` on ``host``; ``label(host)``
    names a host in the results. A host whose search fails with a HostError (unreachable,
    lost, no SGLang) takes no further base: its base is reported with the error and the
    others go on elsewhere.
    """

    def __init__(
        self,
        count: int,
        hosts: Sequence[H],
        make: Callable[[int, H], Runner],
        label: Callable[[H], str] = str,
    ) -> None:
        self._count = count
        self._hosts = list(hosts)
        self._make = make
        self._label = label
        self._next = 0
        self._lock = threading.Lock()
        self._active: dict[int, Runner] = {}
        self._results: dict[int, FleetResult] = {}
        self._stopping = threading.Event()
        self._crash: BaseException | None = None

    def run(self) -> list[FleetResult]:
        """All searches; on Ctrl-C every running search is cancelled (its candidate stopped,
        its attempt recorded interrupted) before KeyboardInterrupt goes on up."""
        threads = [
            threading.Thread(target=self._host_loop, args=(host,), name=f"fleet-{i}", daemon=True)
            for i, host in enumerate(self._hosts)
        ]
        for thread in threads:
            thread.start()
        try:
            for thread in threads:
                # A bounded join keeps the main thread able to take Ctrl-C.
                while thread.is_alive():
                    thread.join(0.2)
        except KeyboardInterrupt:
            self.cancel()
            for thread in threads:
                thread.join()
            raise
        if self._crash is not None:
            raise self._crash  # a bug, not an outcome: it surfaces as in a single search
        return [self._results.get(i, FleetResult(i, None)) for i in range(self._count)]

    def cancel(self) -> None:
        self._stopping.set()
        with self._lock:
            active = list(self._active.values())
        for runner in active:
            runner.cancel()

    def _take(self) -> int | None:
        with self._lock:
            if self._stopping.is_set() or self._next >= self._count:
                return None
            index, self._next = self._next, self._next + 1
            return index

    def _host_loop(self, host: H) -> None:
        name = self._label(host)
        while (index := self._take()) is not None:
            try:
                runner = self._make(index, host)
                with self._lock:
                    self._active[index] = runner
                if self._stopping.is_set():
                    runner.cancel()
                result = runner.run()
                self._results[index] = FleetResult(index, name, result=result)
            except KeyboardInterrupt:
                self._results[index] = FleetResult(index, name, interrupted=True)
                return
            except HostError as exc:
                self._results[index] = FleetResult(index, name, error=exc)
                return  # this host is out; the other hosts take the remaining bases
            except AutofixError as exc:
                self._results[index] = FleetResult(index, name, error=exc)
            except BaseException as exc:
                self._crash = exc
                self.cancel()
                return
            finally:
                with self._lock:
                    self._active.pop(index, None)
