# Copyright 2023-2024 SGLang Team
# Licensed under the Apache License, Version 2.0 (the "License");
# ==============================================================================
"""Server argument construction, resolution, CLI registration, and network ports.

SIMULATOR: the CLI surface is generated from the real 0.5.23 parser (``_flags.json``);
resolution runs the simulated pipeline in ``arg_groups/pipeline.py``.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import logging
import os
import sys
import tempfile
from typing import Any

from sglang.srt.arg_groups.arg_utils import record_fields
from sglang.srt.arg_groups.argparse_actions import (
    DeprecatedStoreConstAction,
    DeprecatedStoreTrueAction,
    LoRAPathAction,
)
from sglang.srt.arg_groups.overrides import (
    model_config_of,
    resolution_result,
    resolving_view,
)

logger = logging.getLogger(__name__)

# Public choice lists.
from sglang.srt.arg_groups.choices import (  # noqa: F401,E402
    CHUNKED_PREFIX_CACHE_SUPPORTED_ATTENTION_BACKENDS,
    DETERMINISTIC_ATTENTION_BACKEND_CHOICES,
    RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND,
)
from sglang.srt.model_executor.cuda_graph_config import (  # noqa: E402
    parse_cuda_graph_backend_arg,
    parse_cuda_graph_config_arg,
)
from sglang.srt.utils.common import (  # noqa: E402
    human_readable_int,
    json_list_type,
    nullable_str,
)

_FLAGS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_flags.json")
with open(_FLAGS_PATH, encoding="utf-8") as _f:
    _FLAGS = json.load(_f)

_TYPES = {
    "str": str,
    "int": int,
    "float": float,
    "loads": json.loads,
    "human_readable_int": human_readable_int,
    "json_list_type": json_list_type,
    "nullable_str": nullable_str,
    "parse_cuda_graph_config_arg": parse_cuda_graph_config_arg,
    "parse_cuda_graph_backend_arg": parse_cuda_graph_backend_arg,
}

_CUSTOM_ACTIONS = {
    "DeprecatedStoreTrueAction": DeprecatedStoreTrueAction,
    "DeprecatedStoreConstAction": DeprecatedStoreConstAction,
    "LoRAPathAction": LoRAPathAction,
    "BooleanOptionalAction": argparse.BooleanOptionalAction,
}

_BUILTIN_ACTIONS = {
    "_StoreAction": "store",
    "_StoreTrueAction": "store_true",
    "_StoreFalseAction": "store_false",
    "_StoreConstAction": "store_const",
    "_AppendAction": "append",
    "_CountAction": "count",
}

# Fields without a CLI spelling that resolution declares (no_cli in the real tree).
_NO_CLI_FIELDS = {
    "uses_mamba_radix_cache": False,
    "grpc_worker_threads": None,
    "custom_sigquit_handler": None,
    "_swa_full_tokens_ratio_explicitly_set": None,
}

_SET_CHOICES = {"sampling_backend"}

_HIDDEN_FROM_REPR = {"watermark_key", "watermark_key_b", "watermark_config", "help"}


def _declared_fields():
    fields = {}
    for action in _FLAGS["actions"]:
        dest = action["dest"]
        if dest in ("help", "config") or dest in fields:
            continue
        fields[dest] = action["default"]
    fields.update(_NO_CLI_FIELDS)
    return fields


class ServerArgs:
    """Raw server configuration, sealed when resolution starts."""

    _FIELDS = _declared_fields()

    def __init__(self, **kwargs):
        for name, default in self._FIELDS.items():
            value = kwargs.pop(name, copy.deepcopy(default))
            object.__setattr__(self, name, value)
        if kwargs:
            raise TypeError(f"Unexpected keyword arguments: {sorted(kwargs)}")
        self.__post_init__()

    def __post_init__(self):
        """Leave construction unresolved; launchers and publishers call ``resolve_once``."""

    def resolve_once(self) -> None:
        """Resolve once, preserving declarations across pickling to child processes.

        Handlers are not idempotent over their own output. A failed resolution
        cannot be retried on the same record.
        """
        if getattr(self, "_resolution_finished", False):
            return
        if getattr(self, "_resolution_failed", False):
            raise RuntimeError(
                "resolution already failed on this ServerArgs; the handlers that "
                "ran left their writes on the record, and a second pass would "
                "read that partial output as fresh input. Build a new record "
                "from the corrected arguments."
            )
        from sglang.srt.arg_groups.pipeline import run_resolution_pipeline

        self._input_frozen = True

        try:
            run_resolution_pipeline(self)
        except BaseException:
            self._resolution_failed = True
            raise
        finally:
            self._input_frozen = False
        # Also mark the dummy/absent-model path, which returns early from the pipeline.
        self._resolution_finished = True

    @property
    def launch_command(self) -> str | None:
        """Original CLI arguments or Engine call, with secrets redacted."""
        return getattr(self, "_launch_command", None)

    def __repr__(self) -> str:
        values = ", ".join(
            f"{field.name}={getattr(self, field.name)!r}"
            for field in record_fields(type(self))
            if field.name not in _HIDDEN_FROM_REPR and not field.name.startswith("_")
        )
        return f"ServerArgs({values})"

    def resolved_dict(self) -> dict[str, Any]:
        """Serialize resolved field values, excluding bookkeeping."""
        resolved = {
            field.name: copy.deepcopy(resolution_result(self, field.name))
            for field in record_fields(type(self))
            if not field.name.startswith("_")
        }
        resolved["enable_dp_attention"] = resolving_view(self).attn_dp_size > 1
        return resolved

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser):
        for spec in _FLAGS["actions"]:
            if spec["cls"] == "_HelpAction":
                continue
            kwargs: dict[str, Any] = {"dest": spec["dest"], "help": spec["help"]}
            option_strings = list(spec["option_strings"])
            cls = spec["cls"]
            if cls in _BUILTIN_ACTIONS:
                kwargs["action"] = _BUILTIN_ACTIONS[cls]
            elif cls in _CUSTOM_ACTIONS:
                kwargs["action"] = _CUSTOM_ACTIONS[cls]
            else:
                raise RuntimeError(f"simulator: unknown argparse action {cls}")
            if cls == "BooleanOptionalAction":
                option_strings = option_strings[: len(option_strings) // 2]
                suffix = " (default: %(default)s)"
                if kwargs["help"] and kwargs["help"].endswith(suffix):
                    kwargs["help"] = kwargs["help"][: -len(suffix)]
            if cls in ("_StoreAction", "_AppendAction", "BooleanOptionalAction") or cls in (
                "LoRAPathAction",
                "DeprecatedStoreConstAction",
            ):
                if spec["type"] is not None:
                    kwargs["type"] = _TYPES[spec["type"]]
                if spec["choices"] is not None:
                    kwargs["choices"] = spec["choices"]
                    if spec["dest"] in _SET_CHOICES:
                        # Real 0.5.23 builds these choices as a set: their order in
                        # usage and error messages follows string hashing.
                        kwargs["choices"] = set(spec["choices"])
                if cls == "DeprecatedStoreConstAction" or (
                    spec["nargs"] is not None and cls != "BooleanOptionalAction"
                ):
                    kwargs["nargs"] = spec["nargs"]
                if spec["metavar"] is not None:
                    kwargs["metavar"] = spec["metavar"]
            if cls in ("_StoreConstAction",):
                kwargs["const"] = spec["const"]
            if spec["required"]:
                kwargs["required"] = True
            kwargs["default"] = spec["default"]
            for key in ("help", "default"):
                if kwargs[key] == argparse.SUPPRESS:
                    kwargs[key] = argparse.SUPPRESS  # argparse compares by identity
            for key, value in (spec.get("extra") or {}).items():
                kwargs[key] = value
            parser.add_argument(*option_strings, **kwargs)

    @classmethod
    def from_cli_args(cls, args: argparse.Namespace):
        attrs = [attr.name for attr in record_fields(cls) if hasattr(args, attr.name)]
        return cls(**{attr: getattr(args, attr) for attr in attrs})

    def url(self, port: int | None = None):
        scheme = "https" if self.ssl_certfile else "http"
        host = self.host
        if not host or host == "0.0.0.0":
            host = "127.0.0.1"
        elif host == "::":
            host = "::1"
        return f"{scheme}://{host}:{port if port is not None else self.port}"

    def __setattr__(self, name, value):
        # Seal configuration fields, including underscore-prefixed ones, but allow bookkeeping.
        if not name.startswith("_") or name in self._FIELDS:
            if getattr(self, "_input_frozen", False):
                raise AttributeError(
                    f"server_args.{name} assigned during resolution; the record "
                    "is the operator's input and resolution does not write it -- "
                    "declare the decision with declare_resolution(server_args, "
                    "source, **fields) so it carries a source and leaves the "
                    "input intact."
                )
            if getattr(self, "_resolution_finished", False):
                raise AttributeError(
                    f"server_args.{name} assigned after resolution; server_args is "
                    "read-only -- use get_context().override(source, ...) to change "
                    "resolved config; a value one runner owns travels as a "
                    "constructor argument."
                )
        object.__setattr__(self, name, value)

    def check_server_args(self):
        from sglang.srt.arg_groups.validation_hook import check_server_args

        check_server_args(self)

    def model_config(self):
        return model_config_of(self)


def _record_invocation(argv) -> None:
    """AUTOFIX_SIM_RECORD=<file>: append what this process was asked to run (sim only)."""
    path = os.environ.get("AUTOFIX_SIM_RECORD")
    if not path:
        return
    main = sys.modules.get("__main__")
    entry = getattr(getattr(main, "__spec__", None), "name", None) or os.path.basename(
        getattr(main, "__file__", "") or ""
    )
    line = json.dumps({"argv": list(argv), "pid": os.getpid(), "entry": entry})
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    finally:
        os.close(fd)


def prepare_server_args(argv: list[str]) -> ServerArgs:
    """
    Prepare the server arguments from the command line arguments.

    Args:
        args: The command line arguments. Typically, it should be `sys.argv[1:]`
            to ensure compatibility with `parse_args` when no arguments are passed.

    Returns:
        The server arguments.
    """
    _record_invocation(argv)
    parser = argparse.ArgumentParser(prog="sglang serve")
    ServerArgs.add_cli_args(parser)

    radix_eviction_policy_explicitly_set = any(
        arg == "--radix-eviction-policy" or arg.startswith("--radix-eviction-policy=")
        for arg in argv
    )

    raw_args = parser.parse_args(argv)
    raw_args._radix_eviction_policy_explicitly_set = (
        radix_eviction_policy_explicitly_set
    )

    # Set up basic logging before ServerArgs.__post_init__ so that
    # logger.info / logger.warning calls there are properly formatted.
    logging.basicConfig(
        level=getattr(logging, raw_args.log_level.upper()),
        format="[%(asctime)s] %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
        force=True,
    )

    server_args = ServerArgs.from_cli_args(raw_args)
    # Not a field: the record's fields are the configuration, and this is how
    # the configuration was asked for.
    server_args._launch_command = " ".join(argv)
    return server_args


@dataclasses.dataclass
class PortArgs:
    # The port for nccl initialization (torch.dist)
    nccl_port: int
    tokenizer_ipc_name: str = ""
    scheduler_input_ipc_name: str = ""
    detokenizer_ipc_name: str = ""

    @staticmethod
    def init_new(server_args: ServerArgs, dp_rank=None, worker_ports=None) -> "PortArgs":
        from sglang.srt._sim import procs

        nccl_port = server_args.nccl_port or procs.free_port()
        return PortArgs(
            nccl_port=nccl_port,
            tokenizer_ipc_name=f"ipc://{tempfile.gettempdir()}/sim-tokenizer",
            scheduler_input_ipc_name=f"ipc://{tempfile.gettempdir()}/sim-scheduler",
            detokenizer_ipc_name=f"ipc://{tempfile.gettempdir()}/sim-detokenizer",
        )
