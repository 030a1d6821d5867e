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

    supervise.py start DIR -- ARGV...   env from DIR/env.json {"env": {...}, "cwd": ...}
                                        prints {"pid": N, "pgid": N} once ARGV is exec'd;
                                        run again for the same DIR (a retried start whose
                                        answer was lost) it starts nothing and prints the
                                        same pid with "again": true
    supervise.py status DIR             prints {"state": "running|exited|gone", ...}
    supervise.py stop DIR [GRACE]       SIGTERM the candidate, SIGKILL after GRACE s
    supervise.py listeners PORT [TOKEN] prints who listens on PORT, and whether it is TOKEN

Files in DIR: log, pid, supervisor.pid, identity.json, exit.json, start.lock.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import sys
import time
from typing import Any

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


def start(directory: str, argv: list[str]) -> int:
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "start.lock"), "a") as guard:
        # One start per DIR, even when a start is retried while the first still runs.
        fcntl.flock(guard, fcntl.LOCK_EX)
        ident = _identity(directory)
        if ident is not None:
            report = {"pid": ident["pid"], "pgid": ident["pid"], "again": True}
            sys.stdout.write(json.dumps(report) + "\n")
            return 0
        return _start_new(directory, argv, guard.fileno())


def _start_new(directory: str, argv: list[str], guard: int) -> int:
    """Fork the supervisor, which forks and execs the candidate. ``guard`` is the start
    lock's descriptor: the supervisor lets go of it once the candidate's identity is on
    disk (a flock lasts while any process holds the descriptor)."""
    with open(os.path.join(directory, "env.json")) as fh:
        spec = json.load(fh)
    env = dict(os.environ)
    env.update({str(k): str(v) for k, v in spec.get("env", {}).items()})
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


def stop(directory: str, grace: float) -> dict[str, Any]:
    """SIGTERM the candidate, SIGKILL what is left after ``grace`` seconds. Only processes
    that prove to be it are signalled: its leader while pid and start time still match,
    and whatever carries its token (ranks, and what outlived a leader already reaped)."""
    token = _token(directory)
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
