# SPDX-License-Identifier: Apache-2.0
"""Server-argument resolution for MoE kernels (simulated subset)."""

from typing import Any

from sglang.srt.arg_groups.overrides import (
    _moe_runner_backend_quant_constraints,
    resolved_view,
    resolving_view,
    run_post_process_pass,
)


def handle_moe_kernel_config(server_args: Any):
    # The quantization-driven runner resolutions moved to the pipeline
    # (arg_groups/overrides.py: _moe_runner_backend_quant_constraints);
    # the compatibility asserts and fusion writes stay below.

    cfg = resolving_view(server_args)

    run_post_process_pass(server_args, _moe_runner_backend_quant_constraints)

    view = resolved_view(server_args)
    if view.moe_runner_backend == "flashinfer_cutlass":
        assert view.quantization in [
            "modelopt_fp4",
            "modelopt_fp8",
            "modelopt_mixed",
            None,
        ], (
            f"Invalid quantization '{view.quantization}'. \nFlashInfer Cutlass MOE supports only: 'modelopt_fp4', 'modelopt_fp8', 'modelopt_mixed', or bfloat16 (None)."
        )
        assert view.ep_size in [
            1,
            cfg.tp_size,
        ], "The expert parallel size must be 1 or the same as the tensor parallel size"
