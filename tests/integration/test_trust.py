"""A verdict is about this candidate, for these gates, and an ending leaves nothing behind:
the cache answers only the gates it ran, a hang-up stops the search like Ctrl-C, and bad
ports or working directories are the config's errors, found before anything runs."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..conftest import ROOT
from .helpers import cli, launched_and_running, left_running, sim_env

pytestmark = pytest.mark.integration

SEED = str(ROOT / "examples" / "k26-eagle3.yaml")


def _last_json(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_a_preflight_only_pass_is_no_pass_for_a_search_that_launches(tmp_path: Path) -> None:
    """--gates preflight passes without a launch; the full search on the same store then
    launches its candidate (the earlier pass answered other questions), reuses the
    preflight failures it shares, and --no-cache runs everything again."""
    quick = cli("search", "--base", SEED, "--host", "sim", "--gates", "preflight", "--json", cwd=tmp_path)
    assert quick.returncode == 0, quick.stderr
    assert _last_json(quick)["launches"] == 0
    full = cli(
        "search", "--base", SEED, "--host", "sim", "--gates", "preflight,start,ready,smoke", "--json", cwd=tmp_path
    )
    assert full.returncode == 0, full.stderr
    outcome = _last_json(full)
    assert outcome["launches"] == 1
    history = json.loads(cli("history", str(outcome["run"]), "--json", cwd=tmp_path).stdout)["attempts"]
    *failed, winner = history
    assert winner["cached_from"] is None and winner["launched"]
    assert all(a["cached_from"] is not None for a in failed)  # preflight failures answer any search
    assert [g["gate"] for g in failed[0]["gates"]] == ["preflight"]
    table = cli("history", str(outcome["run"]), cwd=tmp_path).stdout
    assert "cached #1: preflight" in table
    again = cli("search", "--base", SEED, "--host", "sim", "--gates", "preflight", "--no-cache", "--json", cwd=tmp_path)
    rows = json.loads(cli("history", str(_last_json(again)["run"]), "--json", cwd=tmp_path).stdout)["attempts"]
    assert again.returncode == 0 and all(a["cached_from"] is None for a in rows)


def test_sighup_stops_the_search_like_ctrl_c(tmp_path: Path) -> None:
    """A closed terminal (SIGHUP) while the candidate loads: exit 130, the attempt and the
    run recorded interrupted, the candidate stopped."""
    command = [sys.executable, "-m", "autofix.cli", "search", "--base", SEED, "--host", "sim"]
    proc = subprocess.Popen(
        command, cwd=tmp_path, env=sim_env(tmp_path, "8"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    db = tmp_path / "runs.db"
    deadline = time.monotonic() + 120
    while launched_and_running(db) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert launched_and_running(db) == 1
    proc.send_signal(signal.SIGHUP)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    with sqlite3.connect(db) as conn:
        assert conn.execute("select status from runs").fetchone()[0] == "interrupted"
        assert conn.execute("select state from attempts order by seq desc").fetchone()[0] == "interrupted"
    time.sleep(1.0)
    assert left_running(tmp_path) == []


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("    port: 30001\n", "    port: thirty\n"), "launch.args.port: must be a TCP port number (1-65535), got 'thirty'"),
        (("  module: sglang.launch_server\n", "  module: sglang.launch_server\n  cwd: /nonexistent/x\n"),
         "launch.cwd: /nonexistent/x: no such directory on sim"),
        (("  module: sglang.launch_server\n", "  module: sglang.launch_server\n  cwd: relative/dir\n"),
         "launch.cwd: must be an absolute path on the host"),
    ],
)  # fmt: skip
def test_bad_port_or_working_directory_is_a_config_error(tmp_path: Path, change: tuple[str, str], words: str) -> None:
    """Exit 2, one line naming the key, no run recorded (no store written)."""
    base = tmp_path / "k26.yaml"
    base.write_text(Path(SEED).read_text().replace(*change))
    done = cli("search", "--base", str(base), "--host", "sim", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "runs.db").exists()
    assert left_running(tmp_path) == []


def test_a_misspelled_flag_is_renamed_not_dropped_and_the_run_says_what_it_gave_up(tmp_path: Path) -> None:
    """`speculative-eagle-top-k: 4`: a warning when the base is loaded (from the host's own
    parser), the rename is the first move (before any drop), and the end says what the
    winner gave up from the base, on screen and in --json."""
    base = tmp_path / "typo.yaml"
    base.write_text(Path(SEED).read_text().replace("speculative-eagle-topk: 4", "speculative-eagle-top-k: 4"))
    done = cli("search", "--base", str(base), "--host", "sim", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "--speculative-eagle-top-k is not a flag of SGLang" in done.stderr
    assert "did you mean --speculative-eagle-topk" in done.stderr
    outcome = _last_json(done)
    rows = json.loads(cli("history", str(outcome["run"]), "--json", cwd=tmp_path).stdout)["attempts"]
    assert rows[1]["move_label"] == "rename speculative-eagle-top-k to speculative-eagle-topk"
    assert all("drop" not in (r["move_label"] or "") for r in rows)
    assert outcome["gave_up"] == ["--speculative-eagle-top-k: 4 -> 1 (as speculative-eagle-topk)"]
    assert "gave up: --speculative-eagle-top-k: 4 -> 1" in done.stderr
