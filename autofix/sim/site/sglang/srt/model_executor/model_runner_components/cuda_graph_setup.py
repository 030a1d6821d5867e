"""CUDA graph capture orchestration (simulated subset)."""

import logging
import time
from dataclasses import dataclass
from typing import Any

from sglang.srt.utils.common import get_available_gpu_memory

logger = logging.getLogger(__name__)


@dataclass
class GraphCapture:
    runner: Any
    memory_phase: str
    memory_usage_gb: float
    capture_time: float


def capture_decode_graph(*, model_runner) -> GraphCapture:
    """Capture device graphs."""
    from sglang.srt.model_executor.runner.decode_cuda_graph_runner import (
        DecodeCudaGraphRunner,
    )

    if model_runner.is_draft_worker:
        memory_phase = "draft_decode"
    elif model_runner.spec_algorithm is not None:
        memory_phase = "target_verify"
    else:
        memory_phase = "decode"
    if model_runner.decode_graph_disabled:
        return GraphCapture(runner=None, memory_phase=memory_phase, memory_usage_gb=0, capture_time=0)

    tic = time.perf_counter()
    before_mem = get_available_gpu_memory(model_runner.device, model_runner.gpu_id)
    role = "draft" if model_runner.is_draft_worker else "target"
    if model_runner.spec_algorithm is not None:
        capture_name = f"{role} verify"
        num_tokens_per_req = model_runner.decode_num_tokens_per_req()
    else:
        capture_name = f"{role} decode"
        num_tokens_per_req = 1
    decode_backend = model_runner.decode_graph_backend
    logger.info(
        f"Capture {capture_name} CUDA graph begin. "
        f"backend={decode_backend}, num_tokens_per_req={num_tokens_per_req}, "
        f"avail mem={before_mem:.2f} GB"
    )

    runner = DecodeCudaGraphRunner(model_runner)

    after_mem = get_available_gpu_memory(model_runner.device, model_runner.gpu_id)
    memory_usage_gb = before_mem - after_mem
    capture_time = time.perf_counter() - tic
    logger.info(
        f"Capture {capture_name} CUDA graph end. "
        f"bs={runner.capture_bs}, "
        f"elapsed={capture_time:.2f} s, "
        f"mem usage={memory_usage_gb:.2f} GB, avail mem={after_mem:.2f} GB."
    )
    return GraphCapture(
        runner=runner,
        memory_phase=memory_phase,
        memory_usage_gb=memory_usage_gb,
        capture_time=capture_time,
    )
