"""The systemd service manager: exact commands, systemd's output parsed, conflicts handled.

systemd cannot run as PID 1 here: see tests/data/systemd/README.md for what stands in.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.config import parse_base
from autofix.errors import HostError
from autofix.hosts.base import CommandResult
from autofix.hosts.local import LocalHost
from autofix.model import Candidate, Gate
from autofix.run import GateProgress, Runner, SearchOptions
from autofix.store import open_store
from autofix.systemd import SystemdManager, parse_show, state_from_show
from autofix.targets import Target, make_target
from autofix.tracebacks import parse_text

from .conftest import DATA, ROOT
from .systemd_rules import parse_environment_file

SYSTEMD = DATA / "systemd"


class RecordingHost(LocalHost):
    """This machine, remembering every command and answering systemctl from captures."""

    def __init__(self, workdir: str, user: str = "root", show: str = "show-running.txt") -> None:
        super().__init__(workdir=workdir)
        self.user = user
        self.commands: list[list[str]] = []
        self.show = show

    def run(
        self,
        argv: Sequence[str],
        *,
        input: bytes | None = None,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
    ) -> CommandResult:
        self.commands.append(list(argv))
        plain = [a for a in argv if a not in ("sudo", "-n")]
        if plain[:2] == ["systemctl", "show"]:
            return CommandResult(tuple(argv), 0, (SYSTEMD / self.show).read_text(), "")
        if plain[0] in ("systemd-run", "systemctl"):
            return CommandResult(tuple(argv), 0, "", "")
        return super().run(argv, input=input, timeout=timeout, env=env)


def test_transient_unit_command_is_exact_and_needs_no_quoting(tmp_path: Path) -> None:
    """systemd-run gets the candidate's argv as separate arguments (no shell) and its env
    through a 0600 EnvironmentFile= (never --setenv: ps, sudo's log and systemctl show
    would hold the values); the file is gone once the unit is stopped."""
    host = RecordingHost(str(tmp_path))
    manager = SystemdManager(host, "/opt/sglang/.venv/bin/python")
    target = Target("sglang", "/opt/sglang/.venv/bin/python", "sglang.launch_server")
    candidate = Candidate.build(
        {"model-path": "/models/Kimi-K2.6", "served-model-name": "a b;$(x)"},
        {"NCCL_PROTO": "LL", "HF_TOKEN": "hf_Unit1 with 'quotes' and \\"},
    )
    handle = manager.start("autofix-1-1-abc", candidate, target, None)
    env_file = f"{tmp_path}/services/autofix-1-1-abc/env"
    assert oct(os.stat(Path(env_file).parent).st_mode & 0o777) == "0o700"
    run = next(c for c in host.commands if c[0] == "systemd-run")
    assert run == [
        "systemd-run",
        "--unit=autofix-1-1-abc",
        "--property=Restart=no",
        "--property=KillMode=control-group",
        "--quiet",
        f"--property=EnvironmentFile={env_file}",
        "--",
        "/opt/sglang/.venv/bin/python",
        "-m",
        "sglang.launch_server",
        "--model-path",
        "/models/Kimi-K2.6",
        "--served-model-name",
        "a b;$(x)",
    ]
    assert oct(os.stat(env_file).st_mode & 0o777) == "0o600"
    assert parse_environment_file(Path(env_file).read_text()) == candidate.env_dict()
    assert host.commands[host.commands.index(run) + 1] == [
        "systemctl",
        "show",
        "-p",
        "ActiveState,SubState,ExecMainStatus,ExecMainCode,InvocationID",
        "autofix-1-1-abc.service",
    ]
    assert handle.directory == "3b8e5c2a7d1f4e0a9c6b2d8e1f0a7c3b"
    manager.stop(handle)
    assert ["systemctl", "reset-failed", "autofix-1-1-abc.service"] in host.commands
    assert ["systemctl", "stop", "autofix-1-1-abc.service"] in host.commands
    assert not Path(env_file).exists()
    assert not any("hf_Unit1" in " ".join(c) for c in host.commands)


def test_the_operators_env_files_follow_the_candidates_so_they_win(tmp_path: Path) -> None:
    """launch.env_files go to systemd-run as EnvironmentFile= after autofix's own file:
    systemd lets the later file win, as the exported unit's EnvironmentFile= lines win
    over its Environment=; systemd reads them on the host, autofix never does."""
    host = RecordingHost(str(tmp_path))
    manager = SystemdManager(host, "/v/bin/python")
    target = Target("sglang", "/v/bin/python", "sglang.launch_server")
    candidate = Candidate.build({"model-path": "/m"}, {"NCCL_ALGO": "Ring"})
    manager.start("autofix-1-2-abc", candidate, target, None, env_files=["/etc/sglang/k26.env", "-/etc/x.env"])
    run = next(c for c in host.commands if c[0] == "systemd-run")
    files = [a for a in run if a.startswith("--property=EnvironmentFile=")]
    assert files == [
        f"--property=EnvironmentFile={tmp_path}/services/autofix-1-2-abc/env",
        "--property=EnvironmentFile=/etc/sglang/k26.env",
        "--property=EnvironmentFile=-/etc/x.env",
    ]


def test_secret_flags_reach_the_unit_through_a_config_file(tmp_path: Path) -> None:
    """A secret flag goes into a 0600 SGLang --config file, never onto systemd-run's
    command line (or the unit's ExecStart); the file goes when the unit is stopped."""
    config = parse_base("launch:\n  args: {model-path: /m, api-key: sk-Unit2}\n", source="u.yaml")
    host = RecordingHost(str(tmp_path), user="ubuntu")
    manager = SystemdManager(host, "python3")
    target = Target("sglang", "python3", "sglang.launch_server", secrets=config.secrets)
    handle = manager.start("autofix-1-2-abc", config.base, target, None)
    run = next(c for c in host.commands if "systemd-run" in c)
    assert run[:3] == ["sudo", "-n", "systemd-run"] and not any("sk-Unit2" in a for a in run)
    secret_file = run[-1]
    assert run[-2] == "--config" and secret_file.endswith(".yaml") and "--api-key" not in run
    assert oct(os.stat(secret_file).st_mode & 0o777) == "0o600"
    assert Path(secret_file).read_text().strip() == '"api-key": "sk-Unit2"'
    manager.stop(handle)
    assert not Path(secret_file).exists()


def test_files_are_removed_when_the_start_fails(tmp_path: Path) -> None:
    """systemd-run refused (no sudo rights): the env file does not stay behind."""

    class Refusing(RecordingHost):
        def run(self, argv: Sequence[str], **kwargs: Any) -> CommandResult:
            if "systemd-run" in argv:
                self.commands.append(list(argv))
                return CommandResult(tuple(argv), 1, "", "sudo: a password is required")
            return super().run(argv, **kwargs)

    host = Refusing(str(tmp_path), user="ubuntu")
    manager = SystemdManager(host, "python3")
    with pytest.raises(HostError, match="a password is required"):
        manager.start("u", Candidate.build({"m": 1}, {"HF_TOKEN": "hf_Fail3"}), Target("sglang", "python3", "m"), None)
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and b"hf_Fail3" in p.read_bytes()]


