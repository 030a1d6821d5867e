"""Benchmark: how soon a crash is known, and what watching costs, side by side in one run.

The same simulated crash (Kimi K2.6 TP8, --mem-fraction-static 0.95: CUDA OOM at graph
capture, after the load) is launched and watched four ways:

* autofix, local: the watcher on the host pushes the exit; time from the process's exit
  (its exit record) to the failure classified and written to the store;
* autofix, SSH loopback: the same over a real sshd on 127.0.0.1 (one kept connection);
* the seed's loop: sleep 15 s, a new `ssh` per check, then `tail -n 15 | grep`;
* (cost) a healthy server watched for a while: the controller's CPU time per second and
  commands run on the host per second, for autofix's watcher vs polling with a new `ssh`
  process every second (the rate needed to learn of a crash within about a second).

    python bench/detect.py [--load 3] [--watch 20]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.config import parse_base
from autofix.gates import Watch
from autofix.hosts.base import Host
from autofix.hosts.local import LocalHost
from autofix.hosts.ssh import SshHost
from autofix.model import AttemptState, Candidate, Gate, GateVerdict
from autofix.services import ProcessManager
from autofix.store import open_store
from autofix.targets import make_target
from autofix.tracebacks import JournalParser
from bench.sshd import make_sshd

ROOT = Path(__file__).resolve().parent.parent
SEED_GREP = "Error|error|FAIL|Traceback|assert"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def candidate(crash: bool) -> Candidate:
    args: dict[str, object] = {
        "model-path": "/models/Kimi-K2.6",
        "tp": 8,
        "trust-remote-code": True,
        "host": "127.0.0.1",
        "port": free_port(),
    }
    if crash:
        args["mem-fraction-static"] = 0.95
    return Candidate.build(args)


def exit_time(host: Host, directory: str) -> float:
    data = host.read(f"{directory}/exit.json")
    return float(json.loads(data)["at"])


def autofix_detect(host: Host, load_s: float, label: str) -> dict[str, object]:
    """Launch the crash, watch it, classify and record it; latency from exit to record."""
    config = parse_base((ROOT / "examples" / "k26-eagle3.yaml").read_text(), source="k26-eagle3.yaml")
    remote = host if isinstance(host, SshHost) else None
    target = make_target("sim", config, sim_load_s=load_s, remote=remote)
    manager = ProcessManager(host, target.python)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'runs.db'}")
        run = store.create_run(name="detect", base_path="-", base_text="", host=label, target="sim")
        cand = candidate(crash=True)
        attempt = store.begin_attempt(run.id, cand, parent_id=None, move=None, host=label, target_version="0.5.23")
        handle = manager.start(f"detect-{os.getpid()}-{label}", cand, target, None)
        watch = Watch(manager, handle)
        while watch.poll(wait=0.25).running:
            pass
        parser = JournalParser()
        offset = 0
        while chunk := manager.read_log(handle, offset, 1 << 20):
            parser.feed_bytes(chunk)
            offset += len(chunk)
        diagnosis = classify(parser.result(), load_catalog(), Gate.START)
        store.finish_attempt(
            attempt.id,
            state=AttemptState.FAILED,
            verdicts=[GateVerdict(Gate.START, False, 0.0, watch.state.describe())],
            failure=diagnosis.failure,
        )
        recorded = time.time()
        watch.close()
        latency = recorded - exit_time(host, handle.directory)
        manager.stop(handle, grace=5)
    return {"latency": latency, "found": f"{diagnosis.failure.class_id}: {diagnosis.failure.exception}"}


def seed_loop(spec_args: list[str], host: Host, load_s: float) -> dict[str, object]:
    """The seed's loop: sleep 15 s, a new ssh per check, then tail -n 15 | grep."""
    config = parse_base((ROOT / "examples" / "k26-eagle3.yaml").read_text(), source="k26-eagle3.yaml")
    target = make_target("sim", config, sim_load_s=load_s, remote=host if isinstance(host, SshHost) else None)
    manager = ProcessManager(host, target.python)
    handle = manager.start(f"seed-{os.getpid()}", candidate(crash=True), target, None)
    found = ""
    while True:
        time.sleep(15)
        check = subprocess.run(
            [*spec_args, f"test -f {shlex.quote(handle.directory)}/exit.json && echo failed"],
            capture_output=True,
            text=True,
            check=False,
        )
        if "failed" in check.stdout:
            tail = subprocess.run(
                [*spec_args, f"tail -n 15 {shlex.quote(handle.log_path)} | grep -E {shlex.quote(SEED_GREP)}"],
                capture_output=True,
                text=True,
                check=False,
            )
            found = (tail.stdout.strip().splitlines() or ["(nothing)"])[-1][-80:]
            break
    latency = time.time() - exit_time(host, handle.directory)
    manager.stop(handle, grace=5)
    return {"latency": latency, "found": f"a bare line: {found}"}


