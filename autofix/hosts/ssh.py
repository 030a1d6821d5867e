"""The SSH host: one fabric Connection per run, kept open; host keys checked.

fabric 3's Connection installs paramiko's AutoAddPolicy and loads no known_hosts, so out
of the box it trusts any host. Here the keys in ~/.ssh/known_hosts (or the ssh config's
UserKnownHostsFile) are loaded and an unknown key is refused with a clear error unless
``accept_new`` (OpenSSH's StrictHostKeyChecking=accept-new: record a new key, never
accept a changed one). ~/.ssh/config is honoured through fabric (aliases, User, Port,
IdentityFile, ProxyJump; each jump host's key is checked the same way).

Commands are argv lists joined with shlex for the remote shell. tenacity retries
transport faults only (refused, reset, timeout, a dropped session) with backoff and a
cap; a command's own non-zero exit is a result, never retried.
"""

from __future__ import annotations

import contextlib
import io
import os
import posixpath
import queue
import shlex
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import fabric
import paramiko
from tenacity import (
    RetryCallState,
    RetryError,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential,
)

from ..errors import HostError, HostLost, HostUnreachable
from .base import CommandResult

T = TypeVar("T")

TRANSPORT_FAULTS: tuple[type[BaseException], ...] = (
    socket.timeout,
    ConnectionError,
    EOFError,
    OSError,
    paramiko.SSHException,
)
# Faults that no retry will cure: a bad key, a refused login, a changed host key.
FATAL: tuple[type[BaseException], ...] = (
    paramiko.BadHostKeyException,
    paramiko.AuthenticationException,
)


# File transfer over a plain shell session (hosts without sftp): $1 the path, $2 the mode
# (put) or the 1-based start byte (read), $3 how many bytes at most (read; empty: all).
_SHELL_PUT = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1.tmp$$" && chmod "$2" "$1.tmp$$" && mv -f -- "$1.tmp$$" "$1"'
_SHELL_READ = (
    '[ -e "$1" ] || exit 0; if [ -n "$3" ]; then tail -c +"$2" -- "$1" | head -c "$3"; else tail -c +"$2" -- "$1"; fi'
)


class HostKeyRefused(HostUnreachable):
    """The host's key is unknown or changed; autofix does not trust it silently."""


def _is_transport_fault(exc: BaseException) -> bool:
    # A name the resolver does not give an address for is not retried: "unknown" needs no
    # second ask, and "temporary failure" (no resolver reachable) is, in practice, a
    # sandbox or a network with no DNS at all, not a blip that a minute of retries cures.
    if isinstance(exc, socket.gaierror):
        return False
    return isinstance(exc, TRANSPORT_FAULTS) and not isinstance(exc, FATAL) and not isinstance(exc, HostKeyRefused)


class _CheckedPolicy(paramiko.MissingHostKeyPolicy):  # type: ignore[misc]
    """Refuse unknown keys, or (accept-new) record them; changed keys never pass
    (paramiko raises BadHostKeyException for those before asking the policy)."""

    def __init__(self, accept_new: bool, save_to: Path | None) -> None:
        self.accept_new = accept_new
        self.save_to = save_to

    def missing_host_key(self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey) -> None:
        fingerprint = key.fingerprint if hasattr(key, "fingerprint") else key.get_base64()[:24]
        if not self.accept_new:
            raise HostKeyRefused(
                f"{hostname}: unknown host key {key.get_name()} {fingerprint}; refusing it. Check it and add it "
                "to known_hosts (ssh-keyscan), or pass --accept-new-host-key to record it"
            )
        client.get_host_keys().add(hostname, key.get_name(), key)
        if self.save_to is not None:
            self.save_to.parent.mkdir(parents=True, exist_ok=True)
            with open(self.save_to, "a", encoding="utf-8") as fh:
                fh.write(f"{hostname} {key.get_name()} {key.get_base64()}\n")


def parse_spec(spec: str) -> tuple[str | None, str, int | None]:
    """``[user@]address[:port]`` (or an ssh-config alias) -> (user, host, port)."""
    user = None
    rest = spec
    if "@" in rest:
        user, rest = rest.split("@", 1)
    port = None
    if rest.startswith("["):  # [::1]:2222
        host, _, tail = rest[1:].partition("]")
        if tail.startswith(":"):
            port = int(tail[1:])
        return user, host, port
    if rest.count(":") == 1:
        host, port_text = rest.split(":")
        return user, host, int(port_text)
    return user, rest, None


