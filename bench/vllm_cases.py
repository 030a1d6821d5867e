"""The vLLM corpus (bench/corpus/vllm-0.33.0): its cases as candidates, base configs and fixes.

Shared by bench/vllm_capture.py (runs every case against the real vLLM and stores what it
said) and bench/vllm_search.py (searches each case with preflight alone).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import yaml

from autofix.model import Candidate, Edit, EditOp, Move, normalize_value

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "bench" / "corpus" / "vllm-0.33.0"
CASES = CORPUS / "cases.yaml"
CAPTURES = CORPUS / "captures.jsonl"
# Written after the engine's validation inference and frozen before any change to it.
HELDOUT = CORPUS / "heldout.yaml"
HELDOUT_CAPTURES = CORPUS / "heldout-captures.jsonl"
SPLITS = {"dev": (CASES, CAPTURES), "heldout": (HELDOUT, HELDOUT_CAPTURES)}
MODELS = ROOT / "tests" / "data" / "models"
# What the operator evidently wants kept in every case: the model.
PINNED = ("model",)
CPU_ENV = {"VLLM_TARGET_DEVICE": "cpu"}


def load_cases(split: str = "dev") -> list[dict[str, Any]]:
    data = yaml.safe_load(SPLITS[split][0].read_text(encoding="utf-8"))
    return [{**case, "split": split} for case in data["cases"]]


def load_captures(split: str = "dev") -> list[dict[str, Any]]:
    path = SPLITS[split][1]
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _models(value: Any, models: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{models}", str(models))
    if isinstance(value, dict):
        return {k: _models(v, models) for k, v in value.items()}
    if isinstance(value, list):
        return [_models(v, models) for v in value]
    return value


def case_args(case: dict[str, Any], models: Path = MODELS) -> dict[str, Any]:
    return {"model": str(models / case["model"]), **_models(case["args"], models)}


def base_candidate(case: dict[str, Any], models: Path = MODELS) -> Candidate:
    return Candidate.build(case_args(case, models), CPU_ENV)


def fix_move(case: dict[str, Any], models: Path = MODELS) -> Move:
    """The case's verified fix as one move (edits in order)."""
    edits: list[Edit] = []
    for item in _models(case["fix"], models):
        for op, body in item.items():
            if op == "drop":
                edits.append(Edit(EditOp.DROP, body))
            elif op == "set":
                edits += [Edit(EditOp.SET, f, normalize_value(v)) for f, v in body.items()]
            elif op == "drop_key":
                flag, _, key = body.partition(".")
                edits.append(Edit(EditOp.DROP_KEY, flag, key=key))
            elif op == "set_key":
                for target, v in body.items():
                    flag, _, key = target.partition(".")
                    edits.append(Edit(EditOp.SET_KEY, flag, tuple(v) if isinstance(v, list) else v, key=key))
            else:
                raise ValueError(f"{case['id']}: unknown fix op {op}")
    return Move(tuple(edits), origin="fix")


def base_yaml(case: dict[str, Any], python: str, models: Path = MODELS) -> str:
    """A base config for the case: the real vLLM's Python, the CPU platform, model pinned."""
    config = {
        "name": case["id"],
        "target": "vllm",
        "launch": {"python": python, "args": case_args(case, models), "env": CPU_ENV},
        "search": {"pinned": list(PINNED)},
    }
    return yaml.safe_dump(config, sort_keys=False)


def env_python() -> str:
    """The real vLLM CPU env (built once by tools/vllm-cpu-env.sh)."""
    done = subprocess.run(
        ["bash", str(ROOT / "tools" / "vllm-cpu-env.sh")],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ},
    )
    return done.stdout.strip().splitlines()[-1]
