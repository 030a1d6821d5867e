"""Base config validation: the example loads; bad input gets one line naming file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofix.config import load_base, parse_base, parse_duration
from autofix.errors import ConfigError

from .conftest import ROOT

MINIMAL = "launch:\n  args:\n    model-path: /m\n"


def test_example_is_the_seed_deployment() -> None:
    """examples/k26-eagle3.yaml holds the seed's flags, host, env and pinned flags."""
    cfg = load_base(ROOT / "examples" / "k26-eagle3.yaml")
    assert cfg.host == "root@10.1.2.200"
    assert cfg.base.argv() == [
        "--model-path",
        "/models/Kimi-K2.6",
        "--tp",
        "8",
        "--trust-remote-code",
        "--speculative-algorithm",
        "EAGLE3",
        "--speculative-draft-model-path",
        "/models/Kimi-K2.6-EAGLE3",
        "--speculative-num-draft-tokens",
        "3",
        "--speculative-eagle-topk",
        "4",
        "--host",
        "0.0.0.0",
        "--port",
        "30001",
    ]
    assert cfg.base.env_dict() == {"NCCL_PROTO": "LL", "NCCL_ALGO": "Ring"}
    assert cfg.search.max_time == 7200
    assert cfg.search.pinned == ("model-path", "tp", "speculative-algorithm", "speculative-draft-model-path")
    assert cfg.gates.bench_min_tokens_per_s == 26.3
    assert cfg.unit == "sglang-k26-eagle3"


def test_defaults_for_everything_but_args() -> None:
    """Only launch.args is required; the rest takes documented defaults."""
    cfg = parse_base(MINIMAL, source="m.yaml", default_name="m")
    assert cfg.host == "local"
    assert cfg.service.manager == "systemd"
    assert cfg.launch.module == "sglang.launch_server"
    assert cfg.gates.ready_timeout == 900
    assert cfg.search.max_attempts == 12


def test_false_and_null_mean_absent_and_lists_take_several_values() -> None:
    """false/null drop a flag, true is bare, a list is several values."""
    cfg = parse_base(
        "launch:\n  args:\n    a: false\n    b: null\n    c: true\n    return-aux-hidden-state-layer-ids: [2, 16, 29]\n"
    )
    assert cfg.base.argv() == ["--c", "--return-aux-hidden-state-layer-ids", "2", "16", "29"]


def test_flag_spellings_of_the_users_command_are_kept() -> None:
    """A base takes the flags as the user's command spelled them, so the repair can fix
    them: underscores, capitals, extra or split dashes, glued flags reach argv as typed."""
    cfg = parse_base(
        "launch:\n  args:\n    reasoning_parser: kimi_k2\n    ---page-size: 16\n    '- -trust-remote-code': true\n"
        "    Enable-Metrics: true\n    tp-size--ep-size: true\n    --tp: 8\n"
    )
    assert cfg.base.argv() == [
        "--reasoning_parser", "kimi_k2", "---page-size", "16", "-", "-trust-remote-code",
        "--Enable-Metrics", "--tp-size--ep-size", "--tp", "8",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("launch:\n  args: {m: 1}\nhots: sim\n", "hots", "did you mean host"),
        ("launch:\n  args: {m: 1}\n  pyhton: /x\n", "launch.pyhton", "did you mean launch.python"),
        ("launch:\n  args:\n    'bad;rm': 1\n", "launch.args.bad;rm", "letters, digits"),
        ("launch:\n  args:\n    tp=8: true\n", "launch.args.tp=8", "not 'flag=value'"),
        ("launch:\n  args:\n    'a b c': 1\n", "launch.args.a b c", "no spaces"),
        ('launch:\n  args:\n    x: "a\\nb"\n', "launch.args.x", "one line"),
        ("launch:\n  args:\n    x: --evil\n", "launch.args.x", "read as a flag"),
        ("launch:\n  args: {m: 1}\n  env: {'1BAD': x}\n", "launch.env.1BAD", "environment names"),
        ("launch:\n  args: {m: 1}\nsearch: {max_time: soon}\n", "search.max_time", "duration"),
        ("launch:\n  args: {m: 1}\nsearch: {max_attempts: 0}\n", "search.max_attempts", "positive"),
        ("launch:\n  args: {m: 1}\nservice: {manager: upstart}\n", "service.manager", "systemd, process"),
        ("launch:\n  args: {m: 1}\nhost: 'a b'\n", "host", "sim, local"),
        ("launch:\n  python: 'python; rm -rf /'\n  args: {m: 1}\n", "launch.python", "no spaces"),
        ("launch: {}\n", "launch.args", "required"),
        ("launch:\n  args: {m: 1}\n  env_files: /etc/x.env\n", "launch.env_files", "must be a list"),
        ("launch:\n  args: {m: 1}\n  env_files: [etc/x.env]\n", "launch.env_files[0]", "absolute path"),
        ("launch:\n  args: {m: 1}\n  env_files: ['/etc/%n.env']\n", "launch.env_files[0]", "letters, digits"),
    ],
)
def test_bad_input_names_file_and_key(text: str, key: str, words: str) -> None:
    """Each kind of bad input is refused with the file, the key path and what is wrong."""
    with pytest.raises(ConfigError) as info:
        parse_base(text, source="bad.yaml")
    message = str(info.value)
    assert message.startswith(f"bad.yaml: {key}: ")
    assert words in message
    assert "\n" not in message


def test_duplicate_keys_and_broken_yaml_are_refused() -> None:
    """A key written twice, or YAML that does not parse, is an error with a position."""
    with pytest.raises(ConfigError, match="appears twice"):
        parse_base("launch:\n  args: {m: 1}\nhost: a\nhost: b\n", source="d.yaml")
    with pytest.raises(ConfigError, match=r"d\.yaml: not valid YAML at line 3, column 1"):
        parse_base("launch:\n  args: [\n", source="d.yaml")


