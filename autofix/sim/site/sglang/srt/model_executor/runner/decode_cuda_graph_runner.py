"""Run the model with CUDA graph (simulated capture: memory and time)."""

import logging
import time

from sglang.srt._sim import torch_sim as torch
from sglang.srt.model_executor.runner_backend_utils import CUDA_GRAPH_CAPTURE_FAILED_MSG

logger = logging.getLogger(__name__)


class DecodeCudaGraphRunner:
    """A DecodeCudaGraphRunner runs the forward pass of a model with cuda graph and torch.compile."""

    def __init__(self, model_runner):
        self.model_runner = model_runner
        self.capture_bs = list(model_runner.capture_bs)
        self.num_tokens_per_bs = model_runner.decode_num_tokens_per_req()

        # --- capture --------------------------------------------------
        try:
            self.capture()
        except RuntimeError as e:
            raise Exception(
                f"Capture cuda graph failed: {e}\n{CUDA_GRAPH_CAPTURE_FAILED_MSG}"
            )

    def capture(self) -> None:
        plan = self.model_runner.sim_graph_plan
        per_bs = plan["bytes"] / max(1, len(self.capture_bs))
        delay = plan["seconds"] / max(1, len(self.capture_bs))
        for bs in reversed(self.capture_bs):
            self.capture_one_batch_size(bs, per_bs)
            time.sleep(delay)

    def capture_one_batch_size(self, bs: int, nbytes: float):
        # Graph-private pool for this batch size (activations of one forward).
        buffers = torch.empty(
            max(1, int(nbytes // 2)),
            dtype=torch.bfloat16,
        )
        return buffers

