"""The NCCL behaviour the simulated ranks reproduce (NCCL 2.27, single node, PCIe).

* ``NCCL_PROTO`` / ``NCCL_ALGO`` are parsed like NCCL's ``parseList``: comma lists, a
  leading ``^`` negates, ``func:list;func:list`` scopes a list to one collective, names
  are case-insensitive and unknown names are ignored. When nothing usable is left for
  AllReduce the first collective fails with ``ncclInvalidUsage`` and NCCL WARNs
  "Error : no algorithm/protocol available for function AllReduce ...". NVLS, NVLSTree and
  CollNet* need NVSwitch / SHARP, which this PCIe host does not have; PAT only serves
  AllGather / ReduceScatter.
* ``NCCL_SOCKET_IFNAME`` naming no interface of this machine fails ``ncclCommInitRank``
  with ``ncclInternalError`` ("Bootstrap : no socket interface found").
Debug lines are printed to stdout (NCCL's default debug file) when NCCL_DEBUG asks for them.
"""

import os
import socket
import sys
import threading

from sglang.srt._sim import host

PROTOCOLS = ("LL", "LL128", "Simple")
ALGORITHMS = ("Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT")
FUNCTIONS = ("Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce")
# What this host (single node, 8 GPUs on PCIe, no NVSwitch, no SHARP) can run for AllReduce.
_ALLREDUCE_ALGOS_AVAILABLE = {"Tree", "Ring"}

ncclSuccess = 0
ncclUnhandledCudaError = 1
ncclSystemError = 2
ncclInternalError = 3
ncclInvalidArgument = 4
ncclInvalidUsage = 5

_ERROR_STRINGS = {
    ncclSuccess: "no error",
    ncclUnhandledCudaError: "unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
    ncclSystemError: "unhandled system error (run with NCCL_DEBUG=INFO for details)",
    ncclInternalError: "internal error - please report this issue to the NCCL developers",
    ncclInvalidArgument: "invalid argument (run with NCCL_DEBUG=WARN for details)",
    ncclInvalidUsage: "invalid usage (run with NCCL_DEBUG=WARN for details)",
}

_last_error = {"text": ""}


def get_error_string(result):
    return _ERROR_STRINGS.get(result, "unknown result code")


def last_error():
    return _last_error["text"]


def _debug_level():
    return os.environ.get("NCCL_DEBUG", "").strip().upper()


def _emit(kind, device, message):
    level = _debug_level()
    wanted = {"WARN": ("WARN", "INFO", "TRACE"), "INFO": ("INFO", "TRACE")}[kind]
    if level not in wanted:
        return
    line = f"{host.hostname()}:{os.getpid()}:{threading.get_native_id()} [{device}] NCCL {kind} {message}\n"
    sys.stdout.write(line)
    sys.stdout.flush()


def warn(device, message):
    _last_error["text"] = message
    _emit("WARN", device, message)


def info(device, message):
    _emit("INFO", device, message)


def parse_list(value, elems, functions=FUNCTIONS):
    """NCCL's parseList: returns {function: set(enabled elems)}."""
    lower = {e.lower(): e for e in elems}
    enabled = {f: set(elems) for f in functions}
    first = True
    for part in value.split(";"):
        part = part.strip()
        if not part:
            continue
        funcs = list(functions)
        if ":" in part:
            prefix, part = part.split(":", 1)
            wanted = [f for f in functions if f.lower() == prefix.strip().lower()]
            funcs = wanted
        elif not first:
            funcs = []  # only the first list may lack a prefix
        first = False
        negate = part.startswith("^")
        if negate:
            part = part[1:]
        names = {lower[t.strip().lower()] for t in part.split(",") if t.strip().lower() in lower}
        for f in funcs:
            enabled[f] = set(elems) - names if negate else names
    return enabled


def check_collective(function, datatype, device):
    """Result of launching ``function``: ncclSuccess or the error code (after WARN)."""
    proto_env = os.environ.get("NCCL_PROTO")
    algo_env = os.environ.get("NCCL_ALGO")
    protos = parse_list(proto_env, PROTOCOLS)[function] if proto_env else set(PROTOCOLS)
    algos = parse_list(algo_env, ALGORITHMS)[function] if algo_env else set(ALGORITHMS)
    if function == "AllReduce":
        algos &= _ALLREDUCE_ALGOS_AVAILABLE
    if protos and algos:
        return ncclSuccess
    algo_str = f" NCCL_ALGO was set to {algo_env}." if algo_env else ""
    proto_str = f" NCCL_PROTO was set to {proto_env}." if proto_env else ""
    warn(
        device,
        f"Error : no algorithm/protocol available for function {function} with datatype "
        f"{datatype}.{algo_str}{proto_str}",
    )
    return ncclInvalidUsage if (algo_env or proto_env) else ncclInternalError


def _interfaces():
    try:
        return [name for _, name in socket.if_nameindex()]
    except OSError:
        return ["lo"]


def _ifname_matches(spec, names):
    spec = spec.strip()
    exclude = spec.startswith("^")
    if exclude:
        spec = spec[1:]
    exact = spec.startswith("=")
    if exact:
        spec = spec[1:]
    prefixes = [p for p in spec.split(",") if p]

    def match(n):
        return any((n == p) if exact else n.startswith(p) for p in prefixes)

    return [n for n in names if (not match(n)) == exclude]


def check_comm_init(device):
    """Result of ncclCommInitRank on this host."""
    info(device, f"NCCL version {host.NCCL_VERSION}+cuda{host.CUDA_VERSION}")
    spec = os.environ.get("NCCL_SOCKET_IFNAME")
    if spec is not None:
        info(device, f"NCCL_SOCKET_IFNAME set by environment to {spec}")
        if not _ifname_matches(spec, _interfaces()):
            warn(device, "Bootstrap : no socket interface found")
            return ncclInternalError
    for name in ("NCCL_PROTO", "NCCL_ALGO"):
        if os.environ.get(name) is not None:
            info(device, f"{name} set by environment to {os.environ[name]}")
    return ncclSuccess
