"""The whole loop on the simulated host, through the real command line.

Runs the README's main job (``autofix search --base examples/k26-eagle3.yaml --host sim``)
in a scratch directory and checks the outcome the issue asks for: exit 0, a winner that
keeps the pinned flags, exactly one launch past preflight, history/show/export.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT
from .helpers import cli, left_running

pytestmark = pytest.mark.integration


def autofix(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """The command line in ``cwd``, with its own TMPDIR there (work dirs, locks, ports)."""
    return cli(*args, cwd=cwd, timeout=timeout)


@pytest.fixture(scope="module")
def seed_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One search of the seed's base on the sim host, shared by the tests below."""
    work = tmp_path_factory.mktemp("seed")
    shutil.copy(ROOT / "examples" / "k26-eagle3.yaml", work / "k26-eagle3.yaml")
    done = autofix("search", "--base", "k26-eagle3.yaml", "--host", "sim", "--json", cwd=work)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return {"work": work, "result": result, "stderr": done.stderr}


def test_search_finds_a_winner_with_one_launch(seed_run: dict[str, Any]) -> None:
    """Exit 0, launches 1, the winner keeps model, tp, algorithm and drafter."""
    result = seed_run["result"]
    assert result["status"] == "passed"
    assert result["launches"] == 1
    assert result["attempts"] >= 2
    args = result["winner"]["args"]
    assert args["model-path"] == "/models/Kimi-K2.6"
    assert args["tp"] == "8"
    assert args["speculative-algorithm"] == "EAGLE3"
    assert args["speculative-draft-model-path"] == "/models/Kimi-K2.6-EAGLE3"
    assert "speculative-num-steps" in args
    assert result["winner"]["env"] == {"NCCL_PROTO": "LL", "NCCL_ALGO": "Ring"}


def test_history_lists_every_attempt_with_parent_move_class_and_gate(seed_run: dict[str, Any]) -> None:
    """Every attempt before the winner failed in preflight; each has its parent and move."""
    work, run_id = seed_run["work"], seed_run["result"]["run"]
    done = autofix("history", str(run_id), "--json", cwd=work)
    assert done.returncode == 0, done.stderr
    attempts = json.loads(done.stdout)["attempts"]
    assert len(attempts) == seed_run["result"]["attempts"]
    *failed, winner = attempts
    assert winner["state"] == "passed" and winner["launched"]
    assert [g["gate"] for g in winner["gates"]] == ["preflight", "start", "ready", "smoke", "bench"]
    assert all(g["ok"] for g in winner["gates"])
    for a in failed:
        assert a["state"] == "failed" and not a["launched"]
        assert a["failed_gate"] == "preflight"
    assert failed[0]["class"] == "spec-eagle-params-incomplete" and failed[0]["parent"] is None
    for a in attempts[1:]:
        assert a["parent"] is not None and a["move_label"]
    classes = [a["class"] for a in failed]
    assert "spec-topk-paged-backend" in classes
    table = autofix("history", str(run_id), cwd=work)
    assert table.returncode == 0 and "spec-eagle-params-incomplete" in table.stdout


def test_show_gives_the_traceback_excerpt_and_the_diff(seed_run: dict[str, Any]) -> None:
    """show: the bare AssertionError's frame and source line; the winner's diff to the base."""
    work, run_id = seed_run["work"], seed_run["result"]["run"]
    attempts = json.loads(autofix("history", str(run_id), "--json", cwd=work).stdout)["attempts"]
    first = json.loads(autofix("show", str(attempts[0]["id"]), "--json", cwd=work).stdout)
    assert first["frame"]["function"] == "_handle_eagle_family"
    assert "AssertionError" in first["evidence"] and "speculative_num_draft_tokens is None" in first["evidence"]
    winner = json.loads(autofix("show", str(attempts[-1]["id"]), "--json", cwd=work).stdout)
    changed = {d["name"] for d in winner["diff_base"]}
    assert "speculative-num-steps" in changed
    text = autofix("show", str(attempts[0]["id"]), cwd=work).stdout
    assert "Traceback (most recent call last)" in text and "diff against the base" in text


def test_export_writes_a_unit_that_systemd_accepts(seed_run: dict[str, Any], systemd_analyze: str) -> None:
    """The exported unit has the winner's ExecStart and Environment and verifies silently.

    The unit names the GPU host's interpreter (/opt/sglang/.venv/bin/python), which this
    machine lacks; verification swaps in this machine's Python and nothing else.
    """
    work, result = seed_run["work"], seed_run["result"]
    done = autofix("export", str(result["run"]), "-o", "sglang-k26-eagle3.service", cwd=work)
    assert done.returncode == 0, done.stderr
    unit = (work / "sglang-k26-eagle3.service").read_text()
    exec_line = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    args = result["winner"]["args"]
    assert exec_line.startswith(
        "ExecStart=/opt/sglang/.venv/bin/python -m sglang.launch_server --model-path /models/Kimi-K2.6"
    )
    assert f"--speculative-num-steps {args['speculative-num-steps']}" in exec_line
    assert 'Environment="NCCL_PROTO=LL"' in unit and 'Environment="NCCL_ALGO=Ring"' in unit
    check = work / "check" / "sglang-k26-eagle3.service"
    check.parent.mkdir()
    check.write_text(unit.replace("/opt/sglang/.venv/bin/python", sys.executable))
    verify = subprocess.run([systemd_analyze, "verify", str(check)], capture_output=True, text=True, check=False)
    assert (verify.returncode, verify.stdout, verify.stderr) == (0, "", "")


def test_no_candidate_is_left_running(seed_run: dict[str, Any]) -> None:
    """After the search no simulated server, rank or supervisor of this run is alive (its
    processes, found by the run's own TMPDIR: other runs on the machine are not looked at)."""
    assert left_running(seed_run["work"]) == []