def test_sudo_when_the_user_is_not_root(tmp_path: Path) -> None:
    """A non-root SSH user gets sudo -n (never a password prompt)."""
    host = RecordingHost(str(tmp_path), user="ubuntu")
    SystemdManager(host, "python3").start("u", Candidate.build({"m": 1}), Target("sglang", "python3", "m"), None)
    assert next(c for c in host.commands if "systemd-run" in c)[:3] == ["sudo", "-n", "systemd-run"]


@pytest.mark.parametrize(
    ("capture", "running", "code", "signal"),
    [("show-running.txt", True, None, None), ("show-failed.txt", False, 1, None), ("show-killed.txt", False, None, 9)],
)
def test_systemctl_show_states(capture: str, running: bool, code: int | None, signal: int | None) -> None:
    """ActiveState/ExecMainCode/ExecMainStatus become running / exit code / signal."""
    state = state_from_show(parse_show((SYSTEMD / capture).read_text()))
    assert (state.running, state.exit_code, state.signal) == (running, code, signal)


def test_unit_journal_classifies_like_the_raw_capture() -> None:
    """journalctl -o json of a failed unit yields the seed's class and frame."""
    journal = parse_text((SYSTEMD / "journal-seed-failure.json").read_text())
    d = classify(journal, load_catalog(), Gate.START)
    assert d.failure.class_id == "spec-eagle-params-incomplete"
    assert d.failure.frame is not None and d.failure.frame.function == "_handle_eagle_family"
    assert any(s.kind == "exit_status" for s in journal.signals)


