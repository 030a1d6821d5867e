"""One tensor-parallel rank: a process of its own that brings up its simulated GPU, then runs
the launcher's batches, printing what an SGLang 0.5.23 scheduler process prints.

Bring-up, in SGLang's order: parallel groups (CUDA device, NCCL), the target's weights and
the drafter's, the KV cache pool, the attention backends, CUDA graphs. Memory is booked on
``gpu.Gpu``; a failure is one of rules.json's ``runtime`` entries (the frames a real rank's
traceback shows), logged as "Scheduler hit an exception" with SIGQUIT to the launcher.
"""

import logging
import math
import os
import signal
import sys
import time
import traceback

from sglang.srt._sim import faults, host, models, nccl, procs, rules
from sglang.srt._sim.gpu import GIB, Gpu

logger = logging.getLogger("sglang.srt.managers.scheduler")
_SHARES = {"parallel": 0.08, "weights": 0.62, "draft": 0.05, "kv": 0.05, "graphs": 0.20}
_MOE_CLASSES = ("DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM")
_MOE_CLASSES += ("KimiK25ForConditionalGeneration",)
_DRAFTERS = ("EAGLE", "EAGLE3", "STANDALONE", "DFLASH", "DSPARK", "FROZEN_KV_MTP")


class Failed(Exception):
    """The rank's bring-up or a batch failed with ``failure`` (a rules.Failure)."""

    def __init__(self, name, **values):
        super().__init__(name)
        self.failure = rules.runtime(name, **values)


