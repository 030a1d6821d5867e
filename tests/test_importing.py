"""autofix init's import: real units and command lines give the base an operator expects;
an exported unit imports back as the same candidate; secrets stay out of the YAML."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from autofix.config import parse_base
from autofix.errors import InputError
from autofix.export import ExportContext, render
from autofix.importing import from_command, from_unit
from autofix.model import REDACTED, Candidate

from .conftest import ROOT

DATA = ROOT / "tests" / "data"
SEED_UNIT = DATA / "units" / "sglang-k26-eagle3.service"
COMMANDS = yaml.safe_load((DATA / "commands" / "cases.yaml").read_text())


def imported_unit(text: str, file_name: str = "sglang-x.service", **kw: Any) -> dict[str, Any]:
    done = from_unit(text, source=file_name, file_name=file_name, **kw)
    return dict(yaml.safe_load(done.yaml_text), notes=done.notes)


def unit(service: str, unit_section: str = "") -> str:
    return f"[Unit]\nDescription=x\n{unit_section}\n[Service]\n{service}\n[Install]\nWantedBy=multi-user.target\n"


def test_the_seeds_unit_gives_the_seeds_base() -> None:
    """The unit the article describes imports as examples/k26-eagle3.yaml's launch: the
    same candidate (flags in order, NCCL env), interpreter, module, name and conflict."""
    done = from_unit(SEED_UNIT.read_text(), source=str(SEED_UNIT), file_name=SEED_UNIT.name, host="root@10.1.2.200")
    config = parse_base(done.yaml_text, source="imported")
    example = parse_base((ROOT / "examples" / "k26-eagle3.yaml").read_text(), source="example")
    assert config.base.args == example.base.args
    assert dict(config.base.env) == {**dict(example.base.env), "HF_HOME": "/models/.hf"}
    assert (config.launch.python, config.launch.module) == (example.launch.python, example.launch.module)
    assert config.unit == "sglang-k26-eagle3" and config.host == "root@10.1.2.200"
    assert config.service.conflicts == ("sglang-k26.service",)
    assert done.notes == () and not done.holds_secret


@pytest.mark.parametrize("case", COMMANDS, ids=[c["name"] for c in COMMANDS])
def test_real_command_lines_import_as_written(case: dict[str, Any]) -> None:
    done = from_command(case["command"], source=case["name"])
    config = parse_base(done.yaml_text, source=case["name"])
    expect = case["expect"]
    assert (config.launch.python, config.launch.module) == (expect["python"], expect["module"])
    assert config.base == Candidate.build(expect["args"], expect["env"])
    assert config.target == ("vllm" if expect["module"].startswith("vllm") else "sglang")


def test_a_wrapper_and_a_redirect_are_dropped_and_named() -> None:
    done = from_command(next(c for c in COMMANDS if c["name"] == "inferencex-dsr1-mtp")["command"], source="x")
    assert any("dropped 'nohup'" in note for note in done.notes)
    assert "server.log" not in done.yaml_text


def test_sglang_serve_is_launched_as_the_module_with_the_venvs_python() -> None:
    data = yaml.safe_load(from_command("/opt/sgl/bin/sglang serve --model-path m --tp 2", source="x").yaml_text)
    assert data["launch"]["python"] == "/opt/sgl/bin/python"
    assert data["launch"]["module"] == "sglang.launch_server"
    assert data["launch"]["args"] == {"model-path": "m", "tp": 2}


def test_vllm_serve_takes_its_positional_model() -> None:
    data = yaml.safe_load(from_command("vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2", source="x").yaml_text)
    assert data["target"] == "vllm"
    assert data["launch"]["module"] == "vllm.entrypoints.cli.main"
    assert data["launch"]["args"] == {"model": "Qwen/Qwen3-8B", "tensor-parallel-size": 2}


def test_flag_spellings_the_host_may_refuse_are_kept_for_the_repair() -> None:
    """Typos and old names reach the base as typed: the search renames them."""
    text = "python -m sglang.launch_server --model-path m ---page-size 16 --reasoning_parser qwen3 - -trust-remote-code --enable-ep-moe"
    config = parse_base(from_command(text, source="x").yaml_text, source="x")
    assert config.base.args == (
        ("model-path", "m"),
        ("---page-size", "16"),
        ("reasoning_parser", "qwen3"),
        ("- -trust-remote-code", True),
        ("enable-ep-moe", True),
    )


def test_a_flag_given_twice_keeps_the_last_as_argparse_does() -> None:
    done = from_command("python -m sglang.launch_server --model-path m --port 1 --port=2", source="x")
    assert yaml.safe_load(done.yaml_text)["launch"]["args"]["port"] == 2
    assert any("given twice" in note for note in done.notes)


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("docker run --gpus all lmsysorg/sglang python3 -m sglang.launch_server --model-path m", "a docker command"),
        ("python3 serve.py --model-path m", "no module"),
        ("python3 -m http.server 8000", "-m http.server is not a server autofix drives"),
        ("./run.sh", "no Python interpreter"),
        ("python3 -m sglang.launch_server --model-path $MODEL", "needs the shell's variables"),
        ("python3 -m sglang.launch_server --trust-remote-code yes", "'yes' stands where a flag should"),
        ('python3 -m sglang.launch_server --served-model-name "unclosed', "cannot split the command"),
    ],
)
def test_commands_autofix_cannot_launch_are_refused_by_name(command: str, says: str) -> None:
    with pytest.raises(InputError, match=None) as caught:
        from_command(command, source="--from-cmd")
    assert says in str(caught.value) and str(caught.value).startswith("--from-cmd: ")


# --- unit files -------------------------------------------------------------------------------


def test_systemd_quoting_escapes_and_specifiers_are_read_as_systemd_does() -> None:
    text = unit(
        'Environment="GREETING=hello world" PLAIN=1\n'
        "Environment=\n"  # an empty assignment resets the list
        'Environment="NAME=a\\x41\\tb" PCT=100%%\n'
        'ExecStart=-/usr/bin/python3 -m sglang.launch_server --model-path "/models/My Model" '
        "--served-model-name %N --chat-template 'a \"b\" c' --api-prefix $${HOME} --dtype ${DTYPE}\n"
        "Environment=DTYPE=bfloat16\n"
    )
    data = imported_unit(text, file_name="sglang-x@1.service")
    assert data["launch"]["env"] == {"NAME": "aA\tb", "PCT": "100%", "DTYPE": "bfloat16"}
    assert data["launch"]["args"] == {
        "model-path": "/models/My Model",
        "served-model-name": "sglang-x@1",
        "chat-template": 'a "b" c',
        "api-prefix": "${HOME}",
        "dtype": "bfloat16",
    }


def test_environment_files_stay_on_the_host_and_secrets_out_of_the_yaml() -> None:
    """EnvironmentFile= paths become launch.env_files (never read here); an inline secret
    is left out, pointed at autofix's env file for the unit and named in a note."""
    text = unit(
        "EnvironmentFile=/etc/sglang/common.env\n"
        "EnvironmentFile=-/etc/sglang/%N.env\n"
        "Environment=HF_TOKEN=hf_SeCrEt NCCL_ALGO=Ring\n"
        "WorkingDirectory=/srv/sglang\n"
        "ExecStart=/venv/bin/python -m sglang.launch_server --model-path /m --api-key sk-SeCrEt\n"
    )
    done = from_unit(text, source="u", file_name="sglang-x.service")
    assert "hf_SeCrEt" not in done.yaml_text
    config = parse_base(done.yaml_text, source="u")
    assert config.launch.env_files == (
        "/etc/sglang/common.env",
        "-/etc/sglang/sglang-x.env",
        "-/etc/autofix/sglang-x.env",
    )
    assert dict(config.base.env) == {"NCCL_ALGO": "Ring"}
    assert config.launch.cwd == "/srv/sglang"
    assert any("put HF_TOKEN=… in /etc/autofix/sglang-x.env" in n for n in done.notes)
    # The flag's value was in the clear on the command line: kept, and the file marked 0600.
    assert done.holds_secret and config.base.arg("api-key") == "sk-SeCrEt"


