"""What NCCL 2.27 does with the environment on this host (one node, 8 GPUs on PCIe).

* ``NCCL_PROTO`` / ``NCCL_ALGO``: comma lists, a leading ``^`` excludes, ``func:list`` (``;``
  separated) scopes a list to one collective, names are case-insensitive, unknown names are
  ignored. If AllReduce is left without a protocol or an algorithm this host has (NVLS,
  NVLSTree and CollNet* need NVSwitch / SHARP; PAT serves AllGather / ReduceScatter only),
  the first collective fails with ncclInvalidUsage after an NCCL WARN.
* ``NCCL_SOCKET_IFNAME`` naming no interface of this machine fails communicator init with
  ncclInternalError ("Bootstrap : no socket interface found").
* Debug lines go to stdout, as NCCL's default debug file, when NCCL_DEBUG asks for them.
"""

import os
import socket
import sys
import threading

from sglang.srt._sim import host

PROTOCOLS = ("LL", "LL128", "Simple")
ALGORITHMS = ("Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT")
COLLECTIVES = ("Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce")
_ALLREDUCE_HERE = {"Tree", "Ring"}
INTERNAL_ERROR = "internal error - please report this issue to the NCCL developers"
INVALID_USAGE = "invalid usage (run with NCCL_DEBUG=WARN for details)"


def _debug(kind, device, message):
    shown = {"WARN": ("WARN", "INFO", "TRACE"), "INFO": ("INFO", "TRACE")}[kind]
    if os.environ.get("NCCL_DEBUG", "").strip().upper() in shown:
        sys.stdout.write(f"{host.hostname()}:{os.getpid()}:{threading.get_native_id()} [{device}] NCCL {kind} {message}\n")
        sys.stdout.flush()


def enabled(value, names):
    """{collective: names enabled} for an NCCL_PROTO / NCCL_ALGO value."""
    canonical = {n.lower(): n for n in names}
    out = {c: set(names) for c in COLLECTIVES}
    parts = [p.strip() for p in value.split(";") if p.strip()]
    for position, part in enumerate(parts):
        scope = COLLECTIVES if position == 0 else ()  # only the first list may go unscoped
        if ":" in part:
            prefix, part = part.split(":", 1)
            scope = [c for c in COLLECTIVES if c.lower() == prefix.strip().lower()]
        exclude = part.startswith("^")
        chosen = {canonical[n.strip().lower()] for n in part.lstrip("^").split(",") if n.strip().lower() in canonical}
        for collective in scope:
            out[collective] = set(names) - chosen if exclude else chosen
    return out


def first_collective(device, function="AllReduce", datatype="ncclFloat32"):
    """None, or the NCCL error string of the warmup collective."""
    proto, algo = os.environ.get("NCCL_PROTO"), os.environ.get("NCCL_ALGO")
    protocols = enabled(proto, PROTOCOLS)[function] if proto else set(PROTOCOLS)
    algorithms = enabled(algo, ALGORITHMS)[function] if algo else set(ALGORITHMS)
    if function == "AllReduce":
        algorithms &= _ALLREDUCE_HERE
    if protocols and algorithms:
        return None
    said = (f" NCCL_ALGO was set to {algo}." if algo else "") + (f" NCCL_PROTO was set to {proto}." if proto else "")
    _debug("WARN", device, f"Error : no algorithm/protocol available for function {function} with datatype {datatype}.{said}")
    return INVALID_USAGE if (proto or algo) else INTERNAL_ERROR


def _interfaces():
    try:
        return [name for _, name in socket.if_nameindex()]
    except OSError:
        return ["lo"]


def _matching(spec, names):
    spec = spec.strip()
    exclude = spec.startswith("^")
    spec = spec.lstrip("^")
    exact = spec.startswith("=")
    prefixes = [p for p in spec.lstrip("=").split(",") if p]

    def listed(name):
        return any(name == p if exact else name.startswith(p) for p in prefixes)

    return [n for n in names if listed(n) != exclude]


def communicator_init(device):
    """None, or the NCCL error string of ncclGetUniqueId / ncclCommInitRank."""
    _debug("INFO", device, f"NCCL version {host.NCCL_VERSION}+cuda{host.CUDA_VERSION}")
    spec = os.environ.get("NCCL_SOCKET_IFNAME")
    if spec is not None:
        _debug("INFO", device, f"NCCL_SOCKET_IFNAME set by environment to {spec}")
        if not _matching(spec, _interfaces()):
            _debug("WARN", device, "Bootstrap : no socket interface found")
            return INTERNAL_ERROR
    for name in ("NCCL_PROTO", "NCCL_ALGO"):
        if os.environ.get(name) is not None:
            _debug("INFO", device, f"{name} set by environment to {os.environ[name]}")
    return None
