"""Preflight and search against the REAL vLLM 0.33.0 (CPU env from tools/vllm-cpu-env.sh).

The env is built once (a few minutes, about 2.5 GB: the CPU torch wheel on this disk,
vLLM --no-deps and its pure-Python requirements) and cached outside the checkout
(~/.cache/autofix/vllm-0.33.0-cpu). Marked ``vllm``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from autofix.hosts.local import LocalHost
from autofix.preflight import Preflight
from autofix.targets import Target

from ..conftest import MODELS, ROOT

pytestmark = [pytest.mark.vllm, pytest.mark.integration]


@pytest.fixture(scope="session")
def vllm_python() -> str:
    """The real vLLM's python, built or reused through the script."""
    done = subprocess.run(
        ["bash", str(ROOT / "tools" / "vllm-cpu-env.sh")], capture_output=True, text=True, timeout=2400, check=False
    )
    if done.returncode != 0:
        message = f"tools/vllm-cpu-env.sh failed:\n{done.stderr[-3000:]}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return done.stdout.strip().splitlines()[-1]


def search(tmp_path: Path, python: str, args: dict[str, object]) -> subprocess.CompletedProcess[str]:
    base = {
        "name": "real-vllm",
        "host": "local",
        "launch": {
            "python": python,
            "module": "vllm.entrypoints.cli.main",
            "args": args,
            "env": {"VLLM_TARGET_DEVICE": "cpu"},
        },
        "search": {"pinned": ["model"]},
    }
    path = tmp_path / "base.yaml"
    path.write_text(yaml.safe_dump(base))
    env = {**os.environ, "TMPDIR": str(tmp_path), "COLUMNS": "200"}
    env.pop("AUTOFIX_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "autofix.cli", "search", "--base", str(path), "--gates", "preflight", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_the_probe_runs_vllms_own_validation(vllm_python: str) -> None:
    """The warm probe imports the real vLLM once, reads its parser (flags, the keys of
    --speculative-config), passes a valid config and fails an invalid one with vLLM's
    pydantic error, each in a forked child."""
    target = Target(
        "vllm",
        vllm_python,
        "vllm.entrypoints.cli.main",
        subcommand=("serve",),
        probe_env=(("VLLM_TARGET_DEVICE", "cpu"),),
    )
    probe = Preflight(LocalHost(), target)
    try:
        info = probe.start()
        assert info.version == "0.33.0" and not info.simulated
        flags = info.parser["flags"]
        assert "num_speculative_tokens" in flags["speculative-config"]["keys"]
        from autofix.model import Candidate

        good = probe.check(Candidate.build({"model": str(MODELS / "qwen3-8b"), "max-model-len": "8192"}), 120)
        assert good.ok, good.output[-2000:]
        assert good.resolved["max_model_len"] == 8192
        assert good.steps_run == ("parse_args", "validate_parsed_serve_args", "create_engine_config")
        bad = probe.check(Candidate.build({"model": str(MODELS / "qwen3-8b"), "tensor-parallel-size": "3"}), 120)
        assert not bad.ok
        assert "must be divisible by tensor parallel size (3)" in bad.output
    finally:
        probe.close()


def test_a_misspelled_speculative_key_is_repaired_against_the_real_vllm(tmp_path: Path, vllm_python: str) -> None:
    """The seed's kind of failure in vLLM's words: the search renames the key (value kept)
    and the real vLLM accepts the config at the second attempt."""
    spec = {"method": "eagle3", "model": str(MODELS / "eagle3"), "num_speculative_token": 3}
    done = search(tmp_path, vllm_python, {"model": str(MODELS / "qwen3-8b"), "speculative-config": spec})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["attempts"] == 2
    assert json.loads(result["winner"]["args"]["speculative-config"])["num_speculative_tokens"] == 3


def test_tp_that_does_not_divide_the_heads_is_repaired(tmp_path: Path, vllm_python: str) -> None:
    """tp 3 on 32 heads: the largest divisor not above it (2) passes the real validation."""
    done = search(tmp_path, vllm_python, {"model": str(MODELS / "qwen3-8b"), "tensor-parallel-size": 3})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["winner"]["args"]["tensor-parallel-size"] == "2"


FACT = ("raise ", "assert ", "def ", "class ", "async def ", "import ", "from ")


def _code_lines(path: Path) -> list[str]:
    """Lines of 40+ characters that are code, not facts (raise/def/import lines, lone strings)."""
    out = []
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = raw.strip()
        if len(line) < 40 or line.startswith(FACT) or line[:1] in "\"'" or line.startswith(('f"', "f'")):
            continue
        out.append(line)
    return out


def test_nothing_of_vllms_code_stands_in_ours(vllm_python: str) -> None:
    """The simulated vLLM, the vLLM probe and the validation inference hold no line of 40+
    characters that stands verbatim in the installed vLLM (facts aside: messages, raise and
    def lines), the idea of ../shared/tools/provenance.py applied to vLLM."""
    site = Path(vllm_python).parent.parent / "lib"  # the venv, not the interpreter it links to
    package = next(site.glob("python3*/site-packages/vllm"))
    theirs: set[str] = set()
    for path in package.rglob("*.py"):
        theirs.update(_code_lines(path))
    ours = [
        *(ROOT / "autofix" / "vllm_sim").rglob("*.py"),
        ROOT / "autofix" / "validation.py",
        ROOT / "autofix" / "probes" / "preflight_vllm.py",
    ]
    copied = [f"{p.relative_to(ROOT)}: {line}" for p in ours for line in _code_lines(p) if line in theirs]
    assert copied == []
