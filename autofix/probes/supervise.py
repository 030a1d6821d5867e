"""autofix process supervisor: runs one candidate on a host without systemd.

Copied to the host (with _proc.py beside it) and run with its Python; standard library
only. It gives a plain process what systemd gives a unit, so the process service manager
has the same semantics: a session and process group of its own, stdout+stderr appended
to one log file, and the exit status recorded when the main process ends (a plain
background process would lose it), after which stray processes of the candidate are
killed as systemd's KillMode=control-group would.

A candidate is known by its identity, never by a pid alone: the pid with its start time
(identity.json) and the token AUTOFIX_CANDIDATE=<DIR's name> in the environment of every
process it starts. Stop signals only processes that prove to be the candidate, so a pid
the kernel handed to an unrelated process after the candidate died is left alone.

    supervise.py start DIR -- ARGV...   env from DIR/env.json {"env": {...}, "cwd": ...,
                                        "env_files": [PATH, "-PATH", ...]}, the files
                                        read as systemd reads EnvironmentFile=
                                        prints {"pid": N, "pgid": N} once ARGV is exec'd;
                                        run again for the same DIR (a retried start whose
                                        answer was lost) it starts nothing and prints the
                                        same pid with "again": true
    supervise.py status DIR             prints {"state": "running|exited|gone", ...}
    supervise.py stop DIR [GRACE]       SIGTERM the candidate, SIGKILL after GRACE s
    supervise.py listeners PORT [TOKEN] prints who listens on PORT, and whether it is TOKEN

Files in DIR: log, pid, supervisor.pid, identity.json, exit.json, start.lock. The env
(secrets among it) is read from env.json and the file removed at once; secret-args.yaml
(the secret flags, SGLang's --config file, read by the server when it starts) is removed
when the candidate ends or is stopped: nothing secret stays in DIR after the attempt.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

try:
    from . import _proc
except ImportError:  # run as a script on the host: _proc.py lies beside this file
    import _proc  # type: ignore[import-not-found,no-redef]


def _write(path: str, text: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


def _read_json(path: str) -> dict[str, Any] | None:
    try:
        with open(path) as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _token(directory: str) -> str:
    return os.path.basename(os.path.normpath(directory))


def _identity(directory: str) -> dict[str, Any] | None:
    return _read_json(os.path.join(directory, "identity.json"))


def _candidate_alive(directory: str) -> bool:
    """The candidate's leader is the very process that was started (pid and start time)."""
    ident = _identity(directory) or {}
    return _proc.same_process(ident.get("pid"), ident.get("started"))


def _supervisor_alive(directory: str) -> bool:
    ident = _identity(directory) or {}
    return _proc.same_process(ident.get("supervisor"), ident.get("supervisor_started"))


STOPPED = "stopped"  # written by a stop: a start that arrives later starts nothing


