"""A scheduler that manages a tensor parallel GPU worker (simulated subset).

SIMULATOR: the rank process brings up its simulated GPU (parallel groups, weights, KV
pool, attention backend, CUDA graphs) with the real log lines and failure points, then
serves the parent's generation requests by logging batch statistics.
"""

import logging
import os
import signal
import time

from sglang.srt._sim import faults, gpu_state, host, procs
from sglang.srt.arg_groups.overrides import resolved_view
from sglang.srt.distributed import bootstrap
from sglang.srt.managers.tp_worker import TpModelWorker
from sglang.srt.utils.common import (
    configure_logger,
    get_available_gpu_memory,
    get_exception_traceback,
)

logger = logging.getLogger(__name__)

# Shares of AUTOFIX_SIM_LOAD_S spent in each startup phase.
_LOAD_SHARES = {"parallel": 0.08, "weights": 0.62, "draft": 0.05, "kv": 0.05, "graphs": 0.20}


class _ParentProcess:
    """The launcher process (psutil.Process().parent() in the real scheduler)."""

    def __init__(self, pid):
        self.pid = pid

    def send_signal(self, sig):
        try:
            os.kill(self.pid, sig)
        except OSError:
            pass


class Scheduler:
    """A scheduler that manages a tensor parallel GPU worker."""

    def __init__(
        self,
        server_args,
        port_args,
        gpu_id: int,
        tp_rank: int,
        pp_rank: int = 0,
        dp_rank=None,
    ):
        # Parse args
        self.server_args = server_args
        self.port_args = port_args
        self.gpu_id = gpu_id
        self.tp_rank = tp_rank
        self.tic = time.perf_counter()
        self.resolved = resolved_view(server_args)
        self.load_seconds = host.load_seconds()
        self.spec_algorithm = self.resolved.speculative_algorithm
        self.serving_since = None  # the first client batch (oom-under-load counts from it)

        # Init the parallel runtime before anything reads a group.
        bootstrap.init_parallel_runtime(
            server_args=server_args,
            device=self.resolved.device,
            gpu_id=gpu_id,
            tp_rank=tp_rank,
            tp_size=self.resolved.tp_size,
            dist_port=port_args.nccl_port,
        )
        time.sleep(self.load_seconds * _LOAD_SHARES["parallel"])

        # Launch a model worker and draft model worker if using speculative decoding
        self.init_model_worker()

        # Print debug info
        self.startup_available_gpu_memory_gb = get_available_gpu_memory(
            self.resolved.device, gpu_id, empty_cache=False
        )
        self.max_running_requests = self.resolved.max_running_requests or min(
            4096, max(1, self.max_total_num_tokens // 64)
        )
        self.max_prefill_tokens = self.resolved.max_prefill_tokens
        self.model_config = self.tp_worker.model_config
        if self.tp_rank == 0:
            logger.info(
                f"max_total_num_tokens={self.max_total_num_tokens}, "
                f"chunked_prefill_size={self.resolved.chunked_prefill_size}, "
                f"max_prefill_tokens={self.max_prefill_tokens}, "
                f"max_running_requests={self.max_running_requests}, "
                f"context_len={self.model_config.context_len}, "
                f"available_gpu_mem="
                f"{self.startup_available_gpu_memory_gb:.2f} GB"
            )

    def init_model_worker(self):
        # Load model weights.
        self.init_tp_model_worker()
        self.maybe_init_draft_worker()

        # Prepare KV cache pools for all workers
        tic = time.perf_counter()
        self.init_memory_pools()
        self.kv_cache_allocation_time = time.perf_counter() - tic

        self.init_all_attention_backends()
        self.init_all_cuda_graphs()

    def init_tp_model_worker(self):
        self._check_host_memory_for_offload()
        self.tp_worker = TpModelWorker(
            server_args=self.server_args,
            resolved=self.resolved,
            gpu_id=self.gpu_id,
            tp_rank=self.tp_rank,
            nccl_port=self.port_args.nccl_port,
            load_seconds=self.load_seconds * _LOAD_SHARES["weights"],
        )

    def maybe_init_draft_worker(self):
        self.draft_worker = None
        if self.spec_algorithm not in ("EAGLE", "EAGLE3", "STANDALONE", "DFLASH", "DSPARK", "FROZEN_KV_MTP"):
            return
        draft_path = self.resolved.speculative_draft_model_path
        if draft_path is None or draft_path == self.resolved.model_path:
            return
        self.draft_worker = TpModelWorker(
            server_args=self.server_args,
            resolved=self.resolved,
            gpu_id=self.gpu_id,
            tp_rank=self.tp_rank,
            nccl_port=self.port_args.nccl_port,
            is_draft_worker=True,
            load_seconds=self.load_seconds * _LOAD_SHARES["draft"],
        )

    def init_memory_pools(self):
        runner = self.tp_worker.model_runner
        draft_runner = self.draft_worker.model_runner if self.draft_worker else None
        cell_size = runner.kv_cache_cell_size()
        if draft_runner is not None:
            cell_size += draft_runner.kv_cache_cell_size()
        time.sleep(self.load_seconds * _LOAD_SHARES["kv"])
        config = runner.init_memory_pool(cell_size, draft_runner=draft_runner)
        self.max_total_num_tokens = config.max_total_num_tokens

    def init_all_attention_backends(self):
        self.tp_worker.model_runner.init_attention_backends()
        if self.draft_worker is not None:
            self.draft_worker.model_runner.init_attention_backends()

    def init_all_cuda_graphs(self):
        runner = self.tp_worker.model_runner
        runner.load_seconds = self.load_seconds * _LOAD_SHARES["graphs"] * 0.8
        runner.init_device_graphs()
        if self.draft_worker is not None:
            draft = self.draft_worker.model_runner
            draft.load_seconds = self.load_seconds * _LOAD_SHARES["graphs"] * 0.2
            draft.init_device_graphs()

    def _check_host_memory_for_offload(self):
        # The kernel's OOM killer ends a rank whose pinned host buffers cannot fit.
        offload = float(self.resolved.cpu_offload_gb or 0)
        if offload <= 0:
            return
        try:
            host_ram = float(os.environ.get("AUTOFIX_SIM_HOST_RAM_GB", "1536"))
        except ValueError:
            host_ram = 1536.0
        if offload * self.resolved.tp_size > host_ram and self.tp_rank == 0:
            time.sleep(0.2)
            os.kill(os.getpid(), signal.SIGKILL)

    def run_batch(self, batch):
        """Run the forward of a batch on this rank's GPU."""
        sim_oom = False
        if not batch.get("warmup"):
            if self.serving_since is None:
                self.serving_since = time.monotonic()
            sim_oom = faults.active("oom-under-load") and (
                time.monotonic() - self.serving_since >= faults.after_seconds()
            )
        return self.tp_worker.forward_batch_generation(batch, sim_oom=sim_oom)

    def get_init_info(self):
        return {
            "status": "ready",
            "max_total_num_tokens": self.max_total_num_tokens,
            "max_req_input_len": max(1, self.max_total_num_tokens - 1),
            "effective_max_running_requests_per_dp": self.max_running_requests,
            "context_len": self.model_config.context_len,
            "startup_time": {
                "load_weight": self.tp_worker.model_runner.weight_load_time,
                "kv_cache_allocation": self.kv_cache_allocation_time,
                "scheduler_e2e": time.perf_counter() - self.tic,
            },
            "memory_usage": {
                "weight": round(self.tp_worker.model_runner.weight_load_mem_usage, 2),
                "kvcache": round(self.tp_worker.model_runner.kv_mem_usage, 2),
                "graph": round(getattr(self.tp_worker.model_runner, "graph_mem_usage", 0.0), 2),
                "token_capacity": self.max_total_num_tokens,
            },
            "weight_bytes": self.tp_worker.model_config.weight_bytes,
        }

    def run_event_loop(self, conn):
        """Serve the launcher: log batch statistics for the requests it runs."""
        forward_ct = 0
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                return
            if msg.get("type") == "shutdown":
                return
            if msg.get("type") != "batch" or self.tp_rank != 0:
                continue
            forward_ct += 1
            usage = msg["tokens"] / max(1, self.max_total_num_tokens)
            if msg["phase"] == "prefill":
                logger.info(
                    f"Prefill batch, #new-seq: 1, #new-token: {msg['tokens']}, "
                    f"#cached-token: 0, token usage: {usage:.2f}, "
                    f"#running-req: 0, #queue-req: 0, #pending-token: 0, "
                )
            else:
                msg_s = f"Decode batch, #running-req: {msg['running']}, #token: {msg['tokens']}, token usage: {usage:.2f}, "
                if self.spec_algorithm is not None:
                    accept_len = msg["accept_length"]
                    draft = (self.resolved.speculative_num_draft_tokens or 2) - 1
                    rate = (accept_len - 1) / draft if draft > 0 else 0.0
                    msg_s += f"accept len: {accept_len:.2f}, accept rate: {rate:.2f}, "
                msg_s += (
                    f"cuda graph: True, gen throughput (token/s): {msg['throughput']:.2f}, "
                    f"#queue-req: 0"
                )
                logger.info(msg_s)
            # Like the real scheduler: the batch's stats are logged when it is scheduled,
            # then it runs (so an OOM in its forward follows its "Prefill batch" line).
            self.run_batch(msg)


def configure_scheduler_process(server_args, gpu_id, tp_rank, pp_rank=0, dp_rank=None):
    prefix = ""
    if dp_rank is not None:
        prefix += f" DP{dp_rank}"
    if server_args.pp_size > 1:
        prefix += f" PP{pp_rank}"
    prefix += f" TP{tp_rank}"
    configure_logger(server_args, prefix=prefix)
    gpu_state.bind(gpu_id)


def run_scheduler_process(
    server_args,
    port_args,
    gpu_id: int,
    tp_rank: int,
    pp_rank: int,
    dp_rank,
    pipe_writer,
    parent_pid: int = None,
):
    # The process that started this rank (the forkserver, which leaves with the launcher);
    # parent_pid stays the launcher, for the signals a failing rank sends it.
    procs.exit_when_parent_dies(os.getppid())
    configure_scheduler_process(server_args, gpu_id, tp_rank, pp_rank, dp_rank)
    parent_process = _ParentProcess(parent_pid or os.getppid())
    # Ranks come up one after another.
    time.sleep(0.03 * min(gpu_id, 16))

    # Create a scheduler and run the event loop
    scheduler = None
    try:
        scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, pp_rank, dp_rank)

        # Send initialization info back to the parent process
        pipe_writer.send(scheduler.get_init_info())

        # Run the event loop (blocks until a ShutdownReq sets gracefully_exit)
        scheduler.run_event_loop(pipe_writer)

    except Exception:
        traceback = get_exception_traceback()
        if gpu_id:
            # Ranks hit a shared failure a moment apart; rank 0 usually reports first.
            time.sleep(0.25 + 0.05 * min(gpu_id, 16))
        logger.error(f"Scheduler hit an exception: {traceback}")
        parent_process.send_signal(signal.SIGQUIT)