@pytest.mark.parametrize(
    ("service", "says"),
    [
        ("Type=oneshot\nExecStart=/bin/true\nExecStart=/bin/false", "2 ExecStart= lines"),
        ("Type=simple", "no ExecStart="),
        ("ExecStart=/venv/bin/python -m sglang.launch_server --model-path %h/m", "%h is a specifier only the host's"),
        ("ExecStart=/venv/bin/python -m sglang.launch_server --model-path ${MODEL}", "$MODEL is not set"),
        ('ExecStart=/venv/bin/python -m sglang.launch_server --model-path "/m', "quote is never closed"),
    ],
)
def test_units_autofix_cannot_read_are_refused_by_name(service: str, says: str) -> None:
    with pytest.raises(InputError) as caught:
        imported_unit(unit(service))
    assert says in str(caught.value)


def test_not_a_unit_file_is_refused() -> None:
    with pytest.raises(InputError, match="no \\[Service\\] section"):
        imported_unit("")
    with pytest.raises(InputError, match="line 1: not a unit file line"):
        imported_unit("python -m sglang.launch_server\n")


def test_exec_start_prefixes_and_argv0() -> None:
    text = unit("ExecStart=@-/venv/bin/python3.11 sglang-k26 -m sglang.launch_server --model-path /m --tp 8")
    data = imported_unit(text)
    assert data["launch"]["python"] == "/venv/bin/python3.11"
    assert data["launch"]["args"] == {"model-path": "/m", "tp": 8}
    no_expand = imported_unit(unit("ExecStart=:/venv/bin/python -m sglang.launch_server --model-path $M"))
    assert no_expand["launch"]["args"]["model-path"] == "$M"  # ':' : passed on as written


