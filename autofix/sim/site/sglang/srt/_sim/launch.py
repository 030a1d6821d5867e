"""The launcher process of ``python -m sglang.launch_server`` (autofix's simulator).

``sglang.srt.entrypoints.http_server.launch_server`` is a frame function (frames.py) that
shows as SGLang's ``launch_server``: ``start`` runs before it returns (checks, rank processes,
waiting for them) and hands it what to call next, nothing or the failure to raise through
SGLang's frames; ``serve`` then runs the HTTP server until SIGTERM.
"""

import logging
import multiprocessing
import os
import signal
import threading
import time

from sglang.srt._sim import faults, frames, host, procs, rules

logger = logging.getLogger("sglang.srt.entrypoints.engine")
_LAUNCHED = {}


def _on_sigquit(signum, frame):
    logger.error("Received sigquit from a child process. It usually means the child failed.")
    procs.kill_tree(os.getpid())


def _on_term_while_launching(signum, frame):
    procs.kill_tree(os.getpid(), include_parent=False)
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _nothing(*args):
    return None


def start(server_args):
    """Everything before the HTTP server: the callable launch_server runs next."""
    started = time.perf_counter()
    signal.signal(signal.SIGTERM, _on_term_while_launching)
    signal.signal(signal.SIGINT, _on_term_while_launching)
    faults.check()
    server_args.resolve_once()
    view = rules.view_of(server_args)
    os.environ["NCCL_CUMEM_ENABLE"] = str(int(bool(view.enable_symm_mem)))
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    os.environ.setdefault("CUDA_DEVICE_MAX_CONNECTIONS", "8")
    os.environ.setdefault("CUDA_MODULE_LOADING", "AUTO")
    if threading.main_thread() is threading.current_thread():  # signals: the main thread only
        signal.signal(signal.SIGQUIT, _on_sigquit)
    failure = rules.check_failure(server_args)
    if failure is not None:
        return failure.raiser(rules.loaded().stacks["check_at_launch"])
    logger.info(f"server_args={server_args!r}")
    ranks = _spawn(server_args, view)
    if faults.active("oom-killer"):  # host RAM runs out halfway through the shards
        faults.kill_self_later(host.load_seconds() * 0.45)
    infos, failure = _wait(ranks)
    if failure is not None:
        return failure
    if faults.active("segfault"):  # a native crash in the launcher (the tokenizer's Rust code)
        faults.segfault()
    if faults.active("torn-traceback") or faults.active("torn-traceback-hang"):
        exc = rules.runtime("tokenizer", path=view.tokenizer_path).exception()
        faults.torn_traceback(exc, hang=faults.active("torn-traceback-hang"))
    timing = infos[0]["startup_time"]
    logger.info(
        "Engine startup timings (s): load_weight=%.2f, kv_cache_allocation=%.2f, scheduler_e2e=%.2f, "
        "cuda_graph={decode=%.2f}, tokenizer_e2e=%.2f",
        timing["load_weight"],
        timing["kv_cache_allocation"],
        timing["scheduler_e2e"],
        max(0.0, timing["scheduler_e2e"] - timing["load_weight"] - timing["kv_cache_allocation"]),
        time.perf_counter() - started,
    )
    _LAUNCHED.update(server_args=server_args, ranks=ranks, info=infos[0])
    return _nothing


def _spawn(server_args, view):
    """One process per (DP replica, PP stage, TP rank), each on its GPU. Real SGLang spawns a
    fresh interpreter per rank; the sim forks them from one forkserver that imported the rank
    code once (the same processes, logs and exit codes for half the CPU: several simulated
    hosts share this machine's two cores)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["sglang.srt._sim.rank"])
    from sglang.srt._sim import rank

    ranks = []
    for dp in range(view.dp_size):
        for pp in range(view.pp_size):
            for tp in range(view.tp_size):
                gpu_id = view.base_gpu_id + ((dp * view.pp_size + pp) * view.tp_size + tp) * view.gpu_id_step
                reader, writer = context.Pipe(duplex=True)
                args = (server_args, gpu_id, tp, pp, dp if view.dp_size > 1 else None, writer, os.getpid())
                process = context.Process(target=rank.main, args=args)
                process.start()
                writer.close()
                ranks.append((process, reader))
    return ranks


def _died(index, process, name):
    process.join(timeout=10)
    return rules.runtime(name, rank=index, code=process.exitcode)


def _wait(ranks):
    """(the ranks' init infos, None) or (None, the failure to raise): SGLang polls each rank's
    pipe and checks every process while it waits, so a rank killed without a word is seen."""
    infos = []
    for index, (process, reader) in enumerate(ranks):
        while True:
            if reader.poll(timeout=5.0):
                try:
                    infos.append(reader.recv())
                except EOFError as exc:
                    failure = _died(index, process, "rank-died")
                    frames.graft(rules.loaded().stacks["recv"], exc)
                    failure.exc.__context__ = exc
                    return None, failure.raiser()
                break
            for other, (peer, _) in enumerate(ranks):
                if not peer.is_alive():
                    return None, _died(other, peer, "rank-died-wait").raiser()
    return infos, None


def serve(result):
    """After launch_server's frame: the HTTP server, until SIGTERM (its exit code is 0)."""
    from sglang.srt._sim import http

    http.serve(_LAUNCHED["server_args"], _LAUNCHED["ranks"], _LAUNCHED["info"])
    return result
