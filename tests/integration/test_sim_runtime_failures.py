"""Failures no preflight sees, on the simulated host: each is read from the rank's journal,
classified, repaired, and the repaired candidate serves."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest
import yaml

from ..conftest import ROOT
from .helpers import cli

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


# The tests pick free ports themselves: the sim host keeps them as given (no port block).
SAME_PORTS = {"AUTOFIX_SIM_PORT_OFFSET": "0"}


def search(tmp_path: Path, base: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    done = cli("search", "--base", str(base), "--host", "sim", "--json", cwd=tmp_path, timeout=240, env=SAME_PORTS)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    hist = cli("history", str(result["run"]), "--json", cwd=tmp_path)
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


def test_a_port_held_by_another_process_blocks_the_search(tmp_path: Path) -> None:
    """A port another process holds is found before the launch: the attempt is blocked
    (the host's fault, not the config's), nothing is launched, and the search stops with
    exit 3 naming the port and the holder; it does not move the operator's port."""
    port = free_port()
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("127.0.0.1", port))
        holder.listen()
        done = cli(
            "search",
            "--base",
            str(base_with(tmp_path, {"port": port}, {})),
            "--host",
            "sim",
            cwd=tmp_path,
            env=SAME_PORTS,
        )
    assert done.returncode == 3, done.stderr
    assert f"port {port}" in done.stderr and f"pid {os.getpid()}" in done.stderr
    (attempt,) = json.loads(cli("history", "1", "--json", cwd=tmp_path).stdout)["attempts"]
    assert attempt["state"] == "blocked" and not attempt["launched"] and attempt["class"] is None