# --- round trip through the export ------------------------------------------------------------

HOSTILE = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Co", "Cn")) | st.sampled_from(list("\"'\\$%; \t")),
    min_size=1,
    max_size=24,
).filter(lambda v: not v.startswith("-") and v != REDACTED)
# A value like "-x" reads as a flag to any parser; "<redacted>" is the store's placeholder for a
# secret, which the export leaves out of the unit on purpose (it goes to the env file).


def _exported_config(args: dict[str, object], env: dict[str, str]) -> ExportContext:
    data = {
        "name": "rt",
        "service": {"unit": "sglang-rt", "conflicts": ["sglang-prod.service"]},
        "launch": {"python": "/venv/bin/python", "args": args, "env": env, "env_files": ["-/etc/sglang/rt.env"]},
    }
    config = parse_base(yaml.safe_dump(data, allow_unicode=True), source="rt.yaml")
    return ExportContext(config, config.base, run_id=7, attempt_id=9, moves=("set tp=8",))


@settings(max_examples=150, deadline=None)
@given(name=HOSTILE, template=HOSTILE, env_value=HOSTILE)
# Characters Python splits lines at and systemd does not (a unit's lines end at a newline):
# LINE SEPARATOR, NEXT LINE, FORM FEED, GROUP SEPARATOR (Hypothesis found the first).
@example(name="0", template="0", env_value="\u2028")
@example(name="a\x85b", template="c\x0cd", env_value="e\x1df")
def test_an_exported_unit_imports_back_as_the_same_candidate(name: str, template: str, env_value: str) -> None:
    """export --format unit, then init --from-unit: the same flags and values in the same
    order, the same env, env files, unit name and conflicts, whatever the values hold."""
    args = {"model-path": "/models/K2", "tp": 8, "trust-remote-code": True, "served-model-name": name}
    args |= {"chat-template": template, "cuda-graph-bs": ["1", "2", "4"]}
    ctx = _exported_config(args, {"NCCL_ALGO": env_value})
    done = from_unit(render("unit", ctx), source="sglang-rt.service", file_name="sglang-rt.service")
    back = parse_base(done.yaml_text, source="imported")
    assert back.base == ctx.candidate
    assert back.launch.env_files == ctx.config.launch.env_files
    assert (back.unit, back.service.conflicts, back.launch.python) == (
        "sglang-rt",
        ("sglang-prod.service",),
        "/venv/bin/python",
    )


