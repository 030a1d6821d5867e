"""Common utilities (simulated subset of sglang/srt/utils/common.py)."""

import argparse
import functools
import json
import logging
import os
import re
import signal
import sys
import time
import traceback
from collections import OrderedDict
from decimal import Decimal
from typing import Optional

from sglang.srt._sim import host

logger = logging.getLogger(__name__)


def nullable_str(val: str):
    if not val or val == "None":
        return None
    return val


def human_readable_int(value: str) -> int:
    """Supports standard SI suffixes (k, M, G, T) and IEC suffixes
    (Ki, Mi, Gi, Ti). Suffixes are case-sensitive.
    """
    value = value.strip()

    si_multiplier = {"k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
    iec_multiplier = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}

    match = re.fullmatch(r"(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)", value)
    if match:
        number, suffix = match.groups()
        if suffix in iec_multiplier:
            if "." in number:
                raise argparse.ArgumentTypeError(
                    f"Decimals are not allowed with IEC suffixes like '{suffix}'. "
                    f"Use an integer IEC value such as '{int(Decimal(number))}{suffix}', "
                    f"or use an SI suffix like 'k' or 'M' for decimal values."
                )
            return int(number) * iec_multiplier[suffix]
        return int(Decimal(number) * si_multiplier[suffix])
    return int(value)


def json_list_type(value):
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        raise argparse.ArgumentTypeError(
            f"Invalid JSON list: {value}. Please provide a valid JSON list."
        )


def lru_cache_frozenset(maxsize=128):
    def _to_hashable(o):
        try:
            hash(o)
            return o
        except TypeError:
            if isinstance(o, (dict,)):
                return frozenset((_to_hashable(k), _to_hashable(v)) for k, v in o.items())
            if isinstance(o, (list, tuple, set)):
                return tuple(_to_hashable(x) for x in o)
            raise TypeError(f"Cannot make hashable: {type(o)}")

    def decorator(func):
        cache = OrderedDict()

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            h_args = tuple(_to_hashable(a) for a in args)
            h_kwargs = frozenset(
                (_to_hashable(k), _to_hashable(v)) for k, v in kwargs.items()
            )
            key = (h_args, h_kwargs)
            if key in cache:
                cache.move_to_end(key)
                return cache[key]
            result = func(*args, **kwargs)
            cache[key] = result
            if maxsize is not None and len(cache) > maxsize:
                cache.popitem(last=False)
            return result

        wrapper.cache_clear = cache.clear  # For manual cache clearing
        return wrapper

    return decorator


def get_device_memory_capacity(device: str = None):
    """Total memory of one device in MiB (the simulated GPUs' memory on cuda)."""
    if device in (None, "cuda"):
        return host.total_mem_mib()
    return None


def get_available_gpu_memory(device, gpu_id, distributed=False, empty_cache=True):
    from sglang.srt._sim import gpu_state

    return gpu_state.free_gib(gpu_id)


def get_exception_traceback():
    from sglang.srt._sim.foreign import prune

    etype, value, tb = sys.exc_info()
    prune(value)
    tb = value.__traceback__ if value is not None else tb
    err_str = "".join(traceback.format_exception(etype, value, tb))
    return err_str


def kill_process_tree(
    parent_pid,
    include_parent: bool = True,
    skip_pid: int = None,
    wait_timeout: Optional[float] = 60,
):
    """Kill the process and all its child processes."""
    logger.info(
        f"kill_process_tree called: parent_pid={parent_pid}, "
        f"include_parent={include_parent}, pid={os.getpid()}"
    )

    if parent_pid is None:
        parent_pid = os.getpid()
        include_parent = False

    from sglang.srt._sim import procs

    children = procs.children_of(parent_pid)
    for child in children:
        if child == skip_pid:
            continue
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            pass
    if wait_timeout is not None:
        deadline = time.monotonic() + min(wait_timeout, 5.0)
        for child in children:
            procs.reap(child, deadline)

    if include_parent:
        try:
            if parent_pid == os.getpid():
                os.kill(parent_pid, signal.SIGKILL)
                sys.exit(0)
            os.kill(parent_pid, signal.SIGKILL)
        except OSError:
            pass


def configure_logger(server_args, prefix: str = ""):
    from sglang.srt.arg_groups.overrides import resolving_view

    level = getattr(logging, str(resolving_view(server_args).log_level).upper(), logging.INFO)
    format = f"[%(asctime)s{prefix}] %(message)s"
    logging.basicConfig(
        level=level,
        format=format,
        datefmt="%Y-%m-%d %H:%M:%S",
        force=True,
        stream=sys.stderr,
    )


def set_uvicorn_logging_configs(server_args=None):
    pass


def suppress_noisy_warnings():
    pass


def is_runai_obj_uri(path) -> bool:
    return str(path).startswith("runai://")


class ConnectorType:
    INSTANCE = "instance"
    FS = "fs"
    KV = "kv"


def parse_connector_type(url):
    if str(url).startswith("instance://"):
        return ConnectorType.INSTANCE
    return ConnectorType.FS


def add_prefix(name: str, prefix: str) -> str:
    """Add a weight path prefix to a module name."""
    return name if not prefix else f"{prefix}.{name}"


def make_layers(
    num_hidden_layers: int,
    layer_fn,
    pp_rank=None,
    pp_size=None,
    prefix: str = "",
    return_tuple: bool = False,
    offloader_kwargs=None,
):
    """Make a list of layers with the given layer function"""
    start_layer, end_layer = 0, num_hidden_layers
    modules = [
        layer_fn(idx=idx, prefix=add_prefix(idx, prefix))
        for idx in range(start_layer, end_layer)
    ]
    if return_tuple:
        return modules, start_layer, end_layer
    return modules
