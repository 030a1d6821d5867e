"""Property tests (hypothesis): hostile config values, journals of random bytes.

Every value either is refused with one line (exit code 2's ConfigError) or reaches the
target byte for byte as one argument: in argv, through systemd's unit quoting, through
the shell quoting of the argv export. The journal parser never raises on any input.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.config import parse_base
from autofix.errors import ConfigError
from autofix.export import ExportContext, render, secret_args_file, systemd_exec
from autofix.model import REDACTED, Gate, RunStatus, flag_tokens
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
    assume(flag != "model-path")  # the one flag the config writes itself
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
        # As the user spelled it (a name with its own dashes is kept as typed: model.flag_tokens).
        words = flag_tokens(flag)
        assert argv[2 : 2 + len(words)] == words and argv[2 + len(words) :] == [str(loaded["args"][flag])]
    full = ["/usr/bin/python3", "-m", "sglang.launch_server", *argv]
    assert systemd_split(systemd_exec(full)) == full
    ctx = ExportContext(config, config.base, run_id=1, attempt_id=1)
    line = render("argv", ctx).rstrip("\n").split("\n")[-1]
    if config.secrets.flag_is_secret(flag) and loaded["args"][flag] is not True:
        # A flag whose name says it holds a secret (PASSWD, api-key) reaches the server in
        # SGLang's --config file, by design: the export names that file, never the value.
        exported = shlex.split(line)
        assert exported[-2:] == ["--config", secret_args_file(config.unit)] and f"--{flag}" not in exported
    else:
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


# --- secrets: the same secret in any YAML spelling ----------------------------------------------

SECRET_ALPHABET = st.characters(codec="ascii", categories=("L", "N")) | st.sampled_from(list("-_#,:'\" \\/!%@.=+"))


def _plain_safe(text: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_./=+-]*", text)) and yaml.safe_load(text) == text


def _double(draw: st.DrawFn, text: str, *, breaks: bool) -> str:
    """A double-quoted scalar with random escapes and, in block context, random \\-newline
    continuations (the next line's indentation is not part of the value)."""
    out = []
    for ch in text:
        at_line_start = bool(out) and out[-1].startswith("\\\n")
        if ch in '"\\':
            out.append("\\" + ch)
        elif at_line_start and ch in " \t":
            # Leading blanks of a continued line are not part of the value (YAML folds
            # them away): a space there is written as an escape, as a YAML writer must.
            out.append(f"\\x{ord(ch):02x}")
        elif draw(st.integers(0, 5)) == 0:
            out.append(draw(st.sampled_from([f"\\x{ord(ch):02x}", f"\\u{ord(ch):04x}", f"\\U{ord(ch):08x}"])))
        else:
            out.append(ch)
        if breaks and draw(st.integers(0, 7)) == 0:
            out.append("\\\n        ")
    return '"' + "".join(out) + '"'


def _folds(text: str) -> bool:
    """Whether >- and multi-line plain can carry ``text``: single spaces between words."""
    return bool(text) and text == text.strip() and "  " not in text and "\t" not in text


@st.composite
def yaml_scalar(draw: st.DrawFn, text: str, *, block: bool) -> str:
    """``text`` as a YAML scalar in a style drawn at random among those that can carry it."""
    styles = ["single", "double"]
    if _plain_safe(text):
        styles.append("plain")
    if block and text and not text.startswith((" ", "#")) and text == text.rstrip() and "\n" not in text:
        styles.append("literal")
    if block and _folds(text) and " " in text:
        styles.append("folded")
        if all(_plain_safe(w) for w in text.split(" ")):
            styles.append("plain-lines")
    style = draw(st.sampled_from(styles))
    if style == "plain":
        return text
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    if style == "double":
        return _double(draw, text, breaks=block)
    if style == "literal":
        return "|-\n        " + text
    words = text.split(" ")
    cut = draw(st.integers(1, len(words) - 1))
    first, rest = " ".join(words[:cut]), " ".join(words[cut:])
    if style == "folded":
        return ">-\n        " + first + "\n        " + rest
    return first + "\n        " + rest  # a plain scalar continued on the next line


@st.composite
def yaml_key(draw: st.DrawFn, key: str, *, block: bool) -> str:
    style = draw(st.sampled_from(["plain", "single", "double", "explicit"] if block else ["plain", "single", "double"]))
    if style == "single":
        return "'" + key + "'"
    if style == "double":
        return _double(draw, key, breaks=False)
    return key


@st.composite
def env_block(draw: st.DrawFn, env: dict[str, str]) -> str:
    """launch.env in a random layout: block or flow, keys and values in random styles,
    comments, and part of it behind a merge key."""
    names = list(env)
    merged = draw(st.sets(st.sampled_from(names))) if names else set()
    if draw(st.booleans()):  # flow mapping on one line
        items = [
            f"{draw(yaml_key(n, block=False))}: {draw(yaml_scalar(env[n], block=False))}"
            for n in names
            if n not in merged
        ]
        if merged:
            inner = ", ".join(
                f"{draw(yaml_key(n, block=False))}: {draw(yaml_scalar(env[n], block=False))}" for n in merged
            )
            items.insert(0, "<<: {" + inner + "}")
        return "  env: {" + ", ".join(items) + "}\n"
    lines = ["  env:"]
    if merged:
        inner = ", ".join(f"{draw(yaml_key(n, block=False))}: {draw(yaml_scalar(env[n], block=False))}" for n in merged)
        lines.append("    <<: {" + inner + "}")
    for n in names:
        if n in merged:
            continue
        key = draw(yaml_key(n, block=True))
        value = draw(yaml_scalar(env[n], block=True))
        comment = "  # " + draw(st.sampled_from(["from the hub", "a: b, c", "'q'"])) if draw(st.booleans()) else ""
        if value.startswith(("|", ">")) or "\n" in value:
            comment = ""
        if key == n and draw(st.booleans()) and "\n" not in value:
            lines.append(f"    ? {n}\n    : {value}{comment}")
        else:
            lines.append(f"    {key}: {value}{comment}")
    return "\n".join(lines) + "\n"


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    data=st.data(),
    token=st.text(SECRET_ALPHABET, min_size=6, max_size=40).map(lambda s: "hf" + s.strip() + "Q9"),
    key=st.text(SECRET_ALPHABET, min_size=6, max_size=40).map(lambda s: "sk" + s.strip() + "Z8"),
)
def test_a_secret_in_any_yaml_spelling_reaches_no_store_log_export_or_host_command(
    data: st.DataObject, token: str, key: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The same secret (in launch.env and as api-key) written in random YAML styles:
    found on the parsed config every time; 0 hits in the database file, the log lines,
    every export format and the commands the systemd manager sends the host."""
    from autofix.export import ExportContext, render
    from autofix.model import AttemptState, Failure
    from autofix.model import Gate as G
    from autofix.secrets import keep_out
    from autofix.store import open_store
    from autofix.systemd import SystemdManager
    from autofix.targets import Target

    from .test_systemd import RecordingHost

    env = {"HF_TOKEN": token, "NCCL_ALGO": "Ring", "MY_OWN": token[::-1]}
    text = (
        "name: prop\nlaunch:\n  python: /usr/bin/python3\n  args:\n    model-path: /m\n"
        f"    api-key: {data.draw(yaml_scalar(key, block=True))}\n"
        + data.draw(env_block(env))
        + "search:\n  secrets: [MY_OWN]\n"
    )
    assert yaml.load(text, Loader=yaml.SafeLoader)["launch"]["args"]["api-key"] == key, text
    config = parse_base(text, source="p.yaml")
    assert config.base.env_dict() == env and config.base.arg("api-key") == key
    needles = [token, key, token[::-1]]
    assert set(needles) <= config.secrets.values
    keep_out(config.secrets)
    tmp = tmp_path_factory.mktemp("secret")

    store = open_store(f"sqlite:///{tmp / 'runs.db'}")
    run = store.create_run(name="prop", base_path="p.yaml", base_text=config.stored_text, host="h", target="t")
    attempt = store.begin_attempt(run.id, config.base, parent_id=None, move=None, host="h", target_version=None)
    said = f"[2026] server_args={{'api_key': {key!r}}} HF_TOKEN={token}"
    store.finish_attempt(
        attempt.id,
        state=AttemptState.FAILED,
        verdicts=[],
        failure=Failure(G.START, None, "fp", "ValueError", said, None, said),
        resolved={"api_key": key},
        log_excerpt=said,
    )
    store.finish_run(run.id, RunStatus.PASSED, attempt.id)
    stored = open_store(f"sqlite:///{tmp / 'runs.db'}")
    exported_config = parse_base(stored.run(run.id).base_text, source="p.yaml")
    ctx = ExportContext(exported_config, stored.attempt(attempt.id).candidate, run_id=run.id, attempt_id=attempt.id)
    exports = "".join(render(fmt, ctx) for fmt in ("unit", "argv", "env", "yaml"))
    exports += "".join(render(fmt, ExportContext(config, config.base, 1, 1)) for fmt in ("unit", "argv", "env", "yaml"))
    store.close()
    stored.close()

    host = RecordingHost(str(tmp / "host"), user="ubuntu")
    manager = SystemdManager(host, "python3")
    handle = manager.start("autofix-1-1-p", config.base, Target("sglang", "python3", "m", secrets=config.secrets), None)
    manager.stop(handle)
    commands = json.dumps(host.commands)

    logged = _logged(needles)
    database = b"".join(p.read_bytes() for p in tmp.glob("runs.db*"))
    left = b"".join(p.read_bytes() for p in (tmp / "host").rglob("*") if p.is_file())
    for needle in needles:
        assert needle.encode() not in database, "store"
        assert needle not in exports, "exports"
        assert needle not in commands and needle.encode() not in left, "host"
        assert needle not in logged, "logs"


def _logged(needles: list[str]) -> str:
    """What autofix's logs (JSON lines, the -v --log-json setup) write for events that
    carry the secrets."""
    import io

    import structlog

    from autofix import logs

    sink = io.StringIO()
    logs.configure(json_lines=True, verbose=True)
    structlog.configure(logger_factory=structlog.PrintLoggerFactory(file=sink))
    log = logs.get_logger("prop")
    log.info("preflight.request", argv=["--api-key", needles[1]], env={"HF_TOKEN": needles[0]}, note=needles[2])
    log.warning(f"server said {needles[0]}")
    return sink.getvalue()


# --- exports that round-trip ---------------------------------------------------------------------


def _accepted(args: dict[str, object], env: dict[str, object]) -> object:
    text = yaml.safe_dump(
        {"launch": {"python": "/usr/bin/python3", "args": {"model-path": "/m", **args}, "env": env}}, allow_unicode=True
    )
    try:
        return parse_base(text, source="h.yaml")
    except ConfigError:
        return None


SCALARS = (
    HOSTILE
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.sampled_from(
        ["nan", "inf", "1.0", "1e3", "0x10", "010", "1_000", "1:30", "yes", "null", "~", "2001-12-14", ".5", "-1", "+1"]
    )
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=SCALARS, items=st.lists(SCALARS, min_size=1, max_size=3), env_value=SCALARS)
def test_yaml_export_reads_back_as_the_same_candidate(value: object, items: list[object], env_value: object) -> None:
    """For every value the config accepts, --format yaml reads back with the same key."""
    config = _accepted({"x": value, "y": items}, {"E": env_value})
    if config is None:
        return
    ctx = ExportContext(config, config.base, run_id=1, attempt_id=1)  # type: ignore[arg-type]
    again = parse_base(render("yaml", ctx), source="exported.yaml")
    assert again.base.key == config.base.key  # type: ignore[attr-defined]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(env=st.dictionaries(st.from_regex(r"[A-Z][A-Z0-9_]{0,8}", fullmatch=True), SCALARS, max_size=6))
def test_env_export_reads_back_under_systemds_rules(env: dict[str, object]) -> None:
    """For every env the config accepts, --format env parses back (systemd's
    EnvironmentFile= rules) to exactly the candidate's env, secrets left out by name."""
    from autofix.secrets import secret_env_name

    from .systemd_rules import parse_environment_file

    config = _accepted({}, env)
    if config is None:
        return
    base = config.base  # type: ignore[attr-defined]
    text = render("env", ExportContext(config, base, run_id=1, attempt_id=1))  # type: ignore[arg-type]
    # REDACTED is the store's mark for a value kept out as a secret (a stored base's text is
    # parsed again for history and export): the export keeps it out too, whatever the name.
    assert parse_environment_file(text) == {k: v for k, v in base.env if not secret_env_name(k) and v != REDACTED}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.lists(HOSTILE, min_size=1, max_size=5))
def test_env_export_matches_systemds_own_parser(values: list[str]) -> None:
    """systemd itself (its os-release parser is the EnvironmentFile= parser) reads the
    values back: the rules above are checked against the real thing."""
    from .systemd_rules import require_systemd_reader, systemd_reads

    require_systemd_reader()
    config = _accepted({}, {f"E{i}": v for i, v in enumerate(values)})
    if config is None:
        return
    base = config.base  # type: ignore[attr-defined]
    text = render("env", ExportContext(config, base, run_id=1, attempt_id=1))  # type: ignore[arg-type]
    assert systemd_reads(text, base.env_dict())
