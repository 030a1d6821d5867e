"""autofix init and search --from-unit / --from-cmd through the real command line on the
sim host: the seed's unit is searched in one step, its export imports back as the winner,
the unit's EnvironmentFile= reaches the candidate on the host, bad input is one line."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ..conftest import ROOT
from .helpers import cli, free_port, left_running, sim_env

pytestmark = pytest.mark.integration

SEED_UNIT = ROOT / "tests" / "data" / "units" / "sglang-k26-eagle3.service"


def seed_unit(work: Path, *, extra_service: str = "") -> Path:
    """The seed's unit on a free port of this machine (the sim host), with small gates."""
    text = (
        SEED_UNIT.read_text()
        .replace("--port 30001", f"--port {free_port()}")
        .replace("--host 0.0.0.0", "--host 127.0.0.1")
    )
    text = text.replace("[Service]\n", f"[Service]\n{extra_service}")
    path = work / "sglang-k26-eagle3.service"
    path.write_text(text)
    return path


def test_search_from_the_seeds_unit_passes_and_its_export_imports_back_as_the_winner(tmp_path: Path) -> None:
    unit = seed_unit(tmp_path)
    done = cli("search", "--from-unit", str(unit), "--host", "sim", "--json", cwd=tmp_path, load_s="0.3")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "passed"
    winner = result["winner"]["args"]
    assert winner["speculative-algorithm"] == "EAGLE3" and winner["tp"] == "8"

    (tmp_path / "exported").mkdir()  # a unit's name is its file's name: the same as the base's
    exported = cli("export", str(result["run"]), "-o", "exported/sglang-k26-eagle3.service", cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    back = cli(
        "init", "--from-unit", "exported/sglang-k26-eagle3.service", "--host", "sim", "-o", "again.yaml", cwd=tmp_path
    )
    assert back.returncode == 0, back.stderr
    data = yaml.safe_load((tmp_path / "again.yaml").read_text())
    assert {k: str(v).lower() if v is True else str(v) for k, v in data["launch"]["args"].items()} == {
        k: str(v).lower() if v is True else str(v) for k, v in winner.items()
    }
    assert list(data["launch"]["args"]) == list(winner)
    assert data["launch"]["env"] == {"NCCL_PROTO": "LL", "NCCL_ALGO": "Ring", "HF_HOME": "/models/.hf"}
    assert data["service"] == {"manager": "systemd", "unit": "sglang-k26-eagle3", "conflicts": ["sglang-k26.service"]}
    assert stat.S_IMODE((tmp_path / "again.yaml").stat().st_mode) == 0o644
    assert left_running(tmp_path) == []


def test_the_units_environment_file_reaches_the_candidate_on_the_host(tmp_path: Path) -> None:
    """EnvironmentFile= is read on the host at launch: a sim fault set only there makes
    the candidate crash while loading, which it could not do had the file not been read."""
    env_file = tmp_path / "sglang.env"
    env_file.write_text("# on the host\nAUTOFIX_SIM_FAULT=crash-load\n")
    unit = seed_unit(tmp_path, extra_service=f"EnvironmentFile={env_file}\n")
    base = tmp_path / "base.yaml"
    made = cli("init", "--from-unit", str(unit), "--host", "sim", "-o", str(base), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    data = yaml.safe_load(base.read_text())
    assert data["launch"]["env_files"] == [str(env_file)]
    data["launch"]["args"].update({"speculative-num-steps": 2, "speculative-eagle-topk": 1})
    data["gates"] = {"start": {"settle": 30}, "ready": {"timeout": 30}}
    base.write_text(yaml.safe_dump(data))
    done = cli("search", "--base", str(base), "--max-attempts", "1", "--json", cwd=tmp_path, load_s="0.3")
    assert done.returncode == 1, done.stderr
    run = json.loads(done.stdout.strip().splitlines()[-1])["run"]
    (attempt,) = json.loads(cli("history", str(run), "--json", cwd=tmp_path).stdout)["attempts"]
    assert attempt["exception"] == "safetensors_rust.SafetensorError"
    assert left_running(tmp_path) == []


def test_a_required_environment_file_missing_on_the_host_is_bad_input_before_anything(tmp_path: Path) -> None:
    unit = seed_unit(tmp_path, extra_service=f"EnvironmentFile={tmp_path}/absent.env\n")
    done = cli("search", "--from-unit", str(unit), "--host", "sim", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith(f"launch.env_files[0]: {tmp_path}/absent.env: no such file on sim")
    )
    assert not (tmp_path / "runs.db").exists() or "Traceback" not in done.stderr


def test_init_from_a_command_on_stdin_keeps_the_secret_out_and_says_where_it_goes(tmp_path: Path) -> None:
    command = "HF_TOKEN=hf_NoT python3 -m sglang.launch_server --model-path /models/Qwen3-8B --tp 2\n"
    done = subprocess.run(
        [sys.executable, "-m", "autofix.cli", "init", "--from-cmd", "-", "-o", "q.yaml"],
        input=command,
        cwd=tmp_path,
        env=sim_env(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "q.yaml").read_text()
    assert "hf_NoT" not in text and "hf_NoT" not in done.stderr
    assert "put HF_TOKEN=… in /etc/autofix/sglang-qwen3-8b.env on the host (mode 0600)" in done.stderr
    assert yaml.safe_load(text)["launch"]["env_files"] == ["-/etc/autofix/sglang-qwen3-8b.env"]


def test_a_secret_flag_makes_the_yaml_private(tmp_path: Path) -> None:
    done = cli(
        "init",
        "--from-cmd",
        "python3 -m sglang.launch_server --model-path /m --api-key sk-x",
        "-o",
        "s.yaml",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE((tmp_path / "s.yaml").stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["init"], "give what to import: --from-unit FILE or --from-cmd CMD"),
        (["init", "--from-unit", "nope.service"], "--from-unit nope.service: cannot read: No such file or directory"),
        (["init", "--from-unit", "-"], "--from-unit -: give --name"),
        (["init", "--from-cmd", "docker run x python -m sglang.launch_server"], "a docker command"),
        (["search", "--host", "sim"], "give the base: --base FILE, --from-unit FILE or --from-cmd CMD"),
        (["search", "--base", "a.yaml", "--from-cmd", "python -m sglang.launch_server"], "give the base"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    done = cli(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_init_does_not_replace_a_file_without_force(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text("mine\n")
    command = "python3 -m sglang.launch_server --model-path /m"
    refused = cli("init", "--from-cmd", command, "-o", "b.yaml", cwd=tmp_path)
    assert refused.returncode == 2 and "b.yaml: exists; give --force" in refused.stderr
    assert (tmp_path / "b.yaml").read_text() == "mine\n"
    forced = cli("init", "--from-cmd", command, "-o", "b.yaml", "--force", cwd=tmp_path)
    assert forced.returncode == 0 and "model-path: /m" in (tmp_path / "b.yaml").read_text()
