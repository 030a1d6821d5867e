"""The command line contract: exit codes, one-line errors, nothing written on bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT


def autofix(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "TMPDIR": str(cwd)}  # the test's own work dirs
    env.pop("AUTOFIX_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "autofix.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        check=False,
    )


@pytest.mark.parametrize(
    ("yaml_text", "words"),
    [
        (None, "missing.yaml: no such file"),
        ("launch:\n  args: {m: 1}\nhots: sim\n", "base.yaml: hots: unknown key (did you mean host?)"),
        ("launch:\n  args:\n    'bad;rm': 1\n", "base.yaml: launch.args.bad;rm: flag names are"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path: Path, yaml_text: str | None, words: str) -> None:
    """Missing file, unknown key, flag named --bad;rm: exit 2, one line, no runs.db."""
    name = "missing.yaml" if yaml_text is None else "base.yaml"
    if yaml_text is not None:
        (tmp_path / name).write_text(yaml_text)
    done = autofix("search", "--base", name, "--host", "sim", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and words in lines[0]
    assert not (tmp_path / "runs.db").exists()


def test_bad_options_exit_2(tmp_path: Path) -> None:
    """An unknown gate or a bad --host is bad input too."""
    base = tmp_path / "b.yaml"
    base.write_text((ROOT / "examples" / "k26-eagle3.yaml").read_text())
    done = autofix("search", "--base", str(base), "--gates", "preflight,smok", cwd=tmp_path)
    assert done.returncode == 2 and "unknown gate 'smok'" in done.stderr
    done = autofix("search", "--base", str(base), "--host", "a b", cwd=tmp_path)
    assert done.returncode == 2 and "--host" in done.stderr
    assert not (tmp_path / "runs.db").exists()


def test_unknown_run_is_exit_2(tmp_path: Path) -> None:
    """history/show/export of an id the store does not have: exit 2."""
    for cmd in (["history", "9"], ["show", "9"], ["export", "9"]):
        done = autofix(*cmd, cwd=tmp_path)
        assert done.returncode == 2, (cmd, done.stderr)
        assert "no such" in done.stderr


def test_unreachable_store_is_exit_3(tmp_path: Path) -> None:
    """A store that cannot be opened is exit 3."""
    done = autofix("history", "--db", "sqlite:////nonexistent-dir/x/runs.db", cwd=tmp_path)
    assert done.returncode == 3, done.stderr


def test_classify_json_offline() -> None:
    """classify --json reads journal text from stdin and prints the contract's fields."""
    import json

    text = (ROOT / "tests/data/sglang-0.5.23/tracebacks/spec-eagle3-draft-tokens-topk-without-steps.log").read_text()
    done = autofix("classify", "-", "--json", cwd=ROOT, stdin=text)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["class"] == "spec-eagle-params-incomplete"
    assert data["exception"] == "AssertionError"
    assert data["frame"]["function"] == "_handle_eagle_family"
    # Offline there is no argv to compute num-steps from; the class's other moves remain.
    labels = [(m["op"], m["flag"]) for m in data["moves"]]
    assert (
        labels[0] == ("drop", "speculative-eagle-topk")
        and data["moves"][0]["with"][0]["flag"] == "speculative-num-draft-tokens"
    )
    assert ("set", "speculative-num-steps") in labels
    assert set(data) == {"class", "fingerprint", "exception", "message", "frame", "moves"}