class SshChannel:
    """A long-lived remote process spoken to line by line over one SSH session."""

    def __init__(self, channel: paramiko.Channel, argv: Sequence[str]) -> None:
        self._channel = channel
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=200)
        self.argv = list(argv)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        out = b""
        err = b""
        try:
            while True:
                got = False
                if self._channel.recv_ready():
                    chunk = self._channel.recv(65536)
                    got = True
                    if chunk:
                        out += chunk
                        while b"\n" in out:
                            line, out = out.split(b"\n", 1)
                            self._lines.put(line.decode("utf-8", errors="replace") + "\n")
                if self._channel.recv_stderr_ready():
                    chunk = self._channel.recv_stderr(65536)
                    got = True
                    err += chunk
                    while b"\n" in err:
                        line, err = err.split(b"\n", 1)
                        self._stderr.append(line.decode("utf-8", errors="replace") + "\n")
                if not got:
                    ended = self._channel.exit_status_ready() or self._channel.closed or self._channel.eof_received
                    if ended and not self._channel.recv_ready() and not self._channel.recv_stderr_ready():
                        break
                    time.sleep(0.01)
        except (OSError, EOFError, paramiko.SSHException):
            pass
        if out:
            self._lines.put(out.decode("utf-8", errors="replace"))
        self._lines.put(None)

    def send_line(self, text: str) -> None:
        try:
            self._channel.sendall((text + "\n").encode())
        except (OSError, EOFError, paramiko.SSHException) as exc:
            raise EOFError("the SSH session to the process is gone") from exc

    def read_line(self, timeout: float) -> str | None:
        try:
            line = self._lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)
            raise EOFError("the process on the host has gone (or the SSH session dropped)")
        return line

    def stderr_tail(self) -> str:
        return "".join(self._stderr)

    def close(self) -> None:
        with contextlib.suppress(OSError, EOFError, paramiko.SSHException):
            self._channel.shutdown_write()
        with contextlib.suppress(OSError, EOFError, paramiko.SSHException):
            self._channel.close()


