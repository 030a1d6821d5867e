"""Capture real SGLang 0.5.23 resolution results for the simulator's parity test.

Run once, with the real CPU environment's Python (see shared/tools/sglang-cpu-env.sh):

    ~/.cache/autofix/sglang-0.5.23-cpu/bin/python tests/data/sim/tools/capture_real.py

Every case runs the real ``prepare_server_args -> resolve_once -> check_server_args`` with
the simulated host's platform facts installed through SGLang's own
``runtime_context.override_platform`` (CUDA, SM120 RTX PRO 6000 Blackwell, FlashInfer) and
its 96 GB memory capacity, and ``--device cuda``. Writes tests/data/sim/parity.json.
"""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(DATA, "..", "..", "sim"))

from parity_harness import normalize, run_case  # noqa: E402

MODELS = os.path.join(DATA, "models")
FILES = os.path.join(DATA, "files")
SM120 = {
    "is_cuda": True,
    "is_hip": False,
    "is_npu": False,
    "is_xpu": False,
    "is_musa": False,
    "is_mps": False,
    "is_sm90": False,
    "is_sm100": False,
    "is_sm100_or_sm110": False,
    "is_sm110": False,
    "is_sm120": True,
    "is_blackwell": True,
    "is_hopper_with_cuda_12_3": False,
    "has_amx": False,
    "has_flashinfer": True,
    "device_sm": 120,
    "device_capability": (12, 0),
}
GPU_MEM_MIB = 97887  # one RTX PRO 6000 Blackwell Server Edition (96 GB)


def main() -> int:
    with open(os.path.join(HERE, "parity_cases.json")) as f:
        cases = json.load(f)
    import sglang.srt.arg_groups.memory_hook as memory_hook
    from sglang.srt.runtime_context import override_platform
    from sglang.version import __version__

    memory_hook.get_device_memory_capacity = lambda device=None: GPU_MEM_MIB
    override_platform(**SM120).install()
    subs = {MODELS: "{models}", FILES: "{files}"}
    out = []
    for case in cases:
        argv = [a.replace("{models}", MODELS).replace("{files}", FILES) for a in case["argv"]]
        result = run_case(argv)
        record = {
            "id": case["id"],
            "argv": case["argv"],
            "ok": result["ok"],
            "stage": result.get("stage"),
            "exception_type": result.get("exception_type"),
            "message": (result.get("message") or "").replace(MODELS, "{models}").replace(FILES, "{files}"),
            "resolved": result.get("resolved"),
            "output": normalize(result["output"], subs),
        }
        out.append(record)
        print(case["id"], record["ok"], record["exception_type"], record["message"][:100])
    payload = {
        "sglang_version": __version__,
        "captured_with": "real SGLang CPU env + override_platform(SM120) + 97887 MiB GPU memory",
        "cases": out,
    }
    with open(os.path.join(DATA, "parity.json"), "w") as f:
        json.dump(payload, f, indent=1, default=repr)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
