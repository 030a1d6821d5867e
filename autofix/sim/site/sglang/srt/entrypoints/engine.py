"""The entry point of inference server (simulated subset of sglang/srt/entrypoints/engine.py)."""

import logging
import multiprocessing as mp
import os
import signal
import threading
import time
from typing import Callable, Dict, List

from sglang.srt._sim import faults, host
from sglang.srt.arg_groups.overrides import resolved_view, resolving_view
from sglang.srt.managers.scheduler import run_scheduler_process
from sglang.srt.runtime_context import publish
from sglang.srt.server_args import PortArgs, ServerArgs
from sglang.srt.utils.common import configure_logger, kill_process_tree

logger = logging.getLogger(__name__)


def _server_args_for_logging(server_args: ServerArgs) -> str:
    resolved = server_args.resolved_dict()
    values = ", ".join(
        f"{name}={value!r}" for name, value in resolved.items() if name not in ("help",)
    )
    return f"ServerArgs({values})"


def _set_envs_and_config(server_args: ServerArgs):
    cfg = resolving_view(server_args)
    os.environ["NCCL_CUMEM_ENABLE"] = str(int(bool(cfg.enable_symm_mem)))
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    os.environ.setdefault("CUDA_DEVICE_MAX_CONNECTIONS", "8")
    os.environ.setdefault("CUDA_MODULE_LOADING", "AUTO")

    # Signal handlers can only be registered from the main thread.
    if threading.current_thread() is threading.main_thread():
        if cfg.custom_sigquit_handler is None:
            # Register the signal handler.
            # The child processes will send SIGQUIT to this process when any error happens
            # This process then clean up the whole process tree
            # Note: This sigquit handler is used in the launch phase, and may be replaced by
            # the running_phase_sigquit_handler in the tokenizer manager after the grpc server is launched.
            def launch_phase_sigquit_handler(signum, frame):
                logger.error(
                    "Received sigquit from a child process. It usually means the child failed."
                )
                kill_process_tree(os.getpid())

            signal.signal(signal.SIGQUIT, launch_phase_sigquit_handler)

    # Set mp start method
    mp.set_start_method("spawn", force=True)


def _scheduler_died_error(rank: int, proc) -> RuntimeError:
    """Build a descriptive error for a scheduler process that died during init."""
    proc.join(timeout=10)
    return RuntimeError(
        f"Rank {rank} scheduler died during initialization "
        f"(exit code: {proc.exitcode}). "
        f"If exit code is -9 (SIGKILL), a common cause is the OS OOM killer. "
        f"Run `dmesg -T | grep -i oom` to check."
    )


def _wait_for_scheduler_ready(
    scheduler_pipe_readers: List,
    scheduler_procs: List,
) -> List[Dict]:
    """Wait for the model to finish loading and return scheduler infos.

    Uses poll() with timeout instead of blocking recv(), so that child process
    death (e.g. OOM SIGKILL) is detected promptly instead of hanging forever.
    """
    scheduler_infos = []
    for i in range(len(scheduler_pipe_readers)):
        while True:
            if scheduler_pipe_readers[i].poll(timeout=5.0):
                try:
                    data = scheduler_pipe_readers[i].recv()
                except EOFError:
                    raise _scheduler_died_error(i, scheduler_procs[i])
                if data["status"] != "ready":
                    raise RuntimeError(
                        "Initialization failed. Please see the error messages above."
                    )
                scheduler_infos.append(data)
                break

            # Poll timed out — check all processes for early death
            for j in range(len(scheduler_procs)):
                if not scheduler_procs[j].is_alive():
                    raise _scheduler_died_error(j, scheduler_procs[j])

    return scheduler_infos


def _init_tokenizer_manager(server_args):
    """SIMULATOR: the tokenizer runs in this process; the launcher's own faults strike here."""
    if faults.active("segfault"):
        # A native crash in the launcher (the tokenizer's Rust code, a CUDA IPC handle).
        faults.segfault()
    if faults.active("torn-traceback") or faults.active("torn-traceback-hang"):
        try:
            _load_tokenizer(server_args)
        except OSError as exc:
            faults.torn_traceback(exc, hang=faults.active("torn-traceback-hang"))


def _load_tokenizer(server_args):
    tokenizer_path = resolved_view(server_args).tokenizer_path
    return _read_tokenizer_files(tokenizer_path)


