"""--explore: after the first pass, speculative variants are benched; the fastest wins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..conftest import ROOT
from .helpers import cli

pytestmark = pytest.mark.integration


def test_explore_reports_a_faster_passing_config(tmp_path: Path) -> None:
    """--explore 6 on the seed's base: the winner is faster than the first config that passed,
    only preflight-valid variants are launched, and export writes the fastest."""
    done = cli(
        "search",
        "--base",
        str(ROOT / "examples" / "k26-eagle3.yaml"),
        "--host",
        "sim",
        "--explore",
        "6",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    attempts = json.loads(cli("history", str(result["run"]), "--json", cwd=tmp_path, load_s="0.5").stdout)["attempts"]
    passed = [a for a in attempts if a["state"] == "passed"]
    speed = {a["id"]: a["resolved"]["__bench__"]["tokens_per_s"] for a in passed}
    first = passed[0]
    assert result["winner"]["attempt"] == max(speed, key=speed.__getitem__)
    assert speed[result["winner"]["attempt"]] > speed[first["id"]]
    assert all(a["launched"] for a in passed) and not any(
        a["launched"] for a in attempts if a["failed_gate"] == "preflight"
    )
    assert sum(a["launched"] for a in attempts if a["seq"] > first["seq"]) <= 6
    unit = cli("export", str(result["run"]), cwd=tmp_path, load_s="0.5").stdout
    steps = result["winner"]["args"]["speculative-num-steps"]
    assert f"--speculative-num-steps {steps}" in unit


def test_explore_needs_the_bench_gate(tmp_path: Path) -> None:
    """Without a bench gate there is nothing to rank by: exit 2."""
    done = cli(
        "search",
        "--base",
        str(ROOT / "examples" / "k26-eagle3.yaml"),
        "--host",
        "sim",
        "--explore",
        "3",
        "--gates",
        "preflight,start,ready,smoke",
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "--explore" in done.stderr
