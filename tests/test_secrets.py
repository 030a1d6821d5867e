"""Secrets: found on the parsed config, kept out of the store, logs, exports and ps.

A secret is the value under an env name that looks like one (HF_TOKEN, OPENAI_API_KEY),
of a flag that the target's parser documents as a key, token or password (api-key,
ssl-keyfile-password, watermark-config), or of a name the user lists in search.secrets.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from autofix.config import parse_base
from autofix.hosts.local import LocalHost
from autofix.model import REDACTED, Candidate
from autofix.secrets import Secrets, documents_a_secret, known_secret_flags, secret_env_name, secret_flag_name
from autofix.services import ProcessManager
from autofix.targets import Target

from .conftest import ROOT

# The same HF_TOKEN in launch.env, spelled 11 more ways than the plain one: the value as
# YAML reads it, and the pieces of it the text shows (what a grep of the store looks for).
SPELLINGS: list[tuple[str, str, str, list[str]]] = [
    ("plain", "  env:\n    HF_TOKEN: hf_C0ntrolSecret1\n", "hf_C0ntrolSecret1", ["hf_C0ntrolSecret1"]),
    ("double-quoted key", '  env:\n    "HF_TOKEN": hf_DqKeySecret2\n', "hf_DqKeySecret2", ["hf_DqKeySecret2"]),
    ("single-quoted key", "  env:\n    'HF_TOKEN': hf_SqKeySecret3\n", "hf_SqKeySecret3", ["hf_SqKeySecret3"]),
    ("folded >-", "  env:\n    HF_TOKEN: >-\n      hf_FoldedSecret4\n", "hf_FoldedSecret4", ["hf_FoldedSecret4"]),
    ("literal |-", "  env:\n    HF_TOKEN: |-\n      hf_LiteralSecret5\n", "hf_LiteralSecret5", ["hf_LiteralSecret5"]),
    (
        "multi-line plain",
        "  env:\n    HF_TOKEN: hf_MultiSecret6\n      continuedSix\n",
        "hf_MultiSecret6 continuedSix",
        ["hf_MultiSecret6", "continuedSix"],
    ),
    (
        "backslash continuation",
        '  env:\n    HF_TOKEN: "hf_ContSecret7\\\n      continuedSeven"\n',
        "hf_ContSecret7continuedSeven",
        ["hf_ContSecret7", "continuedSeven"],
    ),
    ("# inside quotes", '  env:\n    HF_TOKEN: "hf_Hash#Secret8"\n', "hf_Hash#Secret8", ["hf_Hash", "Secret8"]),
    (
        ", inside quotes",
        '  env: {NCCL_PROTO: LL, HF_TOKEN: "hf_Comma,Secret9"}\n',
        "hf_Comma,Secret9",
        ["hf_Comma", "Secret9"],
    ),
    ("? KEY", "  env:\n    ? HF_TOKEN\n    : hf_QuestionSecret10\n", "hf_QuestionSecret10", ["hf_QuestionSecret10"]),
    ("escaped key", '  env:\n    "HF\\x5fTOKEN": hf_EscKeySecret11\n', "hf_EscKeySecret11", ["hf_EscKeySecret11"]),
    (
        "merge key",
        "  env:\n    <<: {HF_TOKEN: hf_MergeSecret12}\n    NCCL_ALGO: Ring\n",
        "hf_MergeSecret12",
        ["hf_MergeSecret12"],
    ),
]


def _base(env_block: str) -> str:
    return f"name: s\nlaunch:\n  python: /usr/bin/python3\n  args:\n    model-path: /m\n{env_block}"


@pytest.mark.parametrize(("label", "block", "value", "pieces"), SPELLINGS, ids=[s[0] for s in SPELLINGS])
def test_every_spelling_of_an_env_secret_is_found_and_never_stored(
    label: str, block: str, value: str, pieces: list[str]
) -> None:
    """The secret is found on the parsed config whatever its spelling; the text kept for
    the store holds none of it and still reads back as the same config (secret redacted)."""
    config = parse_base(_base(block), source="s.yaml")
    assert config.base.env_value("HF_TOKEN") == value
    assert value in config.secrets.values and "HF_TOKEN" in config.secrets.env
    assert not [p for p in pieces if p in config.stored_text]
    again = parse_base(config.stored_text, source="s.yaml")
    assert again.base == config.secrets.redact(config.base)
    assert again.base.env_value("HF_TOKEN") == REDACTED


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("HF_TOKEN", True),
        ("HUGGING_FACE_HUB_TOKEN", True),
        ("OPENAI_API_KEY", True),
        ("AWS_SECRET_ACCESS_KEY", True),
        ("AWS_ACCESS_KEY_ID", True),
        ("DB_PASSWORD", True),
        ("REDIS_PASSWD", True),
        ("CLIENT_SECRET_VALUE", True),
        ("GOOGLE_APPLICATION_CREDENTIALS", True),
        ("hf_token", True),
        ("GITHUBTOKEN", True),
        ("TOKENIZERS_PARALLELISM", False),
        ("SGLANG_MAX_NEW_TOKENS_LIMIT", False),
        ("SGLANG_INIT_NEW_TOKEN_RATIO", False),
        ("HF_TOKEN_PATH", False),
        ("NCCL_ALGO", False),
        ("PWD", False),
    ],
)
def test_env_names_that_look_like_secrets(name: str, secret: bool) -> None:
    """A name whose last word is TOKEN/KEY/SECRET/PASSWORD (or that says SECRET or
    PASSWORD anywhere) holds a secret; TOKEN as a count or a path does not."""
    assert secret_env_name(name) is secret


def test_flags_the_parser_documents_as_secrets() -> None:
    """SGLang 0.5.23's parser facts mark api-key, admin-api-key, ssl-keyfile-password and
    watermark-config (its help: 'inline JSON object with optional key'); names say the rest."""
    known = known_secret_flags()
    assert {"api-key", "admin-api-key", "ssl-keyfile-password", "watermark-config"} <= known
    assert not {"ssl-keyfile", "speculative-num-draft-tokens", "max-total-tokens", "served-model-name"} & known
    assert secret_flag_name("hf-token") and secret_flag_name("db-password") and secret_flag_name("api_key")
    assert not secret_flag_name("speculative-token-map") and not secret_flag_name("ssl-keyfile")
    assert documents_a_secret("Set API key of the server.")
    assert documents_a_secret("The password to decrypt the SSL keyfile.")
    assert not documents_a_secret("The file path to the SSL key file.")
    assert not documents_a_secret("The number of tokens sampled from the draft model.")


def test_secret_flags_and_the_users_own_names() -> None:
    """Flags documented as secrets and every name in search.secrets are secrets; the
    stored text keeps the names, never the values."""
    text = (
        "launch:\n  args:\n    model-path: /m\n    api-key: sk-FlagValue1\n    watermark-config: '{\"key\": 7}'\n"
        "    my-flag: mine-FlagValue2\n    served-model-name: k26\n"
        "  env: {MY_VAR: mine-EnvValue3, NCCL_ALGO: Ring}\n"
        "search:\n  secrets: [my-flag, MY_VAR]\n"
    )
    config = parse_base(text, source="s.yaml")
    assert {"api-key", "watermark-config", "my-flag"} <= config.secrets.flags
    assert "served-model-name" not in config.secrets.flags
    assert config.secrets.env >= {"MY_VAR"} and "NCCL_ALGO" not in config.secrets.env
    for value in ("sk-FlagValue1", "mine-FlagValue2", "mine-EnvValue3", '{"key": 7}'):
        assert value in config.secrets.values and value not in config.stored_text
    again = parse_base(config.stored_text, source="s.yaml")
    assert again.search.secrets == ("my-flag", "MY_VAR")
    assert again.base.arg("served-model-name") == "k26" and again.base.arg("api-key") == REDACTED


def test_scrub_replaces_every_spelling_of_a_value_in_text() -> None:
    """Log lines show a secret raw, JSON-escaped or as Python's repr: all are replaced;
    values shorter than four characters are redacted by name only (not as words of text)."""
    secrets = Secrets(values=frozenset({'sk-"quoted"\\x', "abc"}))
    text = 'raw sk-"quoted"\\x json "sk-\\"quoted\\"\\\\x" repr \'sk-"quoted"\\\\x\' abc'
    out = secrets.scrub(text)
    assert "quoted" not in out and out.count(REDACTED) == 3 and out.endswith("abc")


def test_redact_and_split_a_candidate() -> None:
    """The stored candidate has secret values replaced; the launched one has its secret
    flags apart (to go into a 0600 file, never the command line)."""
    config = parse_base(
        "launch:\n  args: {model-path: /m, api-key: sk-Split1, tp: 8}\n  env: {HF_TOKEN: hf_Split2, A: b}\n"
    )
    red = config.secrets.redact(config.base)
    assert red.args_dict() == {"model-path": "/m", "api-key": REDACTED, "tp": "8"}
    assert red.env_dict() == {"HF_TOKEN": REDACTED, "A": "b"}
    public, secret = config.secrets.split(config.base)
    assert public.argv() == ["--model-path", "/m", "--tp", "8"] and secret == {"api-key": "sk-Split1"}


def test_resolved_fields_of_secret_flags_are_redacted_by_name() -> None:
    """What preflight resolved (api_key: 'x') is redacted under the field's name, even a
    value too short to scrub as text."""
    secrets = Secrets(flags=frozenset({"api-key"}), values=frozenset({"sk-Resolved1"}))
    tree = {"api_key": "x", "port": 30000, "__changed__": {"api_key": [None, "sk-Resolved1"]}, "note": "sk-Resolved1"}
    assert secrets.scrub_tree(tree) == {
        "api_key": REDACTED,
        "port": 30000,
        "__changed__": {"api_key": REDACTED},
        "note": REDACTED,
    }


def _sleeper(tmp_path: Path) -> Target:
    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "sleeper.py").write_text(
        "import os, sys, time\n"
        "open(os.environ['OUT'], 'w').write(repr((sys.argv, os.environ.get('HF_TOKEN'))))\n"
        "time.sleep(float(os.environ.get('SLEEP', '1')))\n"
    )
    return Target("sglang", sys.executable, "sleeper", env=(("PYTHONPATH", str(mods)),))


def _cmdlines_holding(needle: str) -> list[str]:
    hits = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if needle.encode() in cmdline:
            hits.append(cmdline.replace(b"\0", b" ").decode(errors="replace"))
    return hits


def test_process_manager_keeps_secrets_out_of_ps_and_leaves_no_file(tmp_path: Path) -> None:
    """Under the process supervisor the secret env arrives in the environment and the
    secret flag in a 0600 --config file: no command line holds either; when the candidate
    ends, neither env.json nor the secret-args file is left in its directory."""
    config = parse_base(
        "launch:\n  args: {model-path: /m, api-key: sk-PsFlag1}\n  env: {HF_TOKEN: hf_PsEnv2}\n", source="p.yaml"
    )
    target = _sleeper(tmp_path)
    target = Target(
        target.kind,
        target.python,
        target.module,
        env=(*target.env, ("OUT", str(tmp_path / "seen"))),
        secrets=config.secrets,
    )
    manager = ProcessManager(LocalHost(workdir=str(tmp_path / "work")), sys.executable)
    handle = manager.start("autofix-9-1-abc", config.base, target, None)
    deadline = time.time() + 30
    while not (tmp_path / "seen").exists() and time.time() < deadline:
        time.sleep(0.05)
    assert not _cmdlines_holding("sk-PsFlag1") and not _cmdlines_holding("hf_PsEnv2")
    argv, token = eval((tmp_path / "seen").read_text())
    assert token == "hf_PsEnv2" and "--api-key" not in argv and argv[-2] == "--config"
    secret_file = Path(argv[-1])
    assert oct(secret_file.stat().st_mode & 0o777) == "0o600"
    assert secret_file.read_text().strip() == '"api-key": "sk-PsFlag1"'
    assert not (Path(handle.directory) / "env.json").exists()  # read and removed at once
    while manager.state(handle).running and time.time() < deadline:
        time.sleep(0.1)
    left = [p.name for p in Path(handle.directory).iterdir()]
    assert "env.json" not in left and secret_file.name not in left, left
    assert not any(
        b"sk-PsFlag1" in p.read_bytes() or b"hf_PsEnv2" in p.read_bytes() for p in Path(handle.directory).iterdir()
    )


def test_stopping_a_candidate_removes_its_secret_files(tmp_path: Path) -> None:
    """Stopped before it ended (Ctrl-C, a gate that failed): the files go with it."""
    config = parse_base("launch:\n  args: {model-path: /m, api-key: sk-Stop1}\n", source="p.yaml")
    target = _sleeper(tmp_path)
    target = Target(
        target.kind,
        target.python,
        target.module,
        env=(*target.env, ("OUT", str(tmp_path / "seen")), ("SLEEP", "60")),
        secrets=config.secrets,
    )
    manager = ProcessManager(LocalHost(workdir=str(tmp_path / "work")), sys.executable)
    handle = manager.start("autofix-9-2-abc", config.base, target, None)
    manager.stop(handle, grace=5)
    assert not any(b"sk-Stop1" in p.read_bytes() for p in Path(handle.directory).iterdir())


def test_a_user_config_file_flag_with_secret_flags_is_refused() -> None:
    """Secret flags reach SGLang in a --config file of autofix's own; SGLang reads one
    --config only, so the user's own config flag and a secret flag cannot go together."""
    from autofix.errors import ConfigError

    with pytest.raises(ConfigError, match=r"s\.yaml: launch\.args\.config: .*api-key"):
        parse_base("launch:\n  args: {model-path: /m, config: /etc/x.yaml, api-key: sk-1}\n", source="s.yaml")