def test_an_exported_unit_with_secrets_imports_back_without_them(tmp_path: Path) -> None:
    """The winner's secret env is in the export's EnvironmentFile=, its secret flags in
    SGLang's --config file: both come back as those host paths, no value anywhere."""
    data = {
        "name": "rt",
        "launch": {
            "python": "/v/bin/python",
            "args": {"model-path": "/m", "api-key": "sk-X"},
            "env": {"HF_TOKEN": "hf_X", "A": "1"},
        },
    }
    config = parse_base(yaml.safe_dump(data), source="rt.yaml")
    text = render("unit", ExportContext(config, config.base, run_id=1, attempt_id=1))
    done = from_unit(text, source="u", file_name="sglang-rt.service")
    assert "sk-X" not in done.yaml_text and "hf_X" not in done.yaml_text
    back = parse_base(done.yaml_text, source="u")
    assert back.base.args == (("model-path", "/m"), ("config", "/etc/autofix/sglang-rt.secrets.yaml"))
    assert dict(back.base.env) == {"A": "1"}
    assert back.launch.env_files == ("-/etc/autofix/sglang-rt.env",)


# --- a launch script's own variables -----------------------------------------------------------
# Issue 14, written before the change: a command copied from a launch script keeps the
# script's variables. The assignments above the command (NAME=value, export NAME=value) are
# read as a shell would: $NAME, ${NAME} and ${NAME:-default} in the command take their
# values; an exported name is also the server's environment, a plain one is not; a name the
# script never sets is still refused, naming it; inside single quotes nothing is expanded.

SCRIPT = """#!/bin/bash
# launch the 2-node head
MODEL=/models/dsv3
TP=16
export NCCL_IB_HCA=mlx5_0
PORT="30001"
python3 -m sglang.launch_server \\
    --model-path $MODEL --tp ${TP} --nnodes ${NNODES:-2} --node-rank ${NODE_RANK:-0} \\
    --port $PORT --served-model-name 'x$TP'
"""


def test_a_scripts_assignments_fill_its_variables() -> None:
    done = from_command(SCRIPT, source="launch.sh")
    base = yaml.safe_load(done.yaml_text)["launch"]
    assert base["args"] == {
        "model-path": "/models/dsv3",
        "tp": 16,
        "nnodes": 2,
        "node-rank": 0,
        "port": 30001,
        "served-model-name": "x$TP",
    }
    assert base["env"] == {"NCCL_IB_HCA": "mlx5_0"}  # exported: the server's; TP, MODEL: the shell's


def test_a_variable_the_script_never_sets_is_still_refused_by_name() -> None:
    with pytest.raises(InputError, match=r"launch.sh: .*\$HEAD_ADDR"):
        from_command(
            "TP=8\npython3 -m sglang.launch_server --model-path m --tp $TP --dist-init-addr $HEAD_ADDR:5000\n",
            source="launch.sh",
        )


def test_a_script_value_a_shell_would_have_to_run_is_no_assignment() -> None:
    """NPROC=$(nproc) needs the shell to run something: the script's command starts
    there, and the line is no server command autofix reads."""
    with pytest.raises(InputError):
        from_command("NPROC=$(nproc)\npython3 -m sglang.launch_server --model-path m --tp $NPROC\n", source="launch.sh")


def test_a_one_line_command_with_an_env_prefix_is_read_as_before() -> None:
    done = from_command("NCCL_DEBUG=INFO python3 -m sglang.launch_server --model-path m --tp 2", source="--from-cmd")
    launch = yaml.safe_load(done.yaml_text)["launch"]
    assert launch["env"] == {"NCCL_DEBUG": "INFO"} and launch["args"] == {"model-path": "m", "tp": 2}


def test_an_assignment_from_a_variable_the_script_never_sets_is_refused_by_name() -> None:
    """A=$UNKNOWN above the command carries the unset name into it: refused, not written."""
    with pytest.raises(InputError, match=r"s\.sh: .*\$UNKNOWN"):
        from_command(
            "A=$UNKNOWN\npython3 -m sglang.launch_server --model-path m --served-model-name $A\n", source="s.sh"
        )
