"""ModelRunner runs the forward passes of the models (simulated: memory and timing)."""

import logging
import time

from sglang.srt._sim import gpu_state
from sglang.srt._sim import torch_sim as torch
from sglang.srt.distributed import bootstrap
from sglang.srt.model_executor.model_runner_components.load_model_utils import (
    load_model_with_memory_saver,
)
from sglang.srt.model_executor.pool_configurator import MemoryPoolConfig
from sglang.srt.model_loader.loader import LoadConfig
from sglang.srt.utils.common import get_available_gpu_memory

logger = logging.getLogger(__name__)

GB = 1024**3


class ModelRunner:
    """ModelRunner runs the forward passes of the models."""

    def __init__(
        self,
        model_config,
        mem_fraction_static: float,
        gpu_id: int,
        tp_rank: int,
        tp_size: int,
        nccl_port: int,
        server_args,
        resolved,
        is_draft_worker: bool = False,
        load_seconds: float = 0.0,
    ):
        # Parse args
        self.model_config = model_config
        self.mem_fraction_static = mem_fraction_static
        self.device = resolved.device
        self.gpu_id = gpu_id
        self.tp_rank = tp_rank
        self.tp_size = tp_size
        self.server_args = server_args
        self.resolved = resolved
        self.is_draft_worker = is_draft_worker
        self.load_seconds = load_seconds
        self.spec_algorithm = resolved.speculative_algorithm
        self.use_mla_backend = model_config.attention_arch.name == "MLA"
        self.page_size = resolved.page_size or 1
        graph_cfg = resolved.cuda_graph_config
        self.decode_graph_backend = graph_cfg.decode.backend
        self.decode_graph_disabled = graph_cfg.decode.backend == "disabled"
        self.capture_bs = [
            bs for bs in (graph_cfg.decode.bs or [1]) if bs <= (graph_cfg.decode.max_bs or 1)
        ] or [1]
        if resolved.max_running_requests:
            self.capture_bs = [bs for bs in self.capture_bs if bs <= resolved.max_running_requests] or [1]

        # Model-specific adjustment
        self.init_torch_distributed()

        # Initialize the model runner
        self.initialize()

    def init_torch_distributed(self):
        self.pre_model_load_memory = bootstrap.measure_pre_model_load_memory(
            device=self.device, gpu_id=self.gpu_id, is_draft_worker=self.is_draft_worker
        )

    def initialize(self):
        self.load_model()
        self.configure_kv_cache_dtype()

    def configure_kv_cache_dtype(self):
        dtype = self.resolved.kv_cache_dtype
        self.kv_cache_dtype = {
            "fp8_e4m3": "torch.float8_e4m3fn",
            "fp8_e5m2": "torch.float8_e5m2",
        }.get(dtype, "torch.bfloat16")
        self.kv_dtype_bytes = 1 if dtype in ("fp8_e4m3", "fp8_e5m2", "mxfp8") else 2

    def load_model(self):
        tic_total = time.perf_counter()
        before_avail_memory = get_available_gpu_memory(self.device, self.gpu_id)
        logger.info(
            f"Load weight begin. avail mem={get_available_gpu_memory(self.device, self.gpu_id):.2f} GB"
        )

        self.load_config = LoadConfig(load_format=self.resolved.load_format)
        loaded = load_model_with_memory_saver(
            model_config=self.model_config,
            load_config=self.load_config,
            device=self.device,
            gpu_id=self.gpu_id,
            tp_size=self.tp_size,
            load_seconds=self.load_seconds,
            show_progress=self.tp_rank == 0,
            is_draft_worker=self.is_draft_worker,
        )
        self.model = loaded.model
        self.dtype = self.model_config.dtype

        after_avail_memory = get_available_gpu_memory(self.device, self.gpu_id)
        self.weight_load_mem_usage = before_avail_memory - after_avail_memory
        self.weight_load_time = time.perf_counter() - tic_total
        quant_str = self.model_config.get_quantization_config_log_str()

        logger.info(
            f"Load weight end. "
            f"elapsed={self.weight_load_time:.2f} s, "
            f"type={type(self.model).__name__}, "
            f"{quant_str + ', ' if quant_str else ''}"
            f"avail mem={after_avail_memory:.2f} GB, "
            f"mem usage={self.weight_load_mem_usage:.2f} GB."
        )

    def kv_cache_cell_size(self) -> int:
        return self.model_config.kv_bytes_per_token(self.tp_size, self.kv_dtype_bytes)

    def decode_num_tokens_per_req(self) -> int:
        if self.spec_algorithm is None:
            return 1
        if self.is_draft_worker:
            return self.resolved.speculative_eagle_topk or 1
        return self.resolved.speculative_num_draft_tokens or 1

    def init_memory_pool(self, total_cell_size: int, draft_runner=None):
        total_gpu_memory = gpu_state.total_gib()
        available_gpu_memory = get_available_gpu_memory(self.device, self.gpu_id)
        rest_memory = available_gpu_memory - total_gpu_memory * (
            1 - self.mem_fraction_static
        )
        max_total_num_tokens = int(rest_memory * GB // max(1, total_cell_size))
        max_total_num_tokens = max_total_num_tokens // self.page_size * self.page_size
        config = MemoryPoolConfig(
            max_total_num_tokens=max_total_num_tokens,
            max_running_requests=self.resolved.max_running_requests,
            mem_fraction_static=self.mem_fraction_static,
        )
        self.max_total_num_tokens = config.max_total_num_tokens
        own = self.kv_cache_cell_size()
        self._allocate_kv(self, own, config.max_total_num_tokens)
        if draft_runner is not None:
            self._allocate_kv(draft_runner, total_cell_size - own, config.max_total_num_tokens)
        logger.info(
            f"Memory pool end. "
            f"avail mem={get_available_gpu_memory(self.device, self.gpu_id):.2f} GB"
        )
        return config

    @staticmethod
    def _allocate_kv(runner, cell_size, num_tokens):
        kv_bytes = cell_size * num_tokens
        gpu_state.try_allocate(kv_bytes)
        kv_size_GB = kv_bytes / GB
        name = "Draft KV Cache" if runner.is_draft_worker else "KV Cache"
        if runner.use_mla_backend:
            logger.info(
                f"{name} is allocated. dtype: {runner.kv_cache_dtype}, "
                f"#tokens: {num_tokens}, KV size: {kv_size_GB:.2f} GB"
            )
        else:
            logger.info(
                f"{name} is allocated. dtype: {runner.kv_cache_dtype}, "
                f"#tokens: {num_tokens}, K size: {kv_size_GB / 2:.2f} GB, "
                f"V size: {kv_size_GB / 2:.2f} GB"
            )
        runner.kv_mem_usage = kv_size_GB

    def init_attention_backends(self):
        from sglang.srt.layers.attention.attention_registry import ATTENTION_BACKENDS

        backend_str = self.resolved.attention_backend
        self.attn_backend = self._get_attention_backend_from_str(backend_str)
        prefill = self.resolved.prefill_attention_backend
        decode = self.resolved.decode_attention_backend
        for name in (prefill, decode):
            if name and name != backend_str:
                self._get_attention_backend_from_str(name)
        _ = ATTENTION_BACKENDS

    def _get_attention_backend_from_str(self, backend_str: str):
        from sglang.srt.layers.attention.attention_registry import ATTENTION_BACKENDS

        if backend_str not in ATTENTION_BACKENDS:
            raise ValueError(f"Invalid attention backend: {backend_str}")
        full_attention_backend = ATTENTION_BACKENDS[backend_str](self)
        return full_attention_backend

    @property
    def sim_graph_plan(self):
        """Bytes and seconds the decode graph capture of this runner takes."""
        cfg = self.model_config
        tokens = self.decode_num_tokens_per_req()
        max_bs = max(self.capture_bs)
        if self.is_draft_worker:
            gib = 0.15 + 0.002 * max_bs * tokens
        else:
            gib = 0.5 + cfg.hidden_size / 7168 * 4.5 + 0.12 * tokens + 0.004 * max_bs
        return {"bytes": gib * GB, "seconds": self.load_seconds}

    def forward(self, forward_batch, sim_oom=False):
        """One forward pass of a batch (simulated: its activations are allocated and freed).

        ``sim_oom`` (AUTOFIX_SIM_FAULT=oom-under-load): this batch's activations need more
        than the headroom the static pool left, as a long prompt under load does.
        """
        return self._forward_raw(forward_batch, sim_oom)

    def _forward_raw(self, forward_batch, sim_oom):
        if forward_batch["phase"] == "prefill":
            return self.forward_extend(forward_batch["tokens"], sim_oom)
        return self.forward_decode(forward_batch["running"], sim_oom)

    def forward_extend(self, num_tokens, sim_oom=False):
        hidden_states = torch.empty(self._activation_bytes(num_tokens, sim_oom) // 2, dtype=torch.bfloat16)
        gpu_state.release(hidden_states.nbytes)
        return num_tokens

    def forward_decode(self, num_reqs, sim_oom=False):
        hidden_states = torch.empty(self._activation_bytes(num_reqs, sim_oom) // 2, dtype=torch.bfloat16)
        gpu_state.release(hidden_states.nbytes)
        return num_reqs

    def _activation_bytes(self, num_tokens, sim_oom):
        if sim_oom:
            return int((gpu_state.free_gib() + 2.0) * GB)
        return max(1, num_tokens) * self.model_config.hidden_size * 2 * 4

    def init_device_graphs(self):
        """Capture device graphs."""
        from sglang.srt.model_executor.model_runner_components.cuda_graph_setup import (
            capture_decode_graph,
        )

        capture = capture_decode_graph(model_runner=self)
        self.graph_runner = capture.runner
        self.graph_mem_usage = capture.memory_usage_gb
        return capture

