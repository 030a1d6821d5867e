"""Exports: systemd quoting round-trips any value; the unit verifies; secrets stay out."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from autofix.config import parse_base
from autofix.export import ExportContext, render, systemd_exec
from autofix.model import Candidate

TRICKY = [
    "plain",
    "with space",
    'quote"inside',
    "single'quote",
    "back\\slash",
    "$HOME and ${X}",
    "100%",
    "%n%%",
    ";",
    "a;b",
    "$(rm -rf /)",
    "`reboot`",
    "tab\there",
    "ünïcødé",
    "",
    "-leading-dash",
]


def systemd_split(line: str) -> list[str]:
    """systemd's ExecStart= word splitting (EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE), then
    specifier (%%) and variable ($$) unescaping: enough of the real rules to check ours."""
    words: list[str] = []
    i, n = 0, len(line)
    while i < n:
        while i < n and line[i] in " \t":
            i += 1
        if i >= n:
            break
        word: list[str] = []
        quote = None
        while i < n:
            ch = line[i]
            if quote is None and ch in " \t":
                break
            if ch == "\\" and i + 1 < n:
                nxt = line[i + 1]
                simple = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", " ": " "}
                if nxt == "x":
                    word.append(chr(int(line[i + 2 : i + 4], 16)))
                    i += 4
                    continue
                word.append(simple.get(nxt, nxt))
                i += 2
                continue
            if quote is None and ch in "\"'":
                quote = ch
            elif ch == quote:
                quote = None
            else:
                word.append(ch)
            i += 1
        raw = "".join(word)
        words.append(raw.replace("%%", "\x00").replace("$$", "$").replace("\x00", "%"))
    return words


@pytest.mark.parametrize("value", TRICKY)
def test_systemd_words_round_trip(value: str) -> None:
    """Every value reaches the process as exactly one argument, byte for byte."""
    argv = ["/usr/bin/python3", "-m", "sglang.launch_server", "--served-model-name", value]
    assert systemd_split(systemd_exec(argv)) == argv


def _ctx(python: str, args: dict[str, object], env: dict[str, object]) -> ExportContext:
    text = f"name: t\nservice: {{conflicts: [sglang-k26.service]}}\nlaunch:\n  python: {python}\n  args: {{m: 1}}\n"
    config = parse_base(text, source="t.yaml")
    return ExportContext(config, Candidate.build(args, env), run_id=3, attempt_id=7, moves=("set a=1",))


def test_unit_has_execstart_environment_and_no_secret() -> None:
    """The unit carries the winner's argv and env; secrets go to an EnvironmentFile."""
    unit = render(
        "unit",
        _ctx(
            "/opt/sglang/.venv/bin/python",
            {"model-path": "/m", "tp": 8},
            {"NCCL_ALGO": "Ring", "HF_TOKEN": "hf_s3cret"},
        ),
    )
    assert "ExecStart=/opt/sglang/.venv/bin/python -m sglang.launch_server --model-path /m --tp 8" in unit
    assert 'Environment="NCCL_ALGO=Ring"' in unit
    assert "hf_s3cret" not in unit
    assert "EnvironmentFile=-/etc/autofix/sglang-t.env" in unit
    assert "Conflicts=sglang-k26.service" in unit


def test_systemd_analyze_verify_prints_nothing(tmp_path: Path, systemd_analyze: str) -> None:
    """systemd-analyze verify is silent for a unit full of hostile values."""
    args: dict[str, object] = {"model-path": "/models/Kimi K2.6", "served-model-name": 'a;b $(x) `y` 100% "q"'}
    env: dict[str, object] = {"NCCL_PROTO": "LL", "WEIRD": "a b\"c'$d%e\\f"}
    path = tmp_path / "sglang-t.service"
    path.write_text(render("unit", _ctx(sys.executable, args, env)))
    done = subprocess.run([systemd_analyze, "verify", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == ("", "")


def test_argv_env_and_yaml_exports() -> None:
    """argv is shell-quoted; env is one NAME=value per line; yaml reproduces the winner."""
    ctx = _ctx("/usr/bin/python3", {"model-path": "/m x", "tp": 8, "trust-remote-code": True}, {"A": "1 2"})
    argv_line = render("argv", ctx).strip()
    assert shlex.split(argv_line) == [
        "A=1 2",
        "/usr/bin/python3",
        "-m",
        "sglang.launch_server",
        "--model-path",
        "/m x",
        "--tp",
        "8",
        "--trust-remote-code",
    ]
    assert render("env", ctx) == "A=1 2\n"
    again = parse_base(render("yaml", ctx), source="exported.yaml")
    assert again.base == ctx.candidate
