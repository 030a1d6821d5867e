"""Exports: systemd quoting round-trips any value; the unit verifies; secrets stay out."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

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
    """argv is shell-quoted; env is one NAME=value per line, quoted as systemd reads it; yaml reproduces the winner."""
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
    assert render("env", ctx) == "A='1 2'\n"  # systemd's EnvironmentFile= quoting
    again = parse_base(render("yaml", ctx), source="exported.yaml")
    assert again.base == ctx.candidate


HOSTILE_ENV = [*TRICKY, "  padded  ", "ends with \\"]


def _from_yaml(args: dict[str, object], env: dict[str, object]) -> ExportContext:
    import yaml

    text = yaml.safe_dump({"launch": {"python": "/usr/bin/python3", "args": args, "env": env}}, allow_unicode=True)
    config = parse_base(text, source="x.yaml")
    return ExportContext(config, config.base, run_id=1, attempt_id=1)


def test_env_export_reads_back_under_systemds_rules() -> None:
    """Each of the 18 hostile values reads back from --format env exactly, by systemd's
    EnvironmentFile= rules (and by systemd's own parser where this machine can ask it)."""
    from .systemd_rules import parse_environment_file, require_systemd_reader, systemd_reads

    env: dict[str, object] = {f"E{i}": v for i, v in enumerate(HOSTILE_ENV)}
    ctx = _from_yaml({"model-path": "/m"}, env)
    text = render("env", ctx)
    assert parse_environment_file(text) == env
    require_systemd_reader()
    assert systemd_reads(text, {k: str(v) for k, v in env.items()})


def test_env_export_names_the_secrets_it_leaves_out() -> None:
    """A secret env var is a comment naming it (set it yourself), never its value."""
    from .systemd_rules import parse_environment_file

    ctx = _from_yaml({"model-path": "/m"}, {"HF_TOKEN": "hf_EnvOut1", "A": "b"})
    text = render("env", ctx)
    assert "hf_EnvOut1" not in text and "# HF_TOKEN=" in text
    assert parse_environment_file(text) == {"A": "b"}


@pytest.mark.parametrize(
    "value",
    [
        "nan",
        "inf",
        "1.0",
        "1e3",
        "0x10",
        "010",
        "1_000",
        "1:30",
        "yes",
        "null",
        "~",
        "2001-12-14",
        ".5",
        "8",
        "-1",
        "-1.5e3",
    ],
)
def test_yaml_export_reads_back_as_the_same_candidate(value: str) -> None:
    """Every value the config accepts comes back from --format yaml with the same key."""
    ctx = _from_yaml({"model-path": "/m", "x": value, "y": [value, "2"]}, {"E": value})
    again = parse_base(render("yaml", ctx), source="exported.yaml")
    assert again.base.key == ctx.candidate.key


def test_secret_flags_stay_out_of_every_export() -> None:
    """A secret flag is exported as SGLang's --config file the operator fills (mode 0600),
    never as its value: unit, argv and yaml."""
    ctx = _from_yaml({"model-path": "/m", "api-key": "sk-Export1", "tp": 8}, {"HF_TOKEN": "hf_Export2"})
    unit = render("unit", ctx)
    assert "sk-Export1" not in unit and "hf_Export2" not in unit
    exec_start = next(line for line in unit.split("\n") if line.startswith("ExecStart="))
    words = systemd_split(exec_start.removeprefix("ExecStart="))
    path = f"/etc/autofix/{ctx.config.unit}.secrets.yaml"
    assert words[-2:] == ["--config", path] and "--api-key" not in words
    assert f"# {path}" in unit and "api-key: ..." in unit
    argv = render("argv", ctx)
    assert "sk-Export1" not in argv and f"--config {path}" in argv
    exported = render("yaml", ctx)
    assert "sk-Export1" not in exported and "hf_Export2" not in exported


def test_unit_with_secrets_verifies(tmp_path: Path, systemd_analyze: str) -> None:
    """The unit with secret flags and env still verifies silently."""
    ctx = _from_yaml({"model-path": "/m", "api-key": "sk-Export1"}, {"HF_TOKEN": "x", "A": "b c"})
    ctx = ExportContext(
        parse_base(
            f"launch:\n  python: {sys.executable}\n  args: {{model-path: /m, api-key: sk-1}}\n  env: {{HF_TOKEN: x}}\n"
        ),
        ctx.candidate,
        run_id=1,
        attempt_id=1,
    )
    path = tmp_path / "sglang.service"
    path.write_text(render("unit", ctx))
    done = subprocess.run([systemd_analyze, "verify", str(path)], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


HAND_WRITTEN_ENV_FILE = (
    "# an operator's file: comments, quotes, continuations\n"
    "; another comment with a 'quote\n"
    "PLAIN=value\n"
    "  SPACED =   padded value   \n"
    "SINGLE='it is \"verbatim\" \\n'\n"
    'DOUBLE="a \\"b\\" \\$c \\\\ \\z"\n'
    "JOINED=one\\\n"
    "two\n"
    "MIXED='a' \"b\" c\n"
    "MULTI='line one\n"
    "line two'\n"
    "NOT AN ASSIGNMENT\n"
    "PLAIN=later wins\n"
)


@pytest.mark.parametrize("text", ["export", "hand-written"])
def test_the_supervisor_reads_env_files_as_systemd_does(text: str) -> None:
    """launch.env_files are read on the host by probes/supervise.py: what it reads is
    what the rules of systemd.exec(5) read (tests/systemd_rules.py) and what systemd
    itself reads where this machine can ask it."""
    from autofix.probes.supervise import parse_env_file

    from .systemd_rules import parse_environment_file, require_systemd_reader, systemd_reads

    if text == "export":
        env: dict[str, object] = {f"E{i}": v for i, v in enumerate(HOSTILE_ENV)}
        body = render("env", _from_yaml({"model-path": "/m"}, env))
    else:
        body = HAND_WRITTEN_ENV_FILE
    read = parse_env_file(body)
    assert read == parse_environment_file(body)
    if text == "hand-written":
        assert read == {
            "PLAIN": "later wins",
            "SPACED": "padded value",
            "SINGLE": 'it is "verbatim" \\n',
            "DOUBLE": 'a "b" $c \\ \\z',
            "JOINED": "onetwo",
            "MIXED": "abc",
            "MULTI": "line one\nline two",
        }
    require_systemd_reader()
    assert systemd_reads(body, read)


def test_the_unit_lists_the_operators_env_files_before_autofixs_own() -> None:
    text = yaml.safe_dump(
        {
            "name": "x",
            "launch": {
                "python": "/v/bin/python",
                "args": {"model-path": "/m"},
                "env": {"HF_TOKEN": "hf_secret"},
                "env_files": ["/etc/sglang/x.env", "-/etc/sglang/more.env"],
            },
        }
    )
    config = parse_base(text, source="x.yaml")
    unit = render("unit", ExportContext(config, config.base, run_id=1, attempt_id=1))
    lines = [line for line in unit.splitlines() if line.startswith("EnvironmentFile=")]
    assert lines == [
        "EnvironmentFile=/etc/sglang/x.env",
        "EnvironmentFile=-/etc/sglang/more.env",
        "EnvironmentFile=-/etc/autofix/sglang-x.env",
    ]
    assert "hf_secret" not in unit
    assert yaml.safe_load(render("yaml", ExportContext(config, config.base, 1, 1)))["launch"]["env_files"] == [
        "/etc/sglang/x.env",
        "-/etc/sglang/more.env",
    ]


def test_a_word_ending_in_a_newline_is_quoted() -> None:
    """$ in a regex matches before a final newline: a word is bare only if safe to its end."""
    from autofix.export import environment_file_line, systemd_word

    assert systemd_word("x\n") == '"x\\n"'
    assert environment_file_line("E", "v\n") == "E='v\n'"  # quoted: bare, the newline would end it
