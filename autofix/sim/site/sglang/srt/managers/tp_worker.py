"""A tensor parallel worker (simulated subset)."""

import logging

from sglang.srt.configs.model_config import ModelConfig

logger = logging.getLogger(__name__)


class TpModelWorker:
    """A tensor parallel model worker."""

    def __init__(
        self,
        server_args,
        resolved,
        gpu_id: int,
        tp_rank: int,
        nccl_port: int,
        is_draft_worker: bool = False,
        load_seconds: float = 0.0,
    ):
        # Parse args
        self.server_args = server_args
        self.resolved = resolved
        self.gpu_id = gpu_id
        self.tp_rank = tp_rank
        self.nccl_port = nccl_port
        self.is_draft_worker = is_draft_worker
        self.load_seconds = load_seconds
        model_path = (
            resolved.speculative_draft_model_path if is_draft_worker else resolved.model_path
        )
        self.model_config = ModelConfig.from_server_args(
            server_args,
            model_path=model_path,
        )
        self._init_model_runner()

    def _init_model_runner(self):
        from sglang.srt.model_executor.model_runner import ModelRunner

        self._model_runner = ModelRunner(
            model_config=self.model_config,
            mem_fraction_static=self.resolved.mem_fraction_static,
            gpu_id=self.gpu_id,
            tp_rank=self.tp_rank,
            tp_size=self.resolved.tp_size,
            nccl_port=self.nccl_port,
            server_args=self.server_args,
            resolved=self.resolved,
            is_draft_worker=self.is_draft_worker,
            load_seconds=self.load_seconds,
        )

    def forward_batch_generation(self, model_worker_batch, sim_oom=False):
        return self.model_runner.forward(model_worker_batch, sim_oom=sim_oom)

    @property
    def model_runner(self):
        return self._model_runner
