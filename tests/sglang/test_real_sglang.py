"""Preflight against the REAL SGLang 0.5.23 (CPU env from tools/sglang-cpu-env.sh).

The env is built once (about 2 min, 6.7 GB) and cached outside the checkout
(~/.cache/autofix/sglang-0.5.23-cpu); later runs reuse it. Marked ``sglang``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from autofix.catalog import load_catalog
from bench.captures import MODELS, load_cases
from bench.captures_search import run_all

from ..conftest import ROOT

pytestmark = [pytest.mark.sglang, pytest.mark.integration]


@pytest.fixture(scope="session")
def sglang_python() -> str:
    """The real SGLang's python, built or reused through the script."""
    done = subprocess.run(
        ["bash", str(ROOT / "tools" / "sglang-cpu-env.sh")], capture_output=True, text=True, timeout=1800, check=False
    )
    assert done.returncode == 0, f"tools/sglang-cpu-env.sh failed:\n{done.stderr[-3000:]}"
    return done.stdout.strip().splitlines()[-1]


def autofix(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("AUTOFIX_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "autofix.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def seed_base(python: str, **overrides: Any) -> str:
    """DESIGN.md's base with device cpu and the fixture model paths."""
    data = yaml.safe_load((ROOT / "examples" / "k26-eagle3.yaml").read_text())
    data["host"] = "local"
    data["launch"]["python"] = python
    args = data["launch"]["args"]
    args.update(
        {"device": "cpu", "model-path": str(MODELS / "k26"), "speculative-draft-model-path": str(MODELS / "eagle3")}
    )
    args.update(overrides)
    data["gates"].pop("bench")
    return yaml.safe_dump(data, sort_keys=False)


def test_seed_chain_reaches_a_passing_config(tmp_path: Path, sglang_python: str) -> None:
    """The seed's base fails SGLang's real bare assert, and the search repairs it."""
    (tmp_path / "seed.yaml").write_text(seed_base(sglang_python))
    done = autofix("search", "--base", "seed.yaml", "--host", "local", "--gates", "preflight", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "passed" and result["launches"] == 0
    attempts = json.loads(autofix("history", str(result["run"]), "--json", cwd=tmp_path).stdout)["attempts"]
    assert attempts[0]["class"] == "spec-eagle-params-incomplete"
    assert attempts[0]["exception"] == "AssertionError"
    assert "speculative-num-steps" in result["winner"]["args"]
    # What SGLang resolved is kept per attempt.
    assert attempts[-1]["resolved"]["speculative_num_steps"] == int(result["winner"]["args"]["speculative-num-steps"])


def test_history_shows_sglang_silently_rewriting_draft_tokens(tmp_path: Path, sglang_python: str) -> None:
    """steps 1, topk 1, draft tokens 3: SGLang passes it but makes draft tokens 2; history says so."""
    base = seed_base(sglang_python, **{"speculative-num-steps": 1, "speculative-eagle-topk": 1})
    (tmp_path / "rewrite.yaml").write_text(base)
    done = autofix(
        "search", "--base", "rewrite.yaml", "--host", "local", "--gates", "preflight", "--json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout.strip().splitlines()[-1])["run"]
    attempt = json.loads(autofix("history", str(run), "--json", cwd=tmp_path).stdout)["attempts"][0]
    assert attempt["resolved"]["__changed__"]["speculative_num_draft_tokens"] == [3, 2]
    table = autofix("history", str(run), cwd=tmp_path).stdout
    assert "speculative_num_draft_tokens 3->2" in table


def test_no_sglang_in_the_python_is_a_clear_host_error(tmp_path: Path) -> None:
    """A launch.python without SGLang fails with one line and exit 3, not a traceback."""
    data = yaml.safe_load(seed_base(sys.executable))
    (tmp_path / "nosglang.yaml").write_text(yaml.safe_dump(data))
    done = autofix("search", "--base", "nosglang.yaml", "--host", "local", "--gates", "preflight", cwd=tmp_path)
    assert done.returncode == 3
    assert "cannot import SGLang" in done.stderr and "Traceback" not in done.stderr


def test_every_real_capture_is_searched_to_a_pass(sglang_python: str) -> None:
    """One preflight search per real capture: >= 90 % reach PASS, mean attempts within chain + 2."""
    from autofix import logs

    logs.configure()
    results, _ = run_all(sglang_python, load_catalog(), load_cases())
    passed = [r for r in results if r.passed]
    assert len(passed) / len(results) >= 0.9, [r.case for r in results if not r.passed]
    mean_attempts = sum(r.attempts for r in passed) / len(passed)
    mean_budget = sum(r.budget for r in passed) / len(passed)
    assert mean_attempts <= mean_budget


PARSER_DUMP = """
import argparse, json
from sglang.srt.server_args import ServerArgs
parser = argparse.ArgumentParser()
ServerArgs.add_cli_args(parser)
print(json.dumps([
    {"option_strings": a.option_strings, "help": a.help or "", "cls": type(a).__name__,
     "type": getattr(a.type, "__name__", None) if a.type else None, "choices": list(a.choices) if a.choices else None,
     "nargs": a.nargs}
    for a in parser._actions
]))
"""


def test_secret_facts_match_the_real_parser(sglang_python: str) -> None:
    """strategies/sglang.flags.json marks as secret exactly the text-valued flags whose
    help in the real 0.5.23 parser says they hold a key, token, secret or password."""
    from autofix.secrets import documents_a_secret, flag_takes_text, known_secret_flags

    done = subprocess.run([sglang_python, "-c", PARSER_DUMP], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    documented = set()
    for action in json.loads(done.stdout.strip().splitlines()[-1]):
        longs = [o for o in action["option_strings"] if o.startswith("--")]
        if longs and flag_takes_text(action) and documents_a_secret(action["help"]):
            documented.add(max(longs, key=len)[2:])
    assert documented == known_secret_flags()


def test_a_refused_value_sglang_resolved_is_reported_and_repaired(sglang_python: str) -> None:
    """Qwen3-Next on this CPU host: the Mamba cache strategy the user left on auto resolves
    to one this platform cannot snapshot, and the check refuses it. The probe reports the
    resolved value with the failure, and the first repair sets the strategy explicitly."""
    from autofix.catalog import load_catalog
    from autofix.classify import classify
    from autofix.hosts.local import LocalHost
    from autofix.model import Candidate, Gate
    from autofix.preflight import Preflight
    from autofix.repair import propose
    from autofix.targets import Target
    from autofix.tracebacks import parse_text

    preflight = Preflight(LocalHost(), Target("sglang", sglang_python, "sglang.launch_server"))
    info = preflight.start()
    try:
        candidate = Candidate.build({"device": "cpu", "model-path": str(MODELS / "qwen3-next-80b-a3b"), "tp": "2"})
        answer = preflight.check(candidate, 120)
    finally:
        preflight.close()
    assert not answer.ok
    assert answer.resolved.get("mamba_radix_cache_strategy") not in (None, "auto")
    catalog = load_catalog().with_parser(info.parser, info.version)
    diagnosis = classify(parse_text(answer.output), catalog, Gate.PREFLIGHT)
    first = propose(candidate, diagnosis, catalog, pinned=("model-path", "device"), resolved=answer.resolved)[0]
    assert first.move.label().startswith("set mamba-radix-cache-strategy=")


def test_the_failing_file_is_read_also_where_a_class_matched_but_had_nothing(
    tmp_path: Path, sglang_python: str
) -> None:
    """Issue 14 round 36j, written before the change: EPLB at TP 8 with the Cutlass FP8 MoE
    runner; EP 8 (what EPLB needs) then meets 'FP8/MXFP8 Cutlass MoE is only supported with
    ep_size == 1', a message a backend class matches with no move that applies (no attention
    backend is set). The search must still read the failing file (the runner is the branch's
    test) and drop the runner on that line, keeping EPLB and EP 8, in three attempts."""
    data = {
        "name": "eplb-cutlass",
        "host": "local",
        "service": {"unit": "sglang-eplb-cutlass"},
        "launch": {
            "python": sglang_python,
            "args": {
                "device": "cpu",
                "model-path": str(MODELS / "qwen3-30b-a3b"),
                "tp-size": 8,
                "quantization": "fp8",
                "moe-runner-backend": "cutlass",
                "enable-eplb": True,
                "ep-num-redundant-experts": 16,
            },
        },
        "gates": {"preflight": {"timeout": 120}},
        "search": {"max_attempts": 8, "pinned": ["model-path", "device"]},
    }
    (tmp_path / "eplb.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    done = autofix("search", "--base", "eplb.yaml", "--gates", "preflight", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    winner = result["winner"]["args"]
    assert result["status"] == "passed" and winner.get("enable-eplb") is True and str(winner.get("ep-size")) == "8"
    assert "moe-runner-backend" not in winner
    attempts = json.loads(autofix("history", str(result["run"]), "--json", cwd=tmp_path).stdout)["attempts"]
    assert len(attempts) <= 3


def test_the_candidates_environment_reaches_the_validation(sglang_python: str) -> None:
    """Round 46h, written before the change: SGLang's validation reads SGLANG_* variables
    while it checks (0.5.23's FlashInfer all-to-all token budget reads its capacity from
    one); the launch sets the candidate's environment, so the preflight must too, or it
    passes a config the launch then refuses. The same argv passes with the capacity sized
    from its chunk, and fails with the variable set below the chunk each DP rank gets
    (8192 over attention DP 8: 1024)."""
    from autofix.hosts.local import LocalHost
    from autofix.model import Candidate
    from autofix.preflight import Preflight
    from autofix.targets import Target

    args = {
        "device": "cpu",
        "model-path": str(MODELS / "k26"),
        "trust-remote-code": True,
        "tp-size": "8",
        "ep-size": "8",
        "attn-dp-size": "8",
        "moe-a2a-backend": "flashinfer",
        "moe-runner-backend": "flashinfer_cutlass",
        "chunked-prefill-size": "8192",
    }
    preflight = Preflight(LocalHost(), Target("sglang", sglang_python, "sglang.launch_server"))
    preflight.start()
    try:
        without = preflight.check(Candidate.build(args), 120)
        small = Candidate.build(args).with_env("SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK", "512")
        with_env = preflight.check(small, 120)
    finally:
        preflight.close()
    assert without.ok, without.output[-2000:]
    assert not with_env.ok and "token budget" in with_env.output
