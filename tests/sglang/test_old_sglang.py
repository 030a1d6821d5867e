"""Preflight and repair against OLDER real SGLang releases (tools/sglang-old-cpu-env.sh).

Real hosts run what they installed months ago. 0.5.11 holds the seed's assertion (the
nearest release to the seed's server_args.py line 3598: line 3521, in
_handle_speculative_decoding, raised from ServerArgs.__post_init__); 0.4.10.post2
validates in __post_init__ and has no resolve_once. .ci/run builds the 0.5.11 env (about
6.7 GB, minutes, once per machine), so under CI=true a missing 0.5.11 env is a failure;
0.4.10.post2 is not built by CI: its tests run where the env was built by hand
(`SGLANG_VERSION=0.4.10.post2 bash tools/sglang-old-cpu-env.sh`) and are skipped elsewhere.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from autofix.catalog import load_catalog
from autofix.hosts.local import LocalHost
from autofix.model import Candidate
from autofix.preflight import Preflight
from autofix.targets import Target
from bench.out_of_sample import load_set, search_cases

from .test_real_sglang import autofix, seed_base

pytestmark = [pytest.mark.sglang, pytest.mark.integration]

CI_BUILDS = ("0.5.11",)  # the older envs .ci/run builds


def old_python(version: str) -> str:
    """The env's python; missing: skipped with how to build it, or (CI builds it) a failure."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    python = cache / "autofix" / f"sglang-{version}-cpu" / "bin" / "python"
    if python.exists():
        return str(python)
    reason = f"no SGLang {version} CPU env at {python} (SGLANG_VERSION={version} bash tools/sglang-old-cpu-env.sh)"
    if os.environ.get("CI") == "true" and version in CI_BUILDS:
        pytest.fail(f"{reason}: .ci/run builds it")
    pytest.skip(reason)


def test_seed_end_to_end_on_0511_with_preflight(tmp_path: Path) -> None:
    """The seed's base on the release with the seed's assertion: the bare AssertionError in
    _handle_speculative_decoding is the seed's class, and the search repairs it keeping
    topk and draft tokens (num-steps = draft tokens - 1), with no GPU launch."""
    python = old_python("0.5.11")
    base = yaml.safe_load(seed_base(python))
    base["service"]["unit"] = f"sglang-seed-0511-{os.getpid()}"
    (tmp_path / "seed.yaml").write_text(yaml.safe_dump(base, sort_keys=False))
    done = autofix("search", "--base", "seed.yaml", "--host", "local", "--gates", "preflight", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "passed" and result["launches"] == 0
    assert result["winner"]["args"]["speculative-num-steps"] == "2"
    assert result["winner"]["args"]["speculative-eagle-topk"] == "4"
    history = json.loads(autofix("history", str(result["run"]), "--json", cwd=tmp_path).stdout)
    first = history["attempts"][0]
    assert first["exception"] == "AssertionError" and first["class"] == "spec-eagle-params-incomplete"
    shown = autofix("show", str(first["id"]), cwd=tmp_path).stdout
    assert 'server_args.py", line 3521, in _handle_speculative_decoding' in shown
    assert "__post_init__" in shown


@pytest.mark.parametrize("version", ["0.5.11", "0.4.10.post2"])
def test_probe_reads_the_old_parser(version: str) -> None:
    """The probe reports the installed release, the steps it has (no resolve_once: these
    validate in __post_init__), and its parser's facts:
    flags, kinds, choices, aliases (facts and renames follow the host, not 0.5.23)."""
    python = old_python(version)
    preflight = Preflight(LocalHost(), Target("sglang", python, "sglang.launch_server"))
    try:
        info = preflight.start()
    finally:
        preflight.close()
    assert info.version == version
    assert info.steps[0] == "prepare_server_args"
    assert "resolve_once" not in info.steps  # validation lives in __post_init__ in both
    flags = info.parser["flags"]
    assert len(flags) > 150 and flags["tp-size"]["type"] == "int"
    assert "choices" in flags["attention-backend"]
    host = load_catalog().with_parser(info.parser, info.version)
    assert host.canonical("tp") == "tp-size" and host.flags_from == f"host parser {version}"


@pytest.mark.parametrize("version", ["0.5.11", "0.4.10.post2"])
def test_fresh_argument_failures_are_repaired_on_old_releases(version: str) -> None:
    """A sample of the frozen fresh cases (bench/fresh), searched with preflight on the old
    release: each that fails there reaches PASS within its minimal chain + 1 attempts."""
    python = old_python(version)
    wanted = {"val-base-gpu-id-negative", "argparse-tp-size-not-int", "val-moe-dense-tp-size-two"}
    cases = [c for c in load_set("sglang-0.5.23") if c["id"] in wanted]
    cases += [c for c in load_set("spellings") if c["id"] in ("spell-split-dash", "spell-glued-flags")]
    results, got = search_cases(cases, python, load_catalog())
    assert got == version
    failing = [r for r in results if r.failed_first]
    assert len(failing) >= 3
    for r in failing:
        assert r.passed and r.attempts <= r.budget, r


@pytest.mark.parametrize("version", ["0.5.11", "0.4.10.post2"])
def test_a_refusal_after_the_record_resolved_itself_reports_what_it_resolved(version: str) -> None:
    """Round 42j, written before the change: these releases resolve the record as they build
    it (FlashMLA forces 64-token pages in __post_init__), then check_server_args refuses a
    10000-token chunk. What the user gave is what the parser read; the page size SGLang
    chose is reported as resolved, so the repair can make the chunk a multiple of it."""
    python = old_python(version)
    preflight = Preflight(LocalHost(), Target("sglang", python, "sglang.launch_server"))
    models = Path(__file__).resolve().parents[1] / "data" / "models"
    argv = {"device": "cpu", "model-path": str(models / "k26"), "tp-size": "8", "trust-remote-code": True}
    try:
        preflight.start()
        argv |= {"attention-backend": "flashmla", "chunked-prefill-size": "10000"}
        result = preflight.check(Candidate.build(argv), 120)
    finally:
        preflight.close()
    assert not result.ok and "chunked_prefill_size must be divisible by page_size" in result.output
    assert result.resolved.get("page_size") == 64
    assert "chunked_prefill_size" not in result.resolved  # the user's own value
