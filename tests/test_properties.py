"""Property tests (hypothesis): hostile config values, journals of random bytes.

Every value either is refused with one line (exit code 2's ConfigError) or reaches the
target byte for byte as one argument: in argv, through systemd's unit quoting, through
the shell quoting of the argv export. The journal parser never raises on any input.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.config import parse_base
from autofix.errors import ConfigError
from autofix.export import ExportContext, render, systemd_exec
from autofix.model import Gate
from autofix.tracebacks import parse_text

from .test_export import systemd_split

HOSTILE = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
    max_size=200,
) | st.sampled_from(
    ["$(reboot)", "`id`", "a;b", "x\ny", "\x00", "'", '"', "\\", "%n", "$$", "-rf", "--x", " ", "", " \x85", "a\u2028b"]
)
FLAGS = st.text(alphabet=st.characters(codec="ascii"), min_size=1, max_size=30)
CATALOG = load_catalog()


def _config_text(flag: str, value: object, env_value: object) -> str:
    data = {
        "launch": {"python": "/usr/bin/python3", "args": {"model-path": "/m", flag: value}, "env": {"E": env_value}}
    }
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(flag=FLAGS, value=HOSTILE, env_value=HOSTILE)
def test_hostile_values_are_refused_or_arrive_intact(flag: str, value: str, env_value: str) -> None:
    """Refused with one line naming file and key, or one argument byte for byte everywhere."""
    text = _config_text(flag, value, env_value)
    loaded = yaml.safe_load(text)["launch"]  # what the file says, after YAML's own rules
    try:
        config = parse_base(text, source="h.yaml")
    except ConfigError as exc:
        message = str(exc)
        assert message.startswith("h.yaml") and "\n" not in message and "\r" not in message
        return
    argv = config.base.argv()
    assert argv[:2] == ["--model-path", "/m"]
    if argv[2:]:
        assert argv[2] == f"--{flag}" and argv[3:] == [str(loaded["args"][flag])]
    full = ["/usr/bin/python3", "-m", "sglang.launch_server", *argv]
    assert systemd_split(systemd_exec(full)) == full
    ctx = ExportContext(config, config.base, run_id=1, attempt_id=1)
    line = render("argv", ctx).rstrip("\n").split("\n")[-1]
    assert shlex.split(line)[-len(full) :] == full
    # Compared with what the file says after YAML's own rules (a raw U+0085 in a scalar is
    # a YAML line break, folded to a space), as for the flag above.
    if "E" in config.base.env_dict():
        assert config.base.env_dict()["E"] == str(loaded["env"]["E"])


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=4000))
def test_parser_and_classifier_never_raise_on_random_bytes(data: bytes) -> None:
    """Any bytes: a result, never an exception."""
    journal = parse_text(data)
    classify(journal, CATALOG, Gate.START)


@settings(max_examples=100, deadline=None)
@given(
    lines=st.lists(
        st.sampled_from(
            [
                "Traceback (most recent call last):",
                '  File "/x/sglang/a.py", line 1, in f',
                "    assert x",
                "AssertionError",
                "",
                "During handling of the above exception, another exception occurred:",
                "[2026-01-01 00:00:00 TP3] Scheduler hit an exception: Traceback (most recent call last):",
                json.dumps({"MESSAGE": [255, 0, 84], "_PID": "1"}),
                "May 25 19:34:29 h python[1]: NCCL WARN Invalid NCCL_PROTO",
                "ValueError: " + "(" * 50,
            ]
        ),
        max_size=300,
    )
)
def test_parser_survives_adversarial_traceback_shapes(lines: list[str]) -> None:
    """Endless, interleaved and truncated traceback pieces: bounded results, no exception."""
    journal = parse_text("\n".join(lines))
    assert len(journal.tracebacks) <= 200 and len(journal.signals) <= 200
    classify(journal, CATALOG, Gate.PREFLIGHT)


@pytest.mark.parametrize("size", [1 << 20, 8 << 20])
def test_gigantic_line_is_bounded(size: int) -> None:
    """A single line of many MB (no newline) is cut, not held whole per traceback."""
    journal = parse_text("Traceback (most recent call last):\n" + "x" * size + "\nValueError: y\n")
    assert all(len(tb.message) <= 20_000 for tb in journal.tracebacks)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=HOSTILE, env_value=HOSTILE)
def test_units_of_hostile_values_verify_silently(value: str, env_value: str, systemd_analyze: str) -> None:
    """Every accepted hostile value gives a unit that systemd itself finds clean, with
    ExecStart parsed back to the very argv (this machine's Python as the interpreter: the
    only thing systemd-analyze checks that this machine lacks is the GPU host's venv)."""
    text = yaml.safe_dump(
        {"launch": {"python": sys.executable, "args": {"model-path": "/m", "served-model-name": value},
                    "env": {"E": env_value}}},
        allow_unicode=True,
    )  # fmt: skip
    try:
        config = parse_base(text, source="h.yaml")
    except ConfigError:
        return  # refused in one line: the test above covers that
    unit = render("unit", ExportContext(config, config.base, run_id=1, attempt_id=1))
    # systemd ends a line at "\n" only; str.splitlines would also cut at U+0085 and friends.
    exec_start = next(line for line in unit.split("\n") if line.startswith("ExecStart="))
    assert systemd_split(exec_start.removeprefix("ExecStart=")) == [
        sys.executable,
        "-m",
        "sglang.launch_server",
        *config.base.argv(),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sglang-prop.service"
        path.write_text(unit)
        done = subprocess.run([systemd_analyze, "verify", str(path)], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
