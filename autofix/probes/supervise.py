"""autofix process supervisor: runs one candidate on a host without systemd.

Copied to the host and run with its Python; standard library only. It gives a plain
process what systemd gives a unit, so the process service manager has the same
semantics: a session and process group of its own (stop kills the whole group, ranks
included), stdout+stderr appended to one log file, and the exit status recorded when
the main process ends (a plain background process would lose it), after which stray
processes of the group are killed as systemd's KillMode=control-group would.

    supervise.py start DIR -- ARGV...   env from DIR/env.json {"env": {...}, "cwd": ...}
                                        prints {"pid": N, "pgid": N} once ARGV is exec'd
    supervise.py status DIR             prints {"state": "running|exited|gone", ...}
    supervise.py stop DIR [GRACE]       SIGTERM the group, SIGKILL after GRACE s

Files in DIR: log, pid, supervisor.pid, exit.json. The env (secrets among it) is read
from env.json and the file removed at once; secret-args.yaml (the secret flags, SGLang's
--config file, read by the server when it starts) is removed when the candidate ends or
is stopped: nothing secret stays in DIR after the attempt.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from typing import Any


def _write(path: str, text: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


def _read_int(path: str) -> int | None:
    try:
        with open(path) as fh:
            return int(fh.read().strip() or 0) or None
    except (OSError, ValueError):
        return None


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


SECRET_FILES = ("env.json", "secret-args.yaml")


def _forget_secrets(directory: str) -> None:
    for name in SECRET_FILES:
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass


def start(directory: str, argv: list[str]) -> int:
    env_path = os.path.join(directory, "env.json")
    with open(env_path) as fh:
        spec = json.load(fh)
    try:
        os.unlink(env_path)  # read once: the secrets in it are in memory from here on
    except OSError:
        pass
    for stale in ("exit.json", "pid", "supervisor.pid"):
        try:
            os.unlink(os.path.join(directory, stale))
        except FileNotFoundError:
            pass
    env = dict(os.environ)
    env.update({str(k): str(v) for k, v in spec.get("env", {}).items()})
    for name in spec.get("unset", []):
        env.pop(name, None)
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
    _write(os.path.join(directory, "supervisor.pid"), str(os.getpid()))
    _write(os.path.join(directory, "pid"), str(child))
    if failure:
        with open(log_path, "a") as fh:
            fh.write("autofix supervise: cannot execute %s: %s\n" % (argv[0], failure))
        os.write(report_w, json.dumps({"error": failure}).encode())
    else:
        os.write(report_w, json.dumps({"pid": child, "pgid": child}).encode())
    os.close(report_w)
    for fd in (0, 1, 2):
        try:
            os.dup2(os.open(os.devnull, os.O_RDWR), fd)
        except OSError:
            pass

    def forward(signum: int, _frame: Any) -> None:
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
    # Like systemd's KillMode=control-group: nothing of the candidate outlives it.
    time.sleep(0.5)
    try:
        os.killpg(child, signal.SIGKILL)
    except OSError:
        pass
    os._exit(0)


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
    try:
        with open(os.path.join(directory, "exit.json")) as fh:
            info: dict[str, Any] = json.load(fh)
        info["state"] = "exited"
        return info
    except (OSError, ValueError):
        pass
    pid = _read_int(os.path.join(directory, "pid"))
    supervisor = _read_int(os.path.join(directory, "supervisor.pid"))
    if _alive(pid):
        return {"state": "running", "pid": pid}
    if supervisor and _alive(supervisor):
        return {"state": "running", "pid": pid}
    return {"state": "gone", "pid": pid}


def stop(directory: str, grace: float) -> dict[str, Any]:
    pid = _read_int(os.path.join(directory, "pid"))
    if pid:
        for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(pid, sig)
            except OSError:
                break
            deadline = time.time() + wait
            while time.time() < deadline:
                if status(directory)["state"] != "running":
                    break
                time.sleep(0.1)
            else:
                continue
            break
        # The group may outlive its leader for a moment; leave nothing behind.
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
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
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