@pytest.fixture
def shim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """systemctl / systemd-run / journalctl stand-ins first on PATH; returns the command log."""
    log = tmp_path / "commands.jsonl"
    state = tmp_path / "systemd-state"
    state.mkdir()
    monkeypatch.setenv("PATH", f"{SYSTEMD / 'shim'}:{os.environ['PATH']}")
    monkeypatch.setenv("SHIM_LOG", str(log))
    monkeypatch.setenv("SHIM_STATE", str(state))
    monkeypatch.setenv("SHIM_SUPERVISE", str(ROOT / "autofix" / "probes" / "supervise.py"))
    monkeypatch.setenv("SHIM_PYTHON", sys.executable)
    monkeypatch.setenv("SHIM_ACTIVE_UNITS", "sglang-k26.service")
    return log


def _commands(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def _runner(tmp_path: Path, events: Any = lambda e: None) -> Runner:
    text = (ROOT / "examples" / "k26-eagle3.yaml").read_text()
    text = text.replace("port: 30001", f"port: {30100 + os.getpid() % 500}").replace(
        "  bench: {min_tokens_per_s: 26.3}     # optional: beat the autoregressive baseline\n", ""
    )
    config = parse_base(text, source="k26-eagle3.yaml")
    host = LocalHost(workdir=str(tmp_path / "work"))
    target = make_target("sim", config, sim_load_s=0.5)
    options = SearchOptions(
        gates=(Gate.PREFLIGHT, Gate.START, Gate.READY, Gate.SMOKE), max_attempts=8, max_time=300, host_label="local"
    )
    return Runner(
        config,
        options,
        store=open_store(f"sqlite:///{tmp_path / 'runs.db'}"),
        host=host,
        target=target,
        catalog=load_catalog(),
        services=SystemdManager(host, sys.executable),
        events=events,
    )


@pytest.mark.integration
def test_search_through_systemd_stops_and_restarts_the_conflicting_unit(tmp_path: Path, shim: Path) -> None:
    """The production unit is stopped before the first launch and started at the end;
    the candidate runs as a transient unit, watched through journalctl -f."""
    result = _runner(tmp_path).run()
    assert result.winner is not None and result.launches == 1
    commands = _commands(shim)
    names = [" ".join(c) for c in commands]
    first_run = next(i for i, c in enumerate(commands) if c[0] == "systemd-run")
    last_run = max(i for i, c in enumerate(commands) if c[0] == "systemd-run")
    assert names.index("systemctl stop sglang-k26.service") < first_run
    assert names.index("systemctl start sglang-k26.service") > last_run
    assert any(c[0] == "journalctl" and "-f" in c for c in commands)
    unit = next(c for c in commands if c[0] == "systemd-run")[1].split("=", 1)[1] + ".service"
    assert ["systemctl", "reset-failed", unit] in commands


@pytest.mark.integration
def test_conflicting_unit_is_restarted_after_an_interrupt(tmp_path: Path, shim: Path) -> None:
    """Ctrl-C in the middle of a launch still brings the production unit back."""

    def interrupt(event: object) -> None:
        if isinstance(event, GateProgress):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _runner(tmp_path, interrupt).run()
    names = [" ".join(c) for c in _commands(shim)]
    assert "systemctl stop sglang-k26.service" in names
    assert names.index("systemctl start sglang-k26.service") > names.index("systemctl stop sglang-k26.service")


@pytest.mark.integration
def test_secrets_reach_no_sink_of_a_whole_search_through_systemd(
    tmp_path: Path, shim: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A search whose base holds an env secret, a secret flag and one only the host's parser
    documents (watermark-config, left out of the facts given to the config): the database
    file, the log lines, what the terminal shows, the exports, every command the systemd
    stand-in received, every process table sampled while it ran and the files left on the
    host hold none of them. The launch carried them in its two files instead."""
    import threading
    import time

    from autofix import logs
    from autofix.cli import err
    from autofix.export import ExportContext, render
    from autofix.view import SearchView

    secrets = ["hf_WholeRun1secret", "sk-WholeRun2secret", "wmWholeRun3secret"]
    text = (ROOT / "examples" / "k26-eagle3.yaml").read_text()
    text = text.replace("port: 30001", f"port: {30600 + os.getpid() % 300}").replace(
        "  bench: {min_tokens_per_s: 26.3}     # optional: beat the autoregressive baseline\n", ""
    )
    text = text.replace("    NCCL_ALGO: Ring\n", f"    NCCL_ALGO: Ring\n    'HF_TOKEN': >-\n      {secrets[0]}\n")
    text = text.replace(
        "    port:", f'    api-key: "{secrets[1]}"\n    watermark-config: \'{{"key": "{secrets[2]}"}}\'\n    port:'
    )
    config = parse_base(text, source="whole.yaml", secret_flags=())  # watermark-config: the host tells
    assert "watermark-config" not in config.secrets.flags
    host = LocalHost(workdir=str(tmp_path / "work"))
    logs.configure(json_lines=True, verbose=True)
    view = SearchView(err, config.unit)
    runner = Runner(
        config,
        SearchOptions(
            gates=(Gate.PREFLIGHT, Gate.START, Gate.READY, Gate.SMOKE), max_attempts=8, max_time=300, host_label="local"
        ),
        store=open_store(f"sqlite:///{tmp_path / 'runs.db'}"),
        host=host,
        target=make_target("sim", config, sim_load_s=0.5),
        catalog=load_catalog(),
        services=SystemdManager(host, sys.executable),
        events=view.on_event,
    )
    seen_in_ps: list[str] = []
    running = True

    def sample() -> None:
        while running:
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
                except OSError:
                    continue
                seen_in_ps.extend(s for s in secrets if s in cmdline)
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        result = runner.run()
    finally:
        running = False
        sampler.join()
        view.close()
    assert result.winner is not None and result.launches == 1
    summary = json.dumps(result.to_json())  # what search --json prints
    assert not [s for s in secrets if s in summary] and not [g for g in result.gave_up if "api-key" in g]
    out = capsys.readouterr()
    store = open_store(f"sqlite:///{tmp_path / 'runs.db'}")
    run = store.run(result.run.id)
    exported = parse_base(run.base_text, source="whole.yaml")
    winner = store.attempt(result.winner.id)
    ctx = ExportContext(exported, winner.candidate, run_id=run.id, attempt_id=winner.id)
    exports = "".join(render(fmt, ctx) for fmt in ("unit", "argv", "env", "yaml"))
    database = b"".join(p.read_bytes() for p in tmp_path.glob("runs.db*"))
    left = b"".join(p.read_bytes() for p in (tmp_path / "work").rglob("*") if p.is_file())
    left += b"".join(p.read_bytes() for p in Path(os.environ["SHIM_STATE"]).rglob("*") if p.is_file())
    commands = shim.read_text()
    for secret in secrets:
        assert secret.encode() not in database, ("store", secret)
        assert secret not in out.out + out.err, ("logs and terminal", secret)
        assert secret not in exports, ("exports", secret)
        assert secret not in commands, ("host commands", secret)
        assert secret.encode() not in left, ("files left on the host", secret)
    assert not seen_in_ps
    launch = next(json.loads(line) for line in commands.splitlines() if json.loads(line)[0] == "systemd-run")
    assert any(a.startswith("--property=EnvironmentFile=") for a in launch) and launch[-2] == "--config"
    assert "watermark-config: ..." in render("unit", ctx)  # the host's parser made it a secret
