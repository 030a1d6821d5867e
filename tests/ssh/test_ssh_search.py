"""The whole search over real SSH (sim target on loopback), and faults of the connection."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT
from ..integration.helpers import launched_and_running
from .conftest import Sshd

pytestmark = pytest.mark.integration


def env_for(sshd: Sshd, load_s: str) -> dict[str, str]:
    env = {**os.environ, "HOME": str(sshd.home), "AUTOFIX_SIM_LOAD_S": load_s, "COLUMNS": "200"}
    env.pop("AUTOFIX_DB", None)
    return env


def autofix(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "autofix.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def attempts(cwd: Path, env: dict[str, str], run: int) -> list[dict[str, Any]]:
    done = autofix("history", str(run), "--json", cwd=cwd, env=env)
    return list(json.loads(done.stdout)["attempts"])


def test_search_over_ssh_passes_like_the_local_sim(sshd: Sshd, tmp_path: Path) -> None:
    """Same outcome and the same attempts as the local sim search, over one SSH connection."""
    env = env_for(sshd, "1")
    base = str(ROOT / "examples" / "k26-eagle3.yaml")
    remote = autofix("search", "--base", base, "--host", sshd.spec, "--target", "sim", "--json", cwd=tmp_path, env=env)
    assert remote.returncode == 0, remote.stderr
    local = autofix("search", "--base", base, "--host", "sim", "--json", cwd=tmp_path, env=env)
    assert local.returncode == 0, local.stderr
    r, l_ = (json.loads(x.stdout.strip().splitlines()[-1]) for x in (remote, local))
    assert r["launches"] == l_["launches"] == 1
    assert r["winner"]["args"] == l_["winner"]["args"]

    def shape(run: int) -> list[tuple[Any, ...]]:
        return [(a["move_label"], a["state"], a["class"], a["failed_gate"]) for a in attempts(tmp_path, env, run)]

    assert shape(r["run"]) == shape(l_["run"])


def test_unknown_host_key_is_refused_by_the_command_line(sshd: Sshd, tmp_path: Path) -> None:
    """With an empty known_hosts: one line, exit 3, nothing launched."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "known_hosts").write_text("")
    (home / ".ssh" / "id_ed25519").write_bytes(sshd.client_key.read_bytes())
    (home / ".ssh" / "id_ed25519").chmod(0o600)
    env = {**env_for(sshd, "1"), "HOME": str(home)}
    done = autofix(
        "search",
        "--base",
        str(ROOT / "examples" / "k26-eagle3.yaml"),
        "--host",
        sshd.spec,
        "--target",
        "sim",
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 3, done.stderr
    assert "unknown host key" in done.stderr and "--accept-new-host-key" in done.stderr
    assert (home / ".ssh" / "known_hosts").read_text() == ""


def test_sshd_restarted_mid_attempt_is_survived(sshd: Sshd, tmp_path: Path) -> None:
    """sshd and all its sessions go away while a candidate loads; the search reconnects,
    keeps watching the same process, and passes; nothing is recorded as a config failure."""
    env = env_for(sshd, "8")
    base = str(ROOT / "examples" / "k26-eagle3.yaml")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "autofix.cli",
            "search",
            "--base",
            base,
            "--host",
            sshd.spec,
            "--target",
            "sim",
            "--json",
        ],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    db = tmp_path / "runs.db"
    deadline = time.monotonic() + 120
    launched = False
    while time.monotonic() < deadline and not launched:
        time.sleep(0.3)
        launched = launched_and_running(db) > 0
    assert launched, "no candidate was launched"
    time.sleep(1.5)
    sshd.stop(sessions=True)
    time.sleep(1.0)
    sshd.start()
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "the watcher's connection dropped" in err  # the fault really happened mid-attempt
    result = json.loads(out.strip().splitlines()[-1])
    rows = attempts(tmp_path, env, result["run"])
    assert [a["state"] for a in rows].count("passed") == 1
    assert all(a["state"] in ("failed", "passed") for a in rows)
    assert len({a["id"] for a in rows}) == len(rows)


def test_search_over_a_host_without_sftp(tmp_path: Path) -> None:
    """A hardened sshd with no ``Subsystem sftp`` line: files travel over the shell
    channel and the seed's search passes as on any host."""
    from bench.sshd import make_sshd

    from ..conftest import require

    require("sshd", "openssh-server", where=("/usr/sbin/sshd",))
    (tmp_path / "sshd").mkdir()
    bare = make_sshd(tmp_path / "sshd", sftp=False)
    try:
        env = env_for(bare, "1")
        base = str(ROOT / "examples" / "k26-eagle3.yaml")
        done = autofix(
            "search", "--base", base, "--host", bare.spec, "--target", "sim", "--json", cwd=tmp_path, env=env
        )
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout.strip().splitlines()[-1])
        assert result["status"] == "passed" and result["launches"] == 1
        assert result["winner"]["args"]["speculative-eagle-topk"] == "1"
    finally:
        bare.close()


def test_a_host_name_that_does_not_resolve_fails_at_once(tmp_path: Path) -> None:
    """No retries for a name the resolver does not know: exit 3, one line, no tries told."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    env.pop("AUTOFIX_DB", None)
    base = str(ROOT / "examples" / "k26-eagle3.yaml")
    done = autofix("search", "--base", base, "--host", "root@no-such-gpu-box.invalid", cwd=tmp_path, env=env)
    assert done.returncode == 3, done.stderr
    assert "does not resolve" in done.stderr and "try " not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_vllm_sim_runs_over_ssh_like_the_local_one(sshd: Sshd, tmp_path: Path) -> None:
    """--target sim with a vLLM base copies the simulated vLLM to the host: the same three
    attempts (a JSON-key fix in preflight, the workers' backend error after a launch, a pass)."""
    env = env_for(sshd, "0.5")
    base = str(ROOT / "examples" / "vllm-qwen3-eagle3.yaml")
    remote = autofix("search", "--base", base, "--host", sshd.spec, "--target", "sim", "--json", cwd=tmp_path, env=env)
    assert remote.returncode == 0, remote.stdout[-3000:] + remote.stderr[-2000:]
    result = json.loads(remote.stdout.strip().splitlines()[-1])
    assert (result["attempts"], result["launches"]) == (3, 2)
    classes = [a["class"] for a in attempts(tmp_path, env, result["run"])]
    assert classes == ["vllm-speculative-unknown-key", "vllm-gpu-attention-backend", None]