class Rank:
    def __init__(self, server_args, gpu_id, tp_rank):
        self.view = rules.view_of(server_args)
        self.gpu_id, self.tp_rank = gpu_id, tp_rank
        self.gpu = Gpu(gpu_id)
        self.load_s = host.load_seconds()
        self.algorithm = self.view.speculative_algorithm
        self.serving_since = None
        self.started = time.perf_counter()
        self.weight_time = self.kv_time = 0.0
        self.weight_gb = self.kv_gb = self.graph_gb = 0.0

    # --- bring-up ---------------------------------------------------------------------------

    def bring_up(self):
        self.init_parallel()
        self.target = self.load(self.view.model_path, draft=False)
        draft = self.view.speculative_draft_model_path
        self.draft = None
        if self.algorithm in _DRAFTERS and draft is not None and draft != self.view.model_path:
            self.draft = self.load(draft, draft=True)
        self.init_kv_pool()
        for backend in {self.view.attention_backend, self.view.prefill_attention_backend, self.view.decode_attention_backend}:
            if backend == "fa3" and host.CAPABILITY[0] not in (8, 9):
                raise Failed("fa3")
        self.capture(self.target, draft=False)
        if self.draft is not None:
            self.capture(self.draft, draft=True)
        self.max_running = self.view.max_running_requests or min(4096, max(1, self.tokens // 64))
        if self.tp_rank == 0:
            logger.info(
                f"max_total_num_tokens={self.tokens}, chunked_prefill_size={self.view.chunked_prefill_size}, "
                f"max_prefill_tokens={self.view.max_prefill_tokens}, max_running_requests={self.max_running}, "
                f"context_len={self.context_len}, available_gpu_mem={self.gpu.free_gb():.2f} GB"
            )
        return {
            "status": "ready",
            "max_total_num_tokens": self.tokens,
            "max_req_input_len": max(1, self.tokens - 1),
            "effective_max_running_requests_per_dp": self.max_running,
            "context_len": self.context_len,
            "startup_time": {
                "load_weight": self.weight_time,
                "kv_cache_allocation": self.kv_time,
                "scheduler_e2e": time.perf_counter() - self.started,
            },
            "memory_usage": {
                "weight": round(self.weight_gb, 2),
                "kvcache": round(self.kv_gb, 2),
                "graph": round(self.graph_gb, 2),
                "token_capacity": self.tokens,
            },
            "weight_bytes": models.weight_bytes(self.view.model_path),
        }

    def init_parallel(self):
        tic = time.perf_counter()
        logger.info("Init parallel begin.")
        if self.gpu_id >= host.visible_gpus():
            logger.warning(
                "Context: device=%s gpu_id=%s CUDA_VISIBLE_DEVICES=%s tp_rank=%s",
                self.view.device,
                self.gpu_id,
                os.environ.get("CUDA_VISIBLE_DEVICES"),
                self.tp_rank,
            )
            raise Failed("invalid-device")
        self.gpu.other += 0.55 * GIB  # the CUDA context
        if self.view.tp_size > 1:  # the TP group gets a PyNccl communicator, warmed up once
            error = nccl.communicator_init(self.tp_rank)
            if error:
                raise Failed("nccl-init" if self.tp_rank == 0 else "nccl-init-peer", error=error)
            error = nccl.first_collective(self.tp_rank)
            if error:
                raise Failed("nccl-collective", error=error)
        self.gpu.other += 0.35 * GIB  # NCCL buffers
        elapsed = time.perf_counter() - tic
        logger.info(f"Init parallel ends. elapsed={elapsed:.2f} s")
        time.sleep(self.load_s * _SHARES["parallel"])

    def load(self, path, draft):
        """Book one model's weights (this rank's share), then read its shards."""
        config = models.read_config(path) or {}
        arch = (config.get("architectures") or ["LlamaForCausalLM"])[0]
        if not draft:
            self.context_len = int(self.view.context_length or config.get("max_position_embeddings", 4096))
            logger.info(f"Memory baseline taken. mem usage={(self.gpu.total - self.gpu.free()) / GIB:.2f} GB")
            self.check_host_ram()
        tic = time.perf_counter()
        before = self.gpu.free_gb()
        logger.info(f"Load weight begin. avail mem={before:.2f} GB")
        stack = "oom-load-draft" if draft else ("oom-load-moe" if arch in _MOE_CLASSES else "oom-load-dense")
        for nbytes in weight_tensors(config, models.weight_bytes(path), self.view.tp_size):
            message = self.gpu.allocate(nbytes)
            if message:
                raise Failed(stack, message=message)
        total = models.weight_bytes(path)
        self.read_shards(path, total, self.load_s * _SHARES["draft" if draft else "weights"])
        after = self.gpu.free_gb()
        elapsed = time.perf_counter() - tic
        quant = (config.get("quantization_config") or {}).get("quant_method")
        logger.info(
            f"Load weight end. elapsed={elapsed:.2f} s, type={arch}, {f'quant={quant}, ' if quant else ''}"
            f"avail mem={after:.2f} GB, mem usage={before - after:.2f} GB."
        )
        if not draft:
            self.weight_time, self.weight_gb = elapsed, before - after
        return {"config": config, "draft": draft}

    def check_host_ram(self):
        # The kernel's OOM killer ends rank 0 when the pinned offload buffers outgrow host RAM.
        offload = float(self.view.cpu_offload_gb or 0)
        if offload > 0 and offload * self.view.tp_size > host.host_ram_gb() and self.tp_rank == 0:
            time.sleep(0.2)
            os.kill(os.getpid(), signal.SIGKILL)

    def read_shards(self, path, total, seconds):
        shards = max(1, math.ceil(total / 9.3e9))
        start, done = time.perf_counter(), 0
        for mark in sorted({0, shards // 4, shards // 2, 3 * shards // 4, shards}):
            if mark > done:
                time.sleep(seconds * (mark - done) / shards)
                done = mark
            if self.tp_rank == 0:
                sys.stderr.write(progress(done, shards, time.perf_counter() - start))
                sys.stderr.flush()
            if done >= shards // 2:
                if faults.active("hang-load"):
                    faults.stall()
                if faults.active("crash-load"):
                    raise Failed("crash-load")

    def init_kv_pool(self):
        tic = time.perf_counter()
        kv_bytes = 1 if self.view.kv_cache_dtype in ("fp8_e4m3", "fp8_e5m2", "mxfp8") else 2
        dtype = {"fp8_e4m3": "torch.float8_e4m3fn", "fp8_e5m2": "torch.float8_e5m2"}.get(
            self.view.kv_cache_dtype, "torch.bfloat16"
        )
        cells = [(self.target, models.kv_bytes_per_token(self.target["config"], self.view.tp_size, kv_bytes))]
        if self.draft is not None:
            cells.append((self.draft, models.kv_bytes_per_token(self.draft["config"], self.view.tp_size, kv_bytes)))
        time.sleep(self.load_s * _SHARES["kv"])
        page = self.view.page_size or 1
        rest = self.gpu.free() - self.gpu.total * (1 - self.view.mem_fraction_static)
        tokens = int(rest // max(1, sum(cell for _, cell in cells))) // page * page
        if tokens <= 0:
            raise Failed("kv-pool", fraction=self.view.mem_fraction_static)
        for model, cell in cells:
            nbytes = cell * tokens
            self.gpu.allocate(nbytes)
            name = "Draft KV Cache" if model["draft"] else "KV Cache"
            if model["config"].get("kv_lora_rank"):
                sizes = f"KV size: {nbytes / GIB:.2f} GB"
            else:
                sizes = f"K size: {nbytes / 2 / GIB:.2f} GB, V size: {nbytes / 2 / GIB:.2f} GB"
            logger.info(f"{name} is allocated. dtype: {dtype}, #tokens: {tokens}, {sizes}")
            if not model["draft"]:
                self.kv_gb = nbytes / GIB
        logger.info(f"Memory pool end. avail mem={self.gpu.free_gb():.2f} GB")
        self.tokens = tokens
        self.kv_time = time.perf_counter() - tic

    def capture(self, model, draft):
        graphs = self.view.cuda_graph_config.decode
        if graphs.backend == "disabled":
            return
        limit = min(graphs.max_bs or 1, self.view.max_running_requests or graphs.max_bs or 1)
        sizes = [bs for bs in (graphs.bs or [1]) if bs <= limit] or [1]
        if self.algorithm is None:
            per_req, name = 1, "decode"
        else:
            per_req = (self.view.speculative_eagle_topk if draft else self.view.speculative_num_draft_tokens) or 1
            name = "verify"
        role = "draft" if draft else "target"
        hidden = int(model["config"].get("hidden_size", 4096))
        if draft:
            gib = 0.15 + 0.002 * max(sizes) * per_req
        else:
            gib = 0.5 + hidden / 7168 * 4.5 + 0.12 * per_req + 0.004 * max(sizes)
        seconds = self.load_s * _SHARES["graphs"] * (0.2 if draft else 0.8)
        tic, before = time.perf_counter(), self.gpu.free_gb()
        logger.info(
            f"Capture {role} {name} CUDA graph begin. backend={graphs.backend}, num_tokens_per_req={per_req}, "
            f"avail mem={before:.2f} GB"
        )
        for _ in sizes:
            message = self.gpu.allocate(gib * GIB / len(sizes))
            if message:
                raise Failed("graph-oom", message=message)
            time.sleep(seconds / len(sizes))
        after = self.gpu.free_gb()
        logger.info(
            f"Capture {role} {name} CUDA graph end. bs={sizes}, elapsed={time.perf_counter() - tic:.2f} s, "
            f"mem usage={before - after:.2f} GB, avail mem={after:.2f} GB."
        )
        if not draft:
            self.graph_gb = before - after

    # --- serving -----------------------------------------------------------------------------

    def serve(self, pipe):
        """Run the launcher's batches until it says stop (rank 0 logs them, as SGLang does)."""
        while True:
            try:
                batch = pipe.recv()
            except (EOFError, OSError):
                return
            if batch.get("type") == "shutdown":
                return
            if batch.get("type") != "batch" or self.tp_rank != 0:
                continue
            logger.info(batch_line(batch, self.tokens, self.algorithm, self.view.speculative_num_draft_tokens))
            self.forward(batch)

    def forward(self, batch):
        """A batch's activations are allocated and freed; oom-under-load makes them not fit."""
        if not batch.get("warmup") and self.serving_since is None:
            self.serving_since = time.monotonic()
        oom = (
            faults.active("oom-under-load")
            and not batch.get("warmup")
            and time.monotonic() - self.serving_since >= faults.after_seconds()
        )
        tokens = batch["tokens"] if batch["phase"] == "prefill" else batch["running"]
        hidden = int(self.target["config"].get("hidden_size", 4096))
        nbytes = (self.gpu.free() + 2 * GIB) if oom else max(1, tokens) * hidden * 2 * 4
        message = self.gpu.allocate(nbytes // 2 * 2)
        if message:
            raise Failed("serve-oom-prefill" if batch["phase"] == "prefill" else "serve-oom-decode", message=message)
        self.gpu.release(nbytes // 2 * 2)


def weight_tensors(config, total, tp_size):
    """Byte sizes of one rank's weight tensors, in load order: the embedding, each layer's MLP
    (a dense gate_up, or a MoE layer's w13 and w2, shaped so the layers add up to the rest of
    total / tp), the LM head."""
    tp_size = max(1, tp_size)
    hidden = int(config.get("hidden_size", 4096))
    rows = max(1, int(config.get("vocab_size", 32000)) // tp_size)
    layers = max(1, int(config.get("num_hidden_layers", 1)))
    experts = int(config.get("n_routed_experts") or config.get("num_experts") or 0)
    dense_layers = int(config.get("first_k_dense_replace") or 0)
    inter = int(config.get("moe_intermediate_size") or config.get("intermediate_size", 4096))
    per_layer = max(1.0, (total / tp_size - 2 * rows * hidden * 2) / layers)
    scale = 2.0 * per_layer / (max(1, experts) * 3 * hidden * (inter // tp_size or 1) * 2)  # bytes per weight
    shard = max(1, inter // tp_size)
    dense = max(1, int(per_layer * tp_size / (4 * hidden)) // tp_size)
    yield rows * hidden * 2
    for layer in range(layers):
        if experts and layer >= dense_layers:
            yield experts * 2 * shard * int(hidden * scale / 2) * 2
            yield experts * hidden * int(shard * scale / 2) * 2
        else:
            yield 2 * dense * hidden * 2
    yield rows * hidden * 2


def progress(done, shards, elapsed):
    """A tqdm line of the checkpoint loader."""
    rate = done / elapsed if elapsed > 0 and done else 0.0
    left = (shards - done) / rate if rate else 0.0
    timing = f"{int(elapsed // 60):02d}:{int(elapsed % 60):02d}<{int(left // 60):02d}:{int(left % 60):02d}, {rate:5.2f}it/s"
    return f"\rLoading safetensors checkpoint shards: {100 * done // shards:3d}% Completed | {done}/{shards} [{timing if done else '00:00<?, ?it/s'}]\n"


def batch_line(batch, capacity, algorithm, draft_tokens):
    usage = batch["tokens"] / max(1, capacity)
    if batch["phase"] == "prefill":
        return (
            f"Prefill batch, #new-seq: 1, #new-token: {batch['tokens']}, #cached-token: 0, token usage: {usage:.2f}, "
            "#running-req: 0, #queue-req: 0, #pending-token: 0, "
        )
    line = f"Decode batch, #running-req: {batch['running']}, #token: {batch['tokens']}, token usage: {usage:.2f}, "
    if algorithm is not None:
        accept = batch["accept_length"]
        drafted = (draft_tokens or 2) - 1
        line += f"accept len: {accept:.2f}, accept rate: {(accept - 1) / drafted if drafted > 0 else 0.0:.2f}, "
    return line + f"cuda graph: True, gen throughput (token/s): {batch['throughput']:.2f}, #queue-req: 0"


def main(server_args, gpu_id, tp_rank, pp_rank, dp_rank, pipe, launcher_pid):
    """A rank process (forked from the launcher's forkserver)."""
    procs.leave_with(os.getppid())
    view = rules.view_of(server_args)
    prefix = (f" DP{dp_rank}" if dp_rank is not None else "") + (f" PP{pp_rank}" if view.pp_size > 1 else "")
    logging.basicConfig(
        level=getattr(logging, str(view.log_level).upper(), logging.INFO),
        format=f"[%(asctime)s{prefix} TP{tp_rank}] %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
        stream=sys.stderr,
        force=True,
    )
    time.sleep(0.03 * min(gpu_id, 16))  # ranks come up one after another
    rank = Rank(server_args, gpu_id, tp_rank)
    try:
        pipe.send(rank.bring_up())
        rank.serve(pipe)
    except (BrokenPipeError, EOFError, ConnectionError):
        os._exit(0)  # the launcher is gone (killed): nothing left to report to
    except Failed as failed:
        exc = failed.failure.exception()
        if gpu_id:  # ranks hit a shared failure a moment apart; rank 0 usually reports first
            time.sleep(0.25 + 0.05 * min(gpu_id, 16))
        logger.error(f"Scheduler hit an exception: {''.join(traceback.format_exception(exc))}")
        try:
            os.kill(launcher_pid, signal.SIGQUIT)
        except OSError:
            pass