@contextlib.contextmanager
def _start_lock(directory: str) -> Iterator[TextIO]:
    """DIR's start lock, held: one start per DIR (a retried start waits for the first),
    and a stop waits for a start in flight."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "start.lock"), "a") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        yield guard


def start(directory: str, argv: list[str]) -> int:
    with _start_lock(directory) as guard:
        if os.path.exists(os.path.join(directory, STOPPED)):
            # The controller that asked died and its successor stopped this name before
            # the start got here: starting now would leave a candidate nobody watches.
            _forget_secrets(directory)
            sys.stdout.write(json.dumps({"error": "stopped before it started"}) + "\n")
            return 1
        ident = _identity(directory)
        if ident is not None:
            report = {"pid": ident["pid"], "pgid": ident["pid"], "again": True}
            sys.stdout.write(json.dumps(report) + "\n")
            return 0
        return _start_new(directory, argv, guard.fileno())


SECRET_FILES = ("env.json", "secret-args.yaml")


class EnvFileError(Exception):
    pass


def read_env_files(paths: list[str]) -> dict[str, str]:
    """The assignments of the operator's EnvironmentFile= paths, later files winning; a
    path with a leading "-" may be missing, any other must be readable."""
    env: dict[str, str] = {}
    for entry in paths:
        optional = entry.startswith("-")
        path = entry[1:] if optional else entry
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            if optional:
                continue
            raise EnvFileError(f"EnvironmentFile {path}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise EnvFileError(f"EnvironmentFile {path}: cannot read: {exc}") from None
        env.update(parse_env_file(text))
    return env


def parse_env_file(text: str) -> dict[str, str]:
    """KEY=VALUE lines as systemd.exec(5) describes EnvironmentFile=: blank lines, lines
    without "=" and lines starting with # or ; are skipped. A value is a run of quoted
    parts, 'single' (verbatim, may span lines) or "double" (a backslash keeps one of
    " \\ ` $, joins the next line before a newline, and is kept before anything else),
    with whitespace between them dropped, optionally ended by an unquoted part (a
    backslash keeps the next character or joins the next line; trailing whitespace is
    dropped). Later assignments win. One pass over the characters, one state at a time."""
    env: dict[str, str] = {}
    state = "line"  # line | skip | key | gap | single | double | bare
    key: list[str] = []
    value: list[str] = []
    bare_kept = 0  # how much of ``value`` survives the bare part's trailing whitespace
    i = 0
    while i <= len(text):
        ch = text[i] if i < len(text) else "\n"  # the end of the text ends the last line
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if state == "line":
            if ch in "#;":
                state = "skip"
            elif ch not in " \t\r\n":
                state, key = "key", [ch]
        elif state == "skip":
            if ch == "\n":
                state = "line"
        elif state == "key":
            if ch == "=":
                state, value = "gap", []
            elif ch == "\n":
                state = "line"  # no "=": not an assignment
            else:
                key.append(ch)
        elif state == "gap":
            if ch == "'":
                state = "single"
            elif ch == '"':
                state = "double"
            elif ch == "\n":
                env["".join(key).strip(" \t\r")] = "".join(value)
                state = "line"
            elif ch not in " \t\r":
                state, bare_kept = "bare", len(value)
                continue  # the same character again, as the bare part's first
        elif state == "single":
            if ch == "'" or i == len(text):
                state = "gap"
            else:
                value.append(ch)
        elif state == "double":
            if ch == '"' or i == len(text):
                state = "gap"
            elif ch == "\\" and nxt:
                if nxt in '"\\`$':
                    value.append(nxt)
                elif nxt != "\n":
                    value += ["\\", nxt]
                i += 1
            else:
                value.append(ch)
        elif state == "bare":
            if ch == "\n":
                env["".join(key).strip(" \t\r")] = "".join(value[:bare_kept])
                state = "line"
            elif ch == "\\":
                if nxt not in ("\n", ""):  # before a newline: a continuation; at the end: nothing
                    value.append(nxt)
                    bare_kept = len(value)
                i += 1
            else:
                value.append(ch)
                if ch not in " \t\r":
                    bare_kept = len(value)
        i += 1
    if state in ("gap", "single", "double"):  # a quote the text never closed
        env["".join(key).strip(" \t\r")] = "".join(value)
    elif state == "bare":  # a backslash was the text's last character
        env["".join(key).strip(" \t\r")] = "".join(value[:bare_kept])
    env.pop("", None)  # "=x": no name to set
    return env


def _forget_secrets(directory: str) -> None:
    for name in SECRET_FILES:
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass


def _start_new(directory: str, argv: list[str], guard: int) -> int:
    """Fork the supervisor, which forks and execs the candidate. ``guard`` is the start
    lock's descriptor: the supervisor lets go of it once the candidate's identity is on
    disk (a flock lasts while any process holds the descriptor)."""
    env_path = os.path.join(directory, "env.json")
    with open(env_path) as fh:
        spec = json.load(fh)
    try:
        os.unlink(env_path)  # read once: the secrets in it are in memory from here on
    except OSError:
        pass
    env = dict(os.environ)
    env.update({str(k): str(v) for k, v in spec.get("env", {}).items()})
    try:
        env.update(read_env_files([str(p) for p in spec.get("env_files", [])]))
    except EnvFileError as exc:
        sys.stdout.write(json.dumps({"error": str(exc)}) + "\n")
        return 1
    for name in spec.get("unset", []):
        env.pop(name, None)
    env[_proc.TOKEN_VAR] = _token(directory)
    cwd = spec.get("cwd") or directory
    log_path = os.path.join(directory, "log")
    report_r, report_w = os.pipe()

    if os.fork() > 0:
        # The command that asked: wait for the supervisor's report, print it, return.
        os.close(report_w)
        data = b""
        while True:
            chunk = os.read(report_r, 4096)
            if not chunk:
                break
            data += chunk
        sys.stdout.write(data.decode() or '{"error": "supervisor died before starting"}')
        sys.stdout.write("\n")
        return 0 if data.startswith(b'{"pid"') else 1

    # The supervisor: detached from the caller's session and terminal.
    os.close(report_r)
    os.setsid()
    exec_r, exec_w = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(exec_r)
        os.setsid()  # own session + process group: stop kills every rank
        try:
            os.chdir(cwd)
            fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.set_inheritable(exec_w, False)
            os.execvpe(argv[0], argv, env)
        except BaseException as exc:  # exec failed: tell the supervisor why
            os.write(exec_w, ("%s: %s" % (type(exc).__name__, exc)).encode())
            os._exit(127)
    os.close(exec_w)
    failure = os.read(exec_r, 4096).decode()
    os.close(exec_r)
    identity = {
        "pid": child,
        "started": _proc.start_time(child),
        "supervisor": os.getpid(),
        "supervisor_started": _proc.start_time(os.getpid()),
        "token": _token(directory),
    }
    _write(os.path.join(directory, "identity.json"), json.dumps(identity))
    _write(os.path.join(directory, "supervisor.pid"), str(os.getpid()))
    _write(os.path.join(directory, "pid"), str(child))
    if failure:
        with open(log_path, "a") as fh:
            fh.write("autofix supervise: cannot execute %s: %s\n" % (argv[0], failure))
        os.write(report_w, json.dumps({"error": failure}).encode())
    else:
        os.write(report_w, json.dumps({"pid": child, "pgid": child}).encode())
    os.close(report_w)
    os.close(guard)
    for fd in (0, 1, 2):
        try:
            os.dup2(os.open(os.devnull, os.O_RDWR), fd)
        except OSError:
            pass

    def forward(signum: int, _frame: Any) -> None:
        # The child is ours and not reaped yet: its group id cannot have been reused.
        try:
            os.killpg(child, signum)
        except OSError:
            pass

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            status = 0
            break
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if sig is not None:
        _log_signal_death(log_path, os.path.basename(directory), sig, os.WCOREDUMP(status))
    _forget_secrets(directory)
    _write(
        os.path.join(directory, "exit.json"),
        json.dumps({"code": code, "signal": sig, "at": time.time(), "pid": child}),
    )
    # Like systemd's KillMode=control-group: nothing of the candidate outlives it. Its
    # leader is reaped, so the rest are found by their token, not by a group id.
    time.sleep(0.5)
    _kill_carriers(_token(directory), signal.SIGKILL)
    os._exit(0)


def _kill_carriers(token: str, sig: int) -> int:
    """Signal every live process that carries the candidate's token; how many there were."""
    found = _proc.carriers(token)
    for pid in found:
        try:
            os.kill(pid, sig)
        except OSError:
            pass
    return len(found)


def _log_signal_death(log_path: str, name: str, sig: int, dumped: bool) -> None:
    """Say in the log how a signal ended the process, in systemd's words: a SIGKILL from the
    OOM killer or a segfault leaves no traceback, and under systemd the journal line is
    what names it; under this supervisor the log is the journal. Written before exit.json,
    so whoever sees the exit reads the line too."""
    try:
        short = signal.Signals(sig).name[3:]
    except ValueError:
        short = str(sig)
    line = "autofix supervise: %s: Main process exited, code=%s, status=%d/%s\n" % (
        name,
        "dumped" if dumped else "killed",
        sig,
        short,
    )
    try:
        with open(log_path, "ab+") as fh:
            # A process killed mid-line (a torn traceback) left no newline: the journal
            # line stays a line of its own, as journald keeps its entries apart.
            end = fh.seek(0, os.SEEK_END)
            if end:
                fh.seek(end - 1)
                if fh.read(1) != b"\n":
                    line = "\n" + line
            fh.write(line.encode())
    except OSError:
        pass


def status(directory: str) -> dict[str, Any]:
    info = _read_json(os.path.join(directory, "exit.json"))
    if info is not None:
        info["state"] = "exited"
        return info
    ident = _identity(directory) or {}
    if _candidate_alive(directory) or _supervisor_alive(directory):
        return {"state": "running", "pid": ident.get("pid")}
    return {"state": "gone", "pid": ident.get("pid")}


def _bar_start(directory: str) -> None:
    """Under the start lock: a start in flight has its identity on disk before the stop
    looks for it, and a start still on its way finds the name stopped and starts nothing."""
    with _start_lock(directory):
        _write(os.path.join(directory, STOPPED), "")


def stop(directory: str, grace: float) -> dict[str, Any]:
    """SIGTERM the candidate, SIGKILL what is left after ``grace`` seconds. Only processes
    that prove to be it are signalled: its leader while pid and start time still match,
    and whatever carries its token (ranks, and what outlived a leader already reaped)."""
    token = _token(directory)
    _bar_start(directory)
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        signalled = _kill_carriers(token, sig)
        if _candidate_alive(directory):
            ident = _identity(directory) or {}
            try:
                os.killpg(int(ident["pid"]), sig)
                signalled += 1
            except (OSError, KeyError, ValueError):
                pass
        if not signalled:
            break
        deadline = time.time() + wait
        while time.time() < deadline and (_candidate_alive(directory) or _proc.carriers(token)):
            time.sleep(0.1)
    # The supervisor records the exit and sweeps what is left, then ends: an attempt is
    # over when nothing of it runs, the supervisor included.
    deadline = time.time() + 10.0
    while time.time() < deadline and _supervisor_alive(directory):
        time.sleep(0.05)
    _forget_secrets(directory)
    return status(directory)


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "start" and "--" in argv:
        cut = argv.index("--")
        return start(argv[1], argv[cut + 1 :])
    if len(argv) == 2 and argv[0] == "status":
        print(json.dumps(status(argv[1])))
        return 0
    if len(argv) in (2, 3) and argv[0] == "stop":
        grace = float(argv[2]) if len(argv) == 3 else 30.0
        print(json.dumps(stop(argv[1], grace)))
        return 0
    if len(argv) in (2, 3) and argv[0] == "listeners" and argv[1].isdigit():
        token = argv[2] if len(argv) == 3 else ""
        print(json.dumps({"port": int(argv[1]), "listeners": _proc.listeners(int(argv[1]), token)}))
        return 0
    sys.stderr.write(__doc__ or "")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
