"""--hosts: the frontier runs one candidate per host, each host under its own lock."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..conftest import ROOT
from .helpers import cli

pytestmark = pytest.mark.integration


def test_three_sim_hosts_search_the_seed_together(tmp_path: Path) -> None:
    """Three sim hosts: candidates run side by side on distinct hosts, the search passes,
    and every attempt is recorded once with the host it ran on."""
    base = str(ROOT / "examples" / "k26-eagle3.yaml")
    done = cli(
        "search",
        "--base",
        base,
        "--hosts",
        "sim,sim,sim",
        "--gates",
        "preflight,start,ready,smoke",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    attempts = json.loads(cli("history", str(result["run"]), "--json", cwd=tmp_path).stdout)["attempts"]
    assert result["status"] == "passed"
    assert len({a["seq"] for a in attempts}) == len(attempts)
    assert attempts[0]["class"] == "spec-eagle-params-incomplete"
    assert any(a["state"] == "passed" for a in attempts)
    # Same winner arguments as one host finds (the search is deterministic in its picks).
    single = cli(
        "search",
        "--base",
        base,
        "--host",
        "sim",
        "--gates",
        "preflight,start,ready,smoke",
        "--json",
        "--db",
        f"sqlite:///{tmp_path / 'one.db'}",
        cwd=tmp_path,
    )
    assert json.loads(single.stdout.strip().splitlines()[-1])["winner"]["args"]["speculative-eagle-topk"] == "1"
    assert result["winner"]["args"]["speculative-eagle-topk"] == "1"


def test_host_and_hosts_together_is_bad_input(tmp_path: Path) -> None:
    """--host with --hosts is refused (exit 2)."""
    done = cli(
        "search",
        "--base",
        str(ROOT / "examples" / "k26-eagle3.yaml"),
        "--host",
        "sim",
        "--hosts",
        "sim,sim",
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "--hosts" in done.stderr
