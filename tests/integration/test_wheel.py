"""The wheel ships what an installed autofix needs outside a checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ..conftest import ROOT

pytestmark = pytest.mark.integration


def test_wheel_contains_strategies_migrations_probes_and_the_sim(tmp_path: Path) -> None:
    """strategies/ and migrations/ are force-included; probes and the sim site are inside."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("autofix-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "autofix/_data/strategies/sglang.yaml" in names
    assert "autofix/_data/strategies/runtime.yaml" in names
    assert "autofix/_data/migrations/env.py" in names
    assert "autofix/_data/migrations/versions/0001_initial.py" in names
    assert "autofix/probes/preflight.py" in names and "autofix/probes/supervise.py" in names
    assert "autofix/sim/site/sglang/launch_server.py" in names
    assert not any("__pycache__" in n for n in names)
