"""The process service manager on this machine: exit status, logs, group kill, env, argv."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autofix.errors import HostError
from autofix.hosts.local import LocalHost
from autofix.model import Candidate
from autofix.probes import _proc, supervise
from autofix.services import ProcessManager, ServiceState
from autofix.targets import Target

pytestmark = pytest.mark.integration


def wait_exit(pm: ProcessManager, handle, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = pm.state(handle)
        if not state.running:
            return state
        time.sleep(0.05)
    raise AssertionError("the process did not exit")


def alive(pid: int) -> bool:
    """Running, not merely a zombie waiting for a reaper (PID 1 here may not reap)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def script_target(tmp_path: Path, code: str) -> Target:
    """A target whose 'module' is a script we write (python -m runs it from PYTHONPATH)."""
    (tmp_path / "fake_server.py").write_text(code)
    return Target("sglang", sys.executable, "fake_server", (("PYTHONPATH", str(tmp_path)),))


def test_exit_status_log_and_exact_argv(tmp_path: Path) -> None:
    """The exit code is recorded, stdout+stderr land in the log, argv and env arrive intact."""
    target = script_target(
        tmp_path,
        "import json, os, sys\n"
        "print(json.dumps({'argv': sys.argv[1:], 'env': os.environ.get('WEIRD')}))\n"
        "print('to stderr', file=sys.stderr)\n"
        "sys.exit(3)\n",
    )
    host = LocalHost(workdir=str(tmp_path / "work"))
    pm = ProcessManager(host, sys.executable)
    hostile = "a b;$(touch /tmp/pwned)`x`'\"\\%"
    candidate = Candidate.build({"served-model-name": hostile, "flag": True}, {"WEIRD": hostile})
    handle = pm.start("t1", candidate, target, None)
    state = wait_exit(pm, handle)
    assert state.exit_code == 3 and state.signal is None
    log = pm.read_log(handle, 0).decode()
    first = json.loads(log.splitlines()[0])
    assert first == {"argv": ["--served-model-name", hostile, "--flag"], "env": hostile}
    assert "to stderr" in log
    assert not Path("/tmp/pwned").exists()


def test_death_by_signal_is_logged_as_systemd_would(tmp_path: Path) -> None:
    """A SIGKILL mid-line (a torn traceback) leaves no traceback to read: the supervisor
    says how the process ended in systemd's words, on a line of its own."""
    target = script_target(
        tmp_path,
        "import os, signal, sys\n"
        "sys.stderr.write('Traceback (most recent call last):\\n  File \"x.py\", li')\n"
        "sys.stderr.flush()\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n",
    )
    host = LocalHost(workdir=str(tmp_path / "work"))
    pm = ProcessManager(host, sys.executable)
    handle = pm.start("t-kill", Candidate.build({}, {}), target, None)
    state = wait_exit(pm, handle)
    assert state.signal == 9
    assert state.describe().startswith("killed by signal 9 (SIGKILL, exit status 137; ")
    lines = pm.read_log(handle, 0).decode().splitlines()
    assert lines[-2:] == [
        '  File "x.py", li',
        "autofix supervise: t-kill: Main process exited, code=killed, status=9/KILL",
    ]


def test_describe_names_the_signal_and_the_shell_status() -> None:
    assert ServiceState(False, signal=11).describe() == "killed by signal 11 (SIGSEGV, exit status 139)"
    assert "OOM killer" in ServiceState(False, signal=9).describe()
    assert ServiceState(False, exit_code=1).describe() == "exited with status 1"


def test_stop_kills_the_whole_process_group(tmp_path: Path) -> None:
    """Stopping a server kills its children (the TP ranks) too, and records the signal."""
    target = script_target(
        tmp_path,
        "import os, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        "open(os.environ['CHILD_PID_FILE'], 'w').write(str(child.pid))\n"
        "time.sleep(600)\n",
    )
    host = LocalHost(workdir=str(tmp_path / "work"))
    pm = ProcessManager(host, sys.executable)
    pid_file = tmp_path / "child.pid"
    handle = pm.start("t2", Candidate.build({}, {"CHILD_PID_FILE": str(pid_file)}), target, None)
    deadline = time.monotonic() + 10
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    child_pid = int(pid_file.read_text())
    assert pm.state(handle).running
    state = pm.stop(handle, grace=5)
    assert not state.running and state.signal is not None
    time.sleep(0.2)
    assert not alive(child_pid)


