"""Helpers for the simulated-host tests: sim environment, preflight driver, launches."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from autofix.sim import SITE_DIR, sim_env

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "sim"
MODELS = DATA / "models"
FILES = DATA / "files"
HARNESS = HERE / "parity_harness.py"

SEED_ARGV = [
    "--model-path",
    "/models/Kimi-K2.6",
    "--tp",
    "8",
    "--trust-remote-code",
    "--speculative-algorithm",
    "EAGLE3",
    "--speculative-draft-model-path",
    "/models/Kimi-K2.6-EAGLE3",
    "--speculative-num-draft-tokens",
    "3",
    "--speculative-eagle-topk",
    "4",
]

_SCRUB_PREFIXES = ("NCCL_", "AUTOFIX_SIM_", "SGLANG_")


def sim_environ(load_s: float | None = 0.5, **extra: str) -> dict[str, str]:
    """A clean environment in which `python -m sglang.launch_server` is the simulator."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(_SCRUB_PREFIXES) and k not in ("CUDA_VISIBLE_DEVICES", "PYTHONPATH")
    }
    env.update(sim_env(load_s, base_pythonpath=""))
    env.update(extra)
    return env


def preflight(argvs: list[list[str]], **extra_env: str) -> list[dict[str, Any]]:
    """prepare_server_args -> resolve_once -> check_server_args for each argv, in the sim."""
    proc = subprocess.run(
        [sys.executable, str(HARNESS)],
        input=json.dumps(argvs),
        capture_output=True,
        text=True,
        env=sim_environ(None, **extra_env),
        timeout=60,
        check=True,
    )
    results: list[dict[str, Any]] = json.loads(proc.stdout)
    return results


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Launch:
    """One `python -m sglang.launch_server` run of the simulator, in its own session."""

    def __init__(self, argv: list[str], log_path: Path, env: dict[str, str]) -> None:
        self.argv = argv
        self.log_path = log_path
        self._log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sglang.launch_server", *argv],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def wait_exit(self, timeout: float = 30) -> int:
        return self.proc.wait(timeout=timeout)

    def wait_http(self, port: int, path: str = "/health", timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"launcher exited {self.proc.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        raise AssertionError(f"not ready after {timeout}s:\n{self.log()}")

    def stop(self) -> None:
        # Same process group: the launcher and its rank processes, dead launcher or not.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._log.close()


def http_json(port: int, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        headers={"content-type": "application/json"},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def group_alive(pgid: int) -> list[int]:
    """PIDs still in process group ``pgid``."""
    alive = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                data = f.read().decode(errors="replace")
        except OSError:
            continue
        fields = data[data.rfind(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            alive.append(int(name))
    return alive


def rank_processes(pgid: int) -> list[int]:
    """PIDs in group ``pgid`` that are rank processes: forked by the sim's forkserver (whose
    own cmdline they share), not the forkserver itself nor the resource tracker."""

    def cmdline(pid: int) -> bytes:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                return f.read()
        except OSError:
            return b""

    def parent(pid: int) -> int:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                return int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            return 0

    return [
        pid
        for pid in group_alive(pgid)
        if b"multiprocessing.forkserver" in cmdline(pid) and b"multiprocessing.forkserver" in cmdline(parent(pid))
    ]


__all__ = [
    "DATA",
    "FILES",
    "MODELS",
    "SEED_ARGV",
    "SITE_DIR",
    "free_port",
    "group_alive",
    "http_json",
    "preflight",
    "rank_processes",
    "sim_environ",
]