def watching_cost(
    host: Host, spec_args: list[str], load_s: float, seconds: float
) -> tuple[dict[str, float], dict[str, float]]:
    """CPU time of the controller and commands on the host per second of watching."""
    config = parse_base((ROOT / "examples" / "k26-eagle3.yaml").read_text(), source="k26-eagle3.yaml")
    target = make_target("sim", config, sim_load_s=load_s, remote=host if isinstance(host, SshHost) else None)
    manager = ProcessManager(host, target.python)
    handle = manager.start(f"cost-{os.getpid()}", candidate(crash=False), target, None)

    def cpu() -> float:
        me = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    watch = Watch(manager, handle)
    start_cpu, start = cpu(), time.monotonic()
    while time.monotonic() - start < seconds:
        watch.poll(wait=0.25)
    watcher = {"cpu_per_s": (cpu() - start_cpu) / seconds, "commands_per_s": 1 / seconds}
    watch.close()

    start_cpu, start = cpu(), time.monotonic()
    commands = 0
    while time.monotonic() - start < seconds:
        subprocess.run(
            [*spec_args, f"test -f {shlex.quote(handle.directory)}/exit.json && echo failed"],
            capture_output=True,
            check=False,
        )
        commands += 1
        time.sleep(max(0.0, 1.0 - (time.monotonic() - start) % 1.0))
    polling = {"cpu_per_s": (cpu() - start_cpu) / seconds, "commands_per_s": commands / seconds}
    manager.stop(handle, grace=5)
    return watcher, polling


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--load", type=float, default=3.0, help="sim load time in seconds (default 3)")
    parser.add_argument("--watch", type=float, default=20.0, help="seconds of watching for the cost figures")
    args = parser.parse_args()
    from autofix import logs

    logs.configure()
    with tempfile.TemporaryDirectory() as tmp:
        sshd = make_sshd(Path(tmp))
        os.environ["HOME"] = str(sshd.home)  # the alias, key and known_hosts of the throwaway server
        ssh_args = ["ssh", "-F", str(sshd.ssh_config), "-o", "BatchMode=yes", "gpu-sim"]
        try:
            local = LocalHost()
            remote = SshHost("gpu-sim", ssh_config=str(sshd.ssh_config))
            rows = [
                ("autofix, local (watcher)", autofix_detect(local, args.load, "local")),
                ("autofix, SSH loopback (watcher)", autofix_detect(remote, args.load, "ssh")),
                ("seed loop: sleep 15 + new ssh", seed_loop(ssh_args, remote, args.load)),
            ]
            watcher, polling = watching_cost(remote, ssh_args, args.load, args.watch)
            remote.close()
        finally:
            sshd.close()
    print("the same simulated crash: CUDA OOM at graph capture after load (K2.6 TP8, mem-fraction-static 0.95)\n")
    print(f"{'watcher':<36} {'crash -> recorded':>18}  what it knew")
    for name, row in rows:
        print(f"{name:<36} {float(str(row['latency'])):16.2f} s  {row['found']}")
    print(f"\nwatching a healthy server for {args.watch:.0f} s over SSH loopback:")
    print(f"{'':<36} {'controller CPU s/s':>18} {'commands on host/s':>19}")
    print(f"{'autofix watcher (one channel)':<36} {watcher['cpu_per_s']:18.4f} {watcher['commands_per_s']:19.2f}")
    print(f"{'polling, new ssh every 1 s':<36} {polling['cpu_per_s']:18.4f} {polling['commands_per_s']:19.2f}")
    local_ok = all(float(str(r["latency"])) < 1.0 for _, r in rows[:2])
    cheap = (
        watcher["cpu_per_s"] < polling["cpu_per_s"] / 10 and watcher["commands_per_s"] < polling["commands_per_s"] / 10
    )
    print(
        f"\ntargets: detection under 1 s -> {'met' if local_ok else 'NOT met'}; "
        f"watching cost under a tenth of polling -> {'met' if cheap else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