def test_candidate_json_never_holds_a_secret() -> None:
    """A candidate redacted for the store serializes without the value."""
    config = parse_base("launch:\n  args: {model-path: /m, admin-api-key: sk-Json1}\n")
    assert "sk-Json1" not in json.dumps(config.secrets.redact(config.base).to_json())
    assert Candidate.build({"a": 1}).key == config.secrets.redact(Candidate.build({"a": 1})).key


def test_the_hosts_parser_names_its_secret_flags() -> None:
    """The probe reports the help of every free-text flag of the installed parser; the
    controller reads the secrets out of it (here the sim's parser, the real 0.5.23 one's
    facts): what strategies knows, found again on the host, for any version."""
    import subprocess

    from autofix.secrets import secret_flags_from_parser
    from autofix.sim import SITE_DIR

    code = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'autofix' / 'probes')!r})\n"
        "import preflight\n"
        "from sglang.srt.server_args import ServerArgs\n"
        "print(json.dumps(preflight._parser_facts(ServerArgs)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(SITE_DIR)},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    facts = json.loads(done.stdout.strip().splitlines()[-1])
    assert secret_flags_from_parser(facts) == known_secret_flags()
    invented = {"flags": {"hub-credential-string": {"kind": "value", "type": "str", "help": "The access token."}}}
    assert secret_flags_from_parser(invented) == {"hub-credential-string"}