class SshHost:
    """A host reached over SSH (fabric), one connection kept for the whole run."""

    def __init__(
        self,
        spec: str,
        *,
        accept_new_host_key: bool = False,
        ssh_config: str | None = None,
        connect_timeout: float = 10.0,
        retry_seconds: float = 60.0,
        workdir: str | None = None,
        on_retry: Callable[[str], None] | None = None,
    ) -> None:
        self.name = spec
        self.retry_seconds = retry_seconds
        # Told before each wait between tries, so a retrying connection is never silent.
        self.on_retry = on_retry
        user, host, port = parse_spec(spec)
        # fabric reads ~/.ssh/config (and /etc/ssh/ssh_config), or the file given.
        config = fabric.Config(runtime_ssh_path=ssh_config) if ssh_config else fabric.Config()
        self.conn = fabric.Connection(host, user=user, port=port, config=config, connect_timeout=connect_timeout)
        self._secure(self.conn, accept_new_host_key)
        self.user = self.conn.user
        self.address = str(self.conn.ssh_config.get("hostname", self.conn.host))
        self._sftp: paramiko.SFTPClient | None = None
        self._shell_files = False  # set when the host serves no sftp subsystem
        self._lock = threading.Lock()
        self._connect()
        self.boot_id = self._boot_id()
        self.workdir = workdir or self._default_workdir()

    # --- connection ---------------------------------------------------------------------
    def _secure(self, conn: fabric.Connection, accept_new: bool) -> None:
        """Replace fabric's AutoAddPolicy with checked host keys, on every jump hop too."""
        files = conn.ssh_config.get("userknownhostsfile")
        paths = [Path(os.path.expanduser(p)) for p in (files.split() if isinstance(files, str) else files or [])]
        if not paths:
            paths = [Path(os.path.expanduser("~/.ssh/known_hosts"))]
        client = conn.client
        for path in paths:
            if path.exists():
                client.load_host_keys(str(path))
        client.set_missing_host_key_policy(_CheckedPolicy(accept_new, paths[0]))
        gateway = conn.gateway
        if isinstance(gateway, fabric.Connection):
            self._secure(gateway, accept_new)

    def _connect(self) -> None:
        try:
            self._retrying(self.conn.open, what="connect")
        except HostUnreachable:
            raise
        except HostError as exc:
            raise HostUnreachable(str(exc)) from exc

    def _retrying(self, fn: Callable[[], T], *, what: str) -> T:
        tries = 12

        def tell(state: RetryCallState) -> None:
            if self.on_retry is None or state.outcome is None:
                return
            cause = state.outcome.exception()
            doing = f"connecting to {self.name}" if what == "connect" else f"{what} on {self.name}"
            self.on_retry(f"{doing}, try {state.attempt_number + 1}/{tries} ({type(cause).__name__}: {cause})")

        try:
            for attempt in Retrying(
                retry=retry_if_exception(_is_transport_fault),
                wait=wait_exponential(multiplier=0.5, max=8),
                stop=stop_after_delay(self.retry_seconds) | stop_after_attempt(tries),
                before_sleep=tell,
                reraise=False,
            ):
                with attempt:
                    if what != "connect" and not self.conn.is_connected:
                        self._reopen()
                    return fn()
        except RetryError as exc:
            cause = exc.last_attempt.exception()
            raise HostLost(f"{self.name}: {what} failed after retries: {type(cause).__name__}: {cause}") from cause
        except paramiko.BadHostKeyException as exc:
            raise HostKeyRefused(
                f"{self.name}: the host key CHANGED (got {exc.key.get_name()}, known_hosts has another); "
                "refusing: this may be a different machine"
            ) from exc
        except paramiko.AuthenticationException as exc:
            raise HostUnreachable(f"{self.name}: authentication failed: {exc}") from exc
        except socket.gaierror as exc:
            raise HostUnreachable(f"{self.name}: the host name does not resolve ({exc.strerror})") from exc
        raise AssertionError("unreachable")  # pragma: no cover

    def _reopen(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()
        self._sftp = None
        self.conn.open()

    def _boot_id(self) -> str:
        result = self.run(["cat", "/proc/sys/kernel/random/boot_id"], timeout=30)
        return result.stdout.strip()

    def rebooted(self) -> bool:
        """Whether the host booted since the connection was first made (a reboot mid-run)."""
        try:
            return self._boot_id() != self.boot_id
        except HostError:
            return True

    def _default_workdir(self) -> str:
        result = self.run(["sh", "-c", 'printf %s "${TMPDIR:-/tmp}"'], timeout=30)
        uid = self.run(["id", "-u"], timeout=30).stdout.strip() or "0"
        return posixpath.join(result.stdout.strip() or "/tmp", f"autofix-{uid}")

    # --- commands -----------------------------------------------------------------------
    def _command(self, argv: Sequence[str], env: Mapping[str, str] | None) -> str:
        prefix = ["env", *(f"{k}={v}" for k, v in env.items())] if env else []
        return shlex.join([*prefix, *argv])

    def _exec(self, command: str, input: bytes | None, timeout: float | None, what: str) -> tuple[int, bytes, bytes]:
        """One command on a fresh session channel of the kept connection: its exit status,
        stdout and stderr as bytes. No retry here; callers wrap it in ``_retrying``."""
        transport = self.conn.client.get_transport()
        if transport is None or not transport.is_active():
            raise EOFError("no SSH transport")
        channel = transport.open_session(timeout=30)
        try:
            channel.settimeout(timeout)
            channel.exec_command(command)
            if input:
                channel.sendall(input)
            channel.shutdown_write()
            out, err = io.BytesIO(), io.BytesIO()
            deadline = None if timeout is None else time.monotonic() + timeout
            while True:
                if channel.recv_ready():
                    out.write(channel.recv(65536))
                elif channel.recv_stderr_ready():
                    err.write(channel.recv_stderr(65536))
                elif channel.exit_status_ready():
                    while channel.recv_ready():
                        out.write(channel.recv(65536))
                    while channel.recv_stderr_ready():
                        err.write(channel.recv_stderr(65536))
                    break
                elif channel.closed:
                    raise EOFError("the SSH session closed before the command ended")
                else:
                    if deadline is not None and time.monotonic() > deadline:
                        raise HostError(f"{self.name}: {what} did not finish within {timeout} s")
                    time.sleep(0.005)
            return channel.recv_exit_status(), out.getvalue(), err.getvalue()
        finally:
            channel.close()

    def run(
        self,
        argv: Sequence[str],
        *,
        input: bytes | None = None,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
    ) -> CommandResult:
        command = self._command(argv, env)

        def once() -> CommandResult:
            code, out, err = self._exec(command, input, timeout, argv[0])
            return CommandResult(
                tuple(argv), code, out.decode("utf-8", errors="replace"), err.decode("utf-8", errors="replace")
            )

        with self._lock:
            return self._retrying(once, what=f"running {argv[0]}")

    def spawn(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None) -> SshChannel:
        command = self._command(argv, env)

        def once() -> SshChannel:
            transport = self.conn.client.get_transport()
            if transport is None or not transport.is_active():
                raise EOFError("no SSH transport")
            channel = transport.open_session(timeout=30)
            channel.exec_command(command)
            return SshChannel(channel, argv)

        with self._lock:
            return self._retrying(once, what=f"starting {argv[0]}")

    # --- files --------------------------------------------------------------------------
    # Over sftp where the host serves it; over the shell channel where it does not (a
    # hardened sshd_config without a ``Subsystem sftp`` line): autofix needs only a shell.
    def _sftp_client(self) -> paramiko.SFTPClient | None:
        if self._shell_files:
            return None
        if self._sftp is None or self._sftp.get_channel() is None or self._sftp.get_channel().closed:
            try:
                self._sftp = self.conn.client.open_sftp()
            except paramiko.SSHException:
                transport = self.conn.client.get_transport()
                if transport is None or not transport.is_active():
                    raise  # the connection dropped: a transport fault, retried
                self._shell_files = True  # the session was refused: no sftp subsystem
                return None
        return self._sftp

    def put(self, path: str, data: bytes, *, mode: int = 0o644) -> None:
        def once() -> None:
            sftp = self._sftp_client()
            if sftp is None:
                self._shell_put(path, data, mode)
                return
            _makedirs(sftp, posixpath.dirname(path))
            tmp = f"{path}.tmp{os.getpid()}"
            with sftp.open(tmp, "wb") as fh:
                fh.write(data)
            sftp.chmod(tmp, mode)
            sftp.posix_rename(tmp, path)

        with self._lock:
            self._retrying(once, what=f"writing {path}")

    def read(self, path: str, *, offset: int = 0, limit: int | None = None) -> bytes:
        def once() -> bytes:
            sftp = self._sftp_client()
            if sftp is None:
                return self._shell_read(path, offset, limit)
            try:
                with sftp.open(path, "rb") as fh:
                    fh.seek(offset)
                    return bytes(fh.read(limit) if limit is not None else fh.read())
            except FileNotFoundError:
                return b""
            except OSError as exc:
                if getattr(exc, "errno", None) == 2:
                    return b""
                raise

        with self._lock:
            return self._retrying(once, what=f"reading {path}")

    def _shell_put(self, path: str, data: bytes, mode: int) -> None:
        """The file's bytes on the command's stdin, written beside it and renamed into place
        (a reader never sees half a file); the path and mode travel as arguments, quoted."""
        script = (
            'mkdir -p -- "$(dirname -- "$1")" && cat > "$1.tmp$$" && chmod "$2" "$1.tmp$$" && mv -f -- "$1.tmp$$" "$1"'
        )
        command = shlex.join(["sh", "-c", script, "sh", path, f"{mode:o}"])
        code, _, err = self._exec(command, data, 120, "sh")
        if code != 0:
            raise HostError(f"{self.name}: cannot write {path}: {err.decode(errors='replace').strip()[-200:]}")

    def _shell_read(self, path: str, offset: int, limit: int | None) -> bytes:
        """``tail -c +N | head -c L`` on the host: bytes from ``offset``; none for a missing file."""
        count = "" if limit is None else str(limit)
        command = shlex.join(["sh", "-c", _SHELL_READ, "sh", path, str(offset + 1), count])
        code, out, err = self._exec(command, None, 120, "sh")
        if code != 0:
            raise HostError(f"{self.name}: cannot read {path}: {err.decode(errors='replace').strip()[-200:]}")
        return out

    def http_address(self, bind: str) -> str:
        if bind in ("", "0.0.0.0", "::", "[::]", "127.0.0.1", "localhost"):
            return self.address
        return bind

    def close(self) -> None:
        with contextlib.suppress(Exception):
            if self._sftp is not None:
                self._sftp.close()
        with contextlib.suppress(Exception):
            self.conn.close()


def _makedirs(sftp: paramiko.SFTPClient, directory: str) -> None:
    parts: list[str] = []
    for part in directory.split("/"):
        parts.append(part)
        current = "/".join(parts) or "/"
        if not current or current == "/":
            continue
        try:
            sftp.stat(current)
        except FileNotFoundError:
            with contextlib.suppress(OSError):
                sftp.mkdir(current)
        except OSError:
            with contextlib.suppress(OSError):
                sftp.mkdir(current)