def test_missing_interpreter_is_a_host_error(tmp_path: Path) -> None:
    """A launch python that does not exist is reported, not hung on."""
    from autofix.errors import HostError

    host = LocalHost(workdir=str(tmp_path / "work"))
    pm = ProcessManager(host, sys.executable)
    target = Target("sglang", "/nonexistent/python", "sglang.launch_server")
    with pytest.raises(HostError, match="could not start"):
        pm.start("t3", Candidate.build({}), target, None)


def test_stop_never_signals_a_process_that_took_a_dead_candidates_pid(tmp_path: Path) -> None:
    """The candidate died and its pid went to an unrelated process (here: its identity
    file is pointed at one, as a reused pid would be): stop leaves that process alone,
    with or without the exit record; status says the candidate is not running."""
    import subprocess

    target = script_target(tmp_path, "import sys; sys.exit(0)\n")
    host = LocalHost(workdir=str(tmp_path / "work"))
    pm = ProcessManager(host, sys.executable)
    handle = pm.start("t-reused", Candidate.build({}), target, None)
    wait_exit(pm, handle)
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        identity = Path(handle.directory) / "identity.json"
        record = json.loads(identity.read_text())
        record.update(pid=bystander.pid, supervisor=bystander.pid)  # the same pids, other processes
        identity.write_text(json.dumps(record))
        for with_exit_record in (True, False):
            if not with_exit_record:
                (Path(handle.directory) / "exit.json").unlink()
                assert pm.state(handle, deep=True).gone  # not "running": the pid is not the candidate
            pm.stop(handle, grace=1)
            time.sleep(0.2)
            assert bystander.poll() is None and alive(bystander.pid)
    finally:
        bystander.kill()
        bystander.wait()


def test_a_start_retried_after_a_lost_answer_starts_nothing_more(tmp_path: Path) -> None:
    """The supervisor's start run again for the same directory (the first answer was lost
    with the connection) reports the candidate it started, and starts no second one."""
    target = script_target(tmp_path, "import time; time.sleep(60)\n")
    host = LocalHost(workdir=str(tmp_path / "work"))
    pm = ProcessManager(host, sys.executable)
    candidate = Candidate.build({})
    first = pm.start("t-again", candidate, target, None)
    again = pm.start("t-again", candidate, target, None)
    try:
        assert again.pid == first.pid
        leaders = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _runs(p, "-m\0fake_server")]
        assert len(leaders) == 1
    finally:
        pm.stop(first, grace=2)
    assert not alive(int(first.pid or 0))


def _runs(proc: Path, needle: str) -> bool:
    """Whether the live process ``proc`` (a /proc entry) runs ``needle``."""
    try:
        command = (proc / "cmdline").read_bytes()
        return needle.encode() in command and b"supervise" not in command and alive(int(proc.name))
    except OSError:
        return False


def test_who_listens_names_the_candidate_and_strangers(tmp_path: Path) -> None:
    """On the candidate's port: the candidate itself is ours; a server of this test
    process is named by pid and command, and is not ours."""
    import socket

    target = script_target(
        tmp_path,
        "import os, socket, time\n"
        "s = socket.socket(); s.bind(('127.0.0.1', int(os.environ['PORT']))); s.listen()\n"
        "open(os.environ['READY'], 'w').write('ok')\n"
        "time.sleep(60)\n",
    )
    host = LocalHost(workdir=str(tmp_path / "work"))
    pm = ProcessManager(host, sys.executable)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ready = tmp_path / "ready"
    handle = pm.start("t-listen", Candidate.build({}, {"PORT": str(port), "READY": str(ready)}), target, None)
    try:
        deadline = time.monotonic() + 10
        while not ready.exists():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        (ours,) = pm.listeners(port, handle)
        assert ours.ours and ours.pid == handle.pid
        assert pm.listeners(port, None)[0].ours is False  # before a launch nothing is ours
    finally:
        pm.stop(handle, grace=2)
    with socket.socket() as stranger:
        stranger.bind(("127.0.0.1", port))
        stranger.listen()
        (held,) = pm.listeners(port, handle)
        assert not held.ours and held.pid == os.getpid()
        assert f"pid {held.pid}" in held.describe()