def _read_tokenizer_files(tokenizer_path):
    raise OSError(f"Can't load tokenizer for '{tokenizer_path}'.")


class SchedulerInitResult:
    def __init__(self, scheduler_pipe_readers, scheduler_procs):
        self.scheduler_pipe_readers = scheduler_pipe_readers
        self.scheduler_procs = scheduler_procs
        self.scheduler_infos = []
        self.all_child_pids = [p.pid for p in scheduler_procs]

    def wait_for_ready(self):
        self.scheduler_infos = _wait_for_scheduler_ready(
            self.scheduler_pipe_readers, self.scheduler_procs
        )


class Engine:
    """The entry point to the inference engine (simulated subset)."""

    @staticmethod
    def _set_startup_time(scheduler_init_result, startup_tic: float) -> None:
        info = scheduler_init_result.scheduler_infos[0]["startup_time"]
        logger.info(
            "Engine startup timings (s): load_weight=%.2f, "
            "kv_cache_allocation=%.2f, scheduler_e2e=%.2f, "
            "cuda_graph={%s}, tokenizer_e2e=%.2f",
            info["load_weight"],
            info["kv_cache_allocation"],
            info["scheduler_e2e"],
            "decode=%.2f" % max(0.0, info["scheduler_e2e"] - info["load_weight"] - info["kv_cache_allocation"]),
            time.perf_counter() - startup_tic,
        )

    @classmethod
    def _launch_subprocesses(
        cls,
        server_args: ServerArgs,
        run_scheduler_process_func: Callable = run_scheduler_process,
    ):
        """Launch the Scheduler processes; the tokenizer runs in this process."""
        startup_tic = time.perf_counter()

        # Configure global environment
        configure_logger(server_args)
        faults.check()
        server_args.resolve_once()

        _set_envs_and_config(server_args)

        # Not read-only: the LoRA checks normalize adapter paths through late
        # resolution, which a published config refuses. Hence before publish --
        # and before the parser detection below, which consumes the "auto"
        # sentinel: a record rejected here has to stay retryable.
        server_args.check_server_args()

        publish(server_args, role="tokenizer")

        # Allocate ports for inter-process communications
        port_args = PortArgs.init_new(server_args)
        logger.info(f"server_args={_server_args_for_logging(server_args)}")

        # Launch scheduler processes
        scheduler_init_result, scheduler_procs = cls._launch_scheduler_processes(
            server_args, port_args, run_scheduler_process_func
        )

        if faults.active("oom-killer"):
            # SIMULATOR: host RAM runs out halfway through the shards; the kernel picks us.
            faults.kill_self_later(host.load_seconds() * 0.45)

        # Wait for the model to finish loading
        scheduler_init_result.wait_for_ready()
        _init_tokenizer_manager(server_args)

        cls._set_startup_time(scheduler_init_result, startup_tic)
        return port_args, scheduler_init_result

    @staticmethod
    def _launch_scheduler_processes(server_args, port_args, run_scheduler_process_func):
        view = resolved_view(server_args)
        # Sim deviation: real SGLang spawns each rank (a fresh interpreter per GPU). The sim
        # forks its ranks from one forkserver that imported the scheduler once: the same
        # processes, logs and exit codes for half the CPU per launch, which matters when
        # several simulated 8-GPU hosts share this machine's two cores (bench/search.py).
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["sglang.srt.managers.scheduler"])
        scheduler_procs = []
        scheduler_pipe_readers = []
        # One process per (dp replica, pp stage, tp rank), each on its own GPU.
        for dp_rank in range(view.dp_size):
            for pp_rank in range(view.pp_size):
                for tp_rank in range(view.tp_size):
                    index = (dp_rank * view.pp_size + pp_rank) * view.tp_size + tp_rank
                    gpu_id = view.base_gpu_id + index * view.gpu_id_step
                    reader, writer = ctx.Pipe(duplex=True)
                    proc = ctx.Process(
                        target=run_scheduler_process_func,
                        args=(
                            server_args,
                            port_args,
                            gpu_id,
                            tp_rank,
                            pp_rank,
                            dp_rank if view.dp_size > 1 else None,
                            writer,
                            os.getpid(),
                        ),
                    )
                    proc.start()
                    writer.close()
                    scheduler_procs.append(proc)
                    scheduler_pipe_readers.append(reader)
        return SchedulerInitResult(scheduler_pipe_readers, scheduler_procs), scheduler_procs
