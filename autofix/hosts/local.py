"""The local host: commands run here, as subprocesses with argv lists (no shell)."""

from __future__ import annotations

import os
import queue
import subprocess
import tempfile
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import HostError
from .base import CommandResult


class LocalChannel:
    """A child process spoken to line by line; its stderr is drained so it never blocks."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str] | None) -> None:
        full_env = {**os.environ, **(env or {})}
        try:
            self._proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=full_env,
                start_new_session=True,
            )
        except OSError as exc:
            raise HostError(f"local: cannot start {argv[0]}: {exc}") from exc
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=200)
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()

    def _pump_stdout(self) -> None:
        assert self._proc.stdout is not None
        for raw in self._proc.stdout:
            self._lines.put(raw.decode("utf-8", errors="replace"))
        self._lines.put(None)

    def _pump_stderr(self) -> None:
        assert self._proc.stderr is not None
        for raw in self._proc.stderr:
            self._stderr.append(raw.decode("utf-8", errors="replace"))

    def send_line(self, text: str) -> None:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(text.encode() + b"\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, ValueError) as exc:
            raise EOFError("the process on the host has gone") from exc

    def read_line(self, timeout: float) -> str | None:
        try:
            line = self._lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)  # stay at EOF for later readers
            raise EOFError("the process on the host has gone")
        return line

    def stderr_tail(self) -> str:
        return "".join(self._stderr)

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.close()
                self._proc.wait(timeout=2)
            except (subprocess.TimeoutExpired, OSError):
                self._proc.kill()
                self._proc.wait()


class LocalHost:
    """This machine."""

    def __init__(self, workdir: str | None = None, name: str = "local") -> None:
        self.name = name
        self.workdir = workdir or os.path.join(tempfile.gettempdir(), f"autofix-{os.getuid()}")

    def run(
        self,
        argv: Sequence[str],
        *,
        input: bytes | None = None,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
    ) -> CommandResult:
        try:
            done = subprocess.run(
                list(argv),
                input=input,
                capture_output=True,
                timeout=timeout,
                env={**os.environ, **(env or {})},
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise HostError(f"local: {argv[0]} did not finish within {timeout} s") from exc
        except OSError as exc:
            raise HostError(f"local: cannot run {argv[0]}: {exc}") from exc
        return CommandResult(
            tuple(argv),
            done.returncode,
            done.stdout.decode("utf-8", errors="replace"),
            done.stderr.decode("utf-8", errors="replace"),
        )

    def spawn(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None) -> LocalChannel:
        return LocalChannel(argv, env)

    def put(self, path: str, data: bytes, *, mode: int = 0o644) -> None:
        target = Path(path)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_bytes(data)
            tmp.chmod(mode)
            tmp.replace(target)
        except OSError as exc:
            raise HostError(f"local: cannot write {path}: {exc}") from exc

    def read(self, path: str, *, offset: int = 0, limit: int | None = None) -> bytes:
        try:
            with open(path, "rb") as fh:
                fh.seek(offset)
                return fh.read(-1 if limit is None else limit)
        except FileNotFoundError:
            return b""
        except OSError as exc:
            raise HostError(f"local: cannot read {path}: {exc}") from exc

    def http_address(self, bind: str) -> str:
        return "127.0.0.1" if bind in ("", "0.0.0.0", "::", "[::]") else bind

    def close(self) -> None:
        return None
