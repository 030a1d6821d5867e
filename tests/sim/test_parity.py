"""Parity: the simulator prints what the real SGLang 0.5.23 printed for the same argv.

tests/data/sim/parity.json was captured once from the real code (CPU env with the sim host's
SM120 platform facts, see tests/data/sim/tools/capture_real.py). Each case compares outcome,
exception type, message, resolved values and the whole normalised output: log lines,
traceback frames (file, function, source line, carets; SGLang line numbers aside) and chains.
The simulator runs in AUTOFIX_SIM_STRICT_SM120=1 mode, its real-SM120 behaviour.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from parity_harness import normalize
from sim_helpers import DATA, FILES, MODELS, preflight

pytestmark = pytest.mark.integration

PARITY = json.loads((DATA / "parity.json").read_text())
CASES = {case["id"]: case for case in PARITY["cases"]}


def _argv(case: dict[str, Any]) -> list[str]:
    return [a.replace("{models}", str(MODELS)).replace("{files}", str(FILES)) for a in case["argv"]]


@pytest.fixture(scope="module")
def sim_results() -> dict[str, dict[str, Any]]:
    results = preflight([_argv(c) for c in CASES.values()], AUTOFIX_SIM_STRICT_SM120="1")
    return dict(zip(CASES, results, strict=True))


def test_parity_file_covers_the_modelled_gates() -> None:
    """The recorded real captures cover the gates the simulator models, failing and passing."""
    assert PARITY["sglang_version"] == "0.5.23"
    failing = [c for c in CASES.values() if not c["ok"]]
    assert len(failing) >= 40
    assert len(CASES) - len(failing) >= 8
    assert {c["exception_type"] for c in failing} >= {
        "AssertionError",
        "ValueError",
        "TypeError",
        "OSError",
        "NotImplementedError",
        "ZeroDivisionError",
        "SystemExit",
    }


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_sim_matches_real(case_id: str, sim_results: dict[str, dict[str, Any]]) -> None:
    """The simulator's outcome, message, logs and traceback equal the real capture."""
    real = CASES[case_id]
    sim = sim_results[case_id]
    subs = {str(MODELS): "{models}", str(FILES): "{files}"}
    assert sim["ok"] == real["ok"]
    assert sim.get("exception_type") == real["exception_type"]
    message = (sim.get("message") or "").replace(str(MODELS), "{models}").replace(str(FILES), "{files}")
    assert message == real["message"]
    assert normalize(sim["output"], subs) == real["output"]
    if real["ok"]:
        assert sim["resolved"] == real["resolved"]
