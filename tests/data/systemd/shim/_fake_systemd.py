"""A stand-in for systemd on a machine without it as PID 1 (this one, and CI).

systemctl / systemd-run / journalctl in this directory all run this file. Every call is
recorded (argv, one JSON line) in $SHIM_LOG, so tests assert the exact commands autofix
sends. Transient units really run (under autofix's supervise.py, so a crash has an exit
status); `systemctl show` and `journalctl -o json` answer in systemd's own formats,
modelled on captured output (tests/data/systemd/*.txt|*.json). Units named in
$SHIM_ACTIVE_UNITS (comma list) start out active, like a production service.
"""

import json
import os
import subprocess
import sys
import time
import uuid

STATE = os.environ["SHIM_STATE"]
SUPERVISE = os.environ["SHIM_SUPERVISE"]


def record(argv):
    with open(os.environ["SHIM_LOG"], "a") as fh:
        fh.write(json.dumps(argv) + "\n")


def unit_dir(unit):
    # Named as the unit without ".service": supervise.py's token for the candidate's
    # processes is the directory's name, which stands in for the unit's cgroup here.
    return os.path.join(STATE, unit.removesuffix(".service"))


def read(path, default=""):
    try:
        with open(path) as fh:
            return fh.read()
    except OSError:
        return default


def other_units():
    active = set(filter(None, os.environ.get("SHIM_ACTIVE_UNITS", "").split(",")))
    stopped = set(read(os.path.join(STATE, "stopped-units")).split())
    return active - stopped


def systemd_run(args):
    opts = args[: args.index("--")]
    cmd = args[args.index("--") + 1 :]
    unit = next(a.split("=", 1)[1] for a in opts if a.startswith("--unit=")) + ".service"
    env = dict(a.split("=", 1)[1].split("=", 1) for a in opts if a.startswith("--setenv="))
    d = unit_dir(unit)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "env.json"), "w") as fh:
        json.dump({"env": env}, fh)
    with open(os.path.join(d, "invocation"), "w") as fh:
        fh.write(uuid.uuid4().hex)
    done = subprocess.run([sys.executable, SUPERVISE, "start", d, "--", *cmd], capture_output=True, text=True)
    return 0 if done.returncode == 0 else 1


def show(unit):
    d = unit_dir(unit)
    invocation = read(os.path.join(d, "invocation"))
    if not invocation:
        return {
            "ActiveState": "inactive",
            "SubState": "dead",
            "ExecMainStatus": "0",
            "ExecMainCode": "0",
            "InvocationID": "",
        }
    info = read(os.path.join(d, "exit.json"))
    if not info:
        return {
            "ActiveState": "active",
            "SubState": "running",
            "ExecMainStatus": "0",
            "ExecMainCode": "0",
            "InvocationID": invocation,
        }
    info = json.loads(info)
    if info.get("signal"):
        return {
            "ActiveState": "failed",
            "SubState": "failed",
            "ExecMainStatus": str(info["signal"]),
            "ExecMainCode": "2",
            "InvocationID": invocation,
        }
    code = info.get("code") or 0
    state = "failed" if code else "inactive"
    return {
        "ActiveState": state,
        "SubState": "failed" if code else "dead",
        "ExecMainStatus": str(code),
        "ExecMainCode": "1",
        "InvocationID": invocation,
    }


def systemctl(args):
    verb = args[0]
    if verb == "show":
        unit = args[-1]
        props = args[args.index("-p") + 1].split(",")
        state = show(unit)
        for p in props:
            print(f"{p}={state.get(p, '')}")
        return 0
    if verb == "is-active":
        unit = args[-1]
        return 0 if unit in other_units() or show(unit)["ActiveState"] == "active" else 3
    if verb in ("stop", "start"):
        unit = args[-1]
        d = unit_dir(unit)
        if os.path.exists(os.path.join(d, "invocation")):
            if verb == "stop":
                subprocess.run([sys.executable, SUPERVISE, "stop", d, "30"], capture_output=True)
            return 0
        stopped = set(read(os.path.join(STATE, "stopped-units")).split())
        (stopped.add if verb == "stop" else stopped.discard)(unit)
        with open(os.path.join(STATE, "stopped-units"), "w") as fh:
            fh.write(" ".join(sorted(stopped)))
        return 0
    if verb == "reset-failed":
        return 0
    return 1


def journal_lines(unit_invocation, offset):
    for unit in os.listdir(STATE):
        d = unit_dir(unit)
        if read(os.path.join(d, "invocation")) == unit_invocation:
            data = read(os.path.join(d, "log"))
            lines = data.splitlines()
            pid = read(os.path.join(d, "pid")).strip() or "0"
            for n, line in enumerate(lines[offset:], start=offset):
                yield json.dumps(
                    {
                        "__CURSOR": f"s=fake;i={n}",
                        "__REALTIME_TIMESTAMP": str(int(time.time() * 1e6)),
                        "_SYSTEMD_UNIT": unit,
                        "_SYSTEMD_INVOCATION_ID": unit_invocation,
                        "_PID": pid,
                        "SYSLOG_IDENTIFIER": "python",
                        "_TRANSPORT": "stdout",
                        "PRIORITY": "6",
                        "MESSAGE": line,
                    }
                )
            return


def journalctl(args):
    invocation = next(a.split("=", 1)[1] for a in args if a.startswith("_SYSTEMD_INVOCATION_ID="))
    follow = "-f" in args
    offset = 0
    while True:
        for line in journal_lines(invocation, offset):
            print(line, flush=True)
            offset += 1
        if not follow:
            return 0
        time.sleep(0.1)


def main():
    name = sys.argv[1]
    args = sys.argv[2:]
    record([name, *args])
    return {"systemd-run": systemd_run, "systemctl": systemctl, "journalctl": journalctl}[name](args)


if __name__ == "__main__":
    sys.exit(main())