def test_env_files_are_read_on_the_host_after_the_candidates_env(tmp_path: Path) -> None:
    """launch.env_files: the supervisor reads them as systemd reads EnvironmentFile= (a
    later file wins over the candidate's env, as in the exported unit), skips a missing
    "-" file, and nothing of them is left in the candidate's directory."""
    target = script_target(
        tmp_path,
        "import json, os\nprint(json.dumps({k: os.environ.get(k) for k in ('HF_TOKEN', 'NCCL_ALGO', 'ONLY_OURS')}))\n",
    )
    secrets = tmp_path / "sglang.env"
    secrets.write_text("# the operator's file\nHF_TOKEN='hf_from file'\nNCCL_ALGO=Tree\n")
    secrets.chmod(0o600)
    host = LocalHost(workdir=str(tmp_path / "work"))
    pm = ProcessManager(host, sys.executable)
    candidate = Candidate.build({"model-path": "/m"}, {"NCCL_ALGO": "Ring", "ONLY_OURS": "1"})
    files = [str(secrets), f"-{tmp_path}/missing.env"]
    handle = pm.start("t-envfiles", candidate, target, None, env_files=files)
    assert wait_exit(pm, handle).exit_code == 0
    seen = json.loads(pm.read_log(handle, 0).decode().strip().splitlines()[0])
    assert seen == {"HF_TOKEN": "hf_from file", "NCCL_ALGO": "Tree", "ONLY_OURS": "1"}
    assert "hf_from file" not in "".join(
        p.read_text(errors="replace") for p in Path(handle.directory).iterdir() if p.name != "log"
    )


def test_a_required_env_file_that_is_missing_fails_the_start_by_name(tmp_path: Path) -> None:
    from autofix.errors import HostError

    target = script_target(tmp_path, "print('never')\n")
    pm = ProcessManager(LocalHost(workdir=str(tmp_path / "work")), sys.executable)
    with pytest.raises(HostError, match=f"EnvironmentFile {tmp_path}/nope.env: no such file"):
        pm.start("t-nofile", Candidate.build({"model-path": "/m"}), target, None, env_files=[f"{tmp_path}/nope.env"])


def test_a_stop_before_the_start_leaves_nothing_to_run(tmp_path: Path) -> None:
    """A controller killed while its start was on the way: the resumed controller stops
    the planned name before the start reaches the host. The late start then starts
    nothing (the name was stopped), so nothing of the attempt holds its port later."""
    target = script_target(tmp_path, "import time; time.sleep(60)\n")
    host = LocalHost(workdir=str(tmp_path / "work"))
    pm = ProcessManager(host, sys.executable)
    name = f"t-late-{os.getpid()}"
    pm.stop(pm.planned(name), grace=2)
    try:
        with pytest.raises(HostError, match="stopped before it started"):
            pm.start(name, Candidate.build({}), target, None)
        assert _proc.carriers(name) == []
    finally:
        pm.stop(pm.planned(name), grace=2)  # whatever a regression started


def test_a_stop_waits_for_a_start_in_flight(tmp_path: Path) -> None:
    """While a start holds the start lock (the candidate is being exec'd and its identity
    is not on disk yet), a stop waits for it instead of finding nothing to stop."""
    directory = tmp_path / "work" / "services" / f"t-flight-{os.getpid()}"
    directory.mkdir(parents=True)
    script = Path(supervise.__file__)
    with open(directory / "start.lock", "a") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        stopping = subprocess.Popen([sys.executable, str(script), "stop", str(directory), "1"])
        time.sleep(1.0)
        assert stopping.poll() is None  # waiting on the lock, not done with nothing found
    assert stopping.wait(timeout=30) == 0
