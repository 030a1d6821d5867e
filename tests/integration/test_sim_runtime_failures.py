"""Failures no preflight sees, on the simulated host: each is read from the rank's journal,
classified, repaired, and the repaired candidate serves."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from ..conftest import ROOT

pytestmark = pytest.mark.integration


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def base_with(tmp_path: Path, args: dict[str, Any], env: dict[str, str]) -> Path:
    """The seed's base already past preflight (steps 2, topk 1), without the bench gate."""
    data = yaml.safe_load((ROOT / "examples" / "k26-eagle3.yaml").read_text())
    data["launch"]["args"].update({"speculative-num-steps": 2, "speculative-eagle-topk": 1, "host": "127.0.0.1"})
    data["launch"]["args"].update(args)
    data["launch"]["env"].update(env)
    data["gates"].pop("bench")
    data["service"]["conflicts"] = []
    path = tmp_path / "base.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def search(tmp_path: Path, base: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    env = {**os.environ, "AUTOFIX_SIM_LOAD_S": "1"}
    env.pop("AUTOFIX_DB", None)
    cmd = [sys.executable, "-m", "autofix.cli"]
    done = subprocess.run(
        [*cmd, "search", "--base", str(base), "--host", "sim", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    hist = subprocess.run(
        [*cmd, "history", str(result["run"]), "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return result, json.loads(hist.stdout)["attempts"]


def test_cuda_oom_at_graph_capture_lowers_mem_fraction(tmp_path: Path) -> None:
    """mem-fraction-static 0.95 OOMs at CUDA-graph capture; the repair scales it down."""
    result, attempts = search(tmp_path, base_with(tmp_path, {"mem-fraction-static": 0.95, "port": free_port()}, {}))
    first, second = attempts
    assert first["class"] == "cuda-oom-graph-capture" and first["failed_gate"] == "start" and first["launched"]
    assert "OutOfMemoryError" in first["exception"]
    assert float(result["winner"]["args"]["mem-fraction-static"]) < 0.95
    assert second["state"] == "passed"


def test_bad_nccl_env_is_unset(tmp_path: Path) -> None:
    """NCCL_PROTO=LL256 fails NCCL init on every rank; the repair unsets it."""
    result, attempts = search(tmp_path, base_with(tmp_path, {"port": free_port()}, {"NCCL_PROTO": "LL256"}))
    assert attempts[0]["class"] in ("nccl-invalid-env", "nccl-init-failure")
    assert "NCCL_PROTO" not in result["winner"]["env"]
    assert result["winner"]["env"]["NCCL_ALGO"] == "Ring"


def test_port_in_use_moves_to_another_port(tmp_path: Path) -> None:
    """A port held by another server fails the bind after loading; the repair moves port."""
    port = free_port()
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("127.0.0.1", port))
        holder.listen()
        result, attempts = search(tmp_path, base_with(tmp_path, {"port": port}, {}))
    assert attempts[0]["class"] == "port-in-use" and attempts[0]["failed_gate"] == "start"
    assert result["winner"]["args"]["port"] == str(port + 1)