def test_an_error_about_a_secret_flag_does_not_echo_its_value() -> None:
    """Refused before any secret is known, the one line still leaves the value out."""
    from autofix.errors import ConfigError

    with pytest.raises(ConfigError) as info:
        parse_base("launch:\n  args: {model-path: /m, api-key: -sk-Echo1}\n", source="e.yaml")
    assert "sk-Echo1" not in str(info.value) and "launch.args.api-key" in str(info.value)


def test_an_abbreviated_count_flag_named_token_is_no_secret() -> None:
    """Round 38s, found by the bench: users' old spellings `--max-total-token 65536` (a
    prefix argparse takes for --max-total-tokens) and `--max-prefill-num-token 8192` end in
    TOKEN, so their numbers were kept out as secrets, and every 8192 of later candidates
    (a bucket list, a chunk size) was stored as <redacted>. A spelling that names a flag the
    parser reads as a number, or a name that counts (max, min, num ...), holds no secret; a
    real token flag still does."""
    text = (
        "launch:\n  args:\n    model-path: /m\n    max-total-token: 65536\n    max-prefill-num-token: 8192\n"
        "    hf-token: hf_RealToken9\n"
    )
    config = parse_base(text, source="s.yaml")
    assert "max-total-token" not in config.secrets.flags
    assert "max-prefill-num-token" not in config.secrets.flags
    assert config.secrets.values == frozenset({"hf_RealToken9"})