def test_missing_file(tmp_path: Path) -> None:
    """A path that does not exist is named in the error."""
    with pytest.raises(ConfigError, match=r"nope\.yaml: no such file"):
        load_base(tmp_path / "nope.yaml")


@pytest.mark.parametrize(
    ("text", "seconds"), [("2h", 7200), ("90m", 5400), ("1h30m", 5400), ("45", 45), ("2.5h", 9000)]
)
def test_durations(text: str, seconds: float) -> None:
    """Durations accept seconds and h/m/s forms."""
    assert parse_duration(text) == seconds


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("launch:\n  args: {m: 1}\n  env: " + "[" * 3000 + "]" * 3000 + "\n", "nested more than 64 levels deep"),
        ("launch:\n  args: {m: " + "9" * 4301 + "}\n", "a number of 4301 digits"),
        ('launch:\n  args: {m: "\\ud800"}\n', "launch.args.m: holds \\ud800"),
        ('launch:\n  args: {m: 1}\n  env: {E: "a\\uFDD0"}\n', "launch.env.E: holds \\ufdd0"),
        ('launch:\n  args: {"\\ud800x": 1}\n', "launch.args.\\ud800x"),
        ("launch:\n  args: {m: &a [1, 2]}\n  env: {E: *a}\n", "launch.env.E: must be a string or a number"),
    ],
)
def test_hostile_yaml_is_refused_in_one_line(text: str, words: str) -> None:
    """Nesting that would exhaust the stack, integers past Python's 4,300-digit limit,
    lone surrogates and Unicode noncharacters (they cannot reach a process through a unit):
    one line naming file and key, never a traceback."""
    with pytest.raises(ConfigError) as info:
        parse_base(text, source="h.yaml")
    message = str(info.value)
    assert message.startswith("h.yaml: ") and words in message and "\n" not in message
    message.encode("utf-8")  # printable as it is: no lone surrogate in the message itself


def test_base_configs_over_1_mb_are_refused(tmp_path: Path) -> None:
    """A base config is a page of YAML: more than 1 MB is refused before it is parsed."""
    path = tmp_path / "big.yaml"
    path.write_text(MINIMAL + "# " + "x" * (1 << 20) + "\n")
    with pytest.raises(ConfigError, match=r"big\.yaml: .*1\.0 MB.* at most 1 MB"):
        load_base(path)
    with pytest.raises(ConfigError, match="at most 1 MB"):
        parse_base(path.read_text(), source="big.yaml")


def test_merge_keys_work_and_explicit_keys_win() -> None:
    """YAML merge keys (<<:) for shared blocks: merged in, the mapping's own keys win, a
    key written twice in the mapping itself is still refused."""
    text = (
        "launch:\n  args:\n    <<: {model-path: /m, tp: 4}\n    tp: 8\n"
        "  env:\n    <<: [{A: '1'}, {B: '2'}]\n    C: '3'\n"
    )
    config = parse_base(text, source="m.yaml")
    assert config.base.args_dict() == {"model-path": "/m", "tp": "8"}
    assert config.base.env_dict() == {"A": "1", "B": "2", "C": "3"}
    with pytest.raises(ConfigError, match="appears twice"):
        parse_base("launch:\n  args:\n    <<: {m: 1}\n    tp: 8\n    tp: 4\n", source="m.yaml")


def test_an_unexpanded_shell_variable_is_named_as_one() -> None:
    """`--tp-size $TP` copied from a script: the load error says the shell never filled it
    in (there is no value to repair toward), naming the key."""
    text = MINIMAL.replace("args:", "args:\n    tp: $TP", 1)
    with pytest.raises(ConfigError, match=r"launch\.args\.tp: .*got '\$TP': an unexpanded shell variable"):
        parse_base(text, source="m.yaml", default_name="m")


@pytest.mark.parametrize("flag", ["tp\n", "0\n", "page-size\n"])
def test_a_flag_name_ending_in_a_newline_is_refused(flag: str) -> None:
    """A regex's $ matches before a final newline: names are checked to their very end, so
    a newline never reaches an argv, a unit file or a shell (found by test_properties)."""
    text = MINIMAL.replace("args:", f"args:\n    {flag!r}: 1".replace("'", '"'), 1)
    with pytest.raises(ConfigError, match="flag names are"):
        parse_base(text, source="m.yaml", default_name="m")


def test_a_switch_under_a_number_flags_prefix_that_names_a_switch_is_the_searchs() -> None:
    """Round 44m, written before the change (0.4.10.post2-ninth's command): --torch-compile
    given as a switch is, to argparse, a prefix of --torch-compile-max-bs (which takes a
    number), and to its user --enable-torch-compile: the base takes the spelling as written
    so that the search renames it. A bare --tp (a switch where only numbers fit, and no
    switch of that name) is still refused at load: a size that counts the GPUs is no value
    a search should guess. Round 47g, written before the change: any other number flag
    given no value (an unset variable's place, an old switch's spelling) is the search's
    (argparse's "expected one argument" is read there)."""
    text = MINIMAL.replace("args:", "args:\n    torch-compile: true", 1)
    assert parse_base(text, source="m.yaml", default_name="m").base.arg("torch-compile") is True
    with pytest.raises(ConfigError, match=r"launch\.args\.tp: must be an integer"):
        parse_base(MINIMAL.replace("args:", "args:\n    tp: true", 1), source="m.yaml", default_name="m")
    bare = parse_base(MINIMAL.replace("args:", "args:\n    attn-dp-size: true", 1), source="m.yaml", default_name="m")
    assert bare.base.arg("attn-dp-size") is True
