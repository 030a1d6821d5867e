"""The Host protocol: where candidates run. One small interface, several implementations.

A host runs commands given as argv lists (never a shell string: what reaches a remote
shell is quoted by the transport), moves small files, and keeps long-lived processes
(the warm preflight probe) talking over a line-based channel. ``local`` runs here,
``ssh`` over one kept fabric connection, ``sim`` is ``local`` with the simulated target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class CommandResult:
    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


class Channel(Protocol):
    """A long-lived process on the host, spoken to one line at a time."""

    def send_line(self, text: str) -> None: ...

    def read_line(self, timeout: float) -> str | None:
        """The next stdout line; None when ``timeout`` passes; EOFError when it is gone."""
        ...

    def stderr_tail(self) -> str: ...

    def close(self) -> None: ...


class Host(Protocol):
    name: str
    workdir: str

    def run(
        self,
        argv: Sequence[str],
        *,
        input: bytes | None = None,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
    ) -> CommandResult: ...

    def spawn(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None) -> Channel: ...

    def put(self, path: str, data: bytes, *, mode: int = 0o644) -> None: ...

    def read(self, path: str, *, offset: int = 0, limit: int | None = None) -> bytes:
        """Bytes of a file from ``offset``; empty when it does not exist (yet)."""
        ...

    def http_address(self, bind: str) -> str:
        """Where the controller reaches a server that binds ``bind`` on this host."""
        ...

    def close(self) -> None: ...
