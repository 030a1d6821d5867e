"""autofix preflight probe for vLLM: its own argument parsing and engine-config creation.

Copied to the host and run with the target's Python (``launch.python``). Standard library
only: it must run in any Python that has vLLM, and import nothing of autofix. It speaks
the protocol of preflight.py (the SGLang probe), one JSON object per line both ways:

    -> hello   {"event": "ready", "version": "0.33.0", "simulated": false, "import_s": 30.1,
                "python": "3.11.7", "steps": ["parse_args", ...], "parser": {"flags": {...}, "aliases": {...}}}
               or {"event": "error", "kind": "no_vllm", "output": "<traceback>"} and exit 3
    <- request {"id": "a1", "argv": ["--model", ...], "timeout": 120, "env": {...}}
    -> answer  {"id": "a1", "ok": true|false, "status": "ok|failed|timeout|crashed",
                "steps_run": [...], "resolved": {field: value}, "changed": {field: [raw, resolved]},
                "output": "<log lines and the traceback, as vLLM printed them>", "seconds": 0.05}

It runs what ``vllm serve`` runs before it starts an engine, in the same order: the serve
parser (``make_arg_parser``) on the argv, ``validate_parsed_serve_args``, then
``AsyncEngineArgs.from_cli_args(args).create_engine_config()``: the pydantic config
classes and their validators (speculative, parallel, scheduler, cache, compilation).
vLLM is imported once (25-45 s); each request runs in a forked child.

``parser`` is the host's own parser read once at start: every long option with its kind
(bool | value | list), type, choices and default, so moves follow the installed release.

On a machine without a GPU, vLLM needs VLLM_TARGET_DEVICE=cpu in the probe's environment.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import select
import signal
import sys
import tempfile
import time
import traceback
from typing import Any

PROTOCOL_FD = -1
STEPS = ["parse_args", "validate_parsed_serve_args", "create_engine_config"]
# The engine config's parts whose fields answer "what did vLLM resolve" for a flag.
_SECTIONS = (
    "model_config",
    "cache_config",
    "parallel_config",
    "scheduler_config",
    "device_config",
    "load_config",
    "speculative_config",
    "compilation_config",
    "lora_config",
    "structured_outputs_config",
    "observability_config",
    "kv_transfer_config",
)
# Flags whose value is a JSON object of a config class: its resolved fields are reported
# as "flag_field.key" (speculative_config.num_speculative_tokens).
_JSON_SECTIONS = ("speculative_config", "compilation_config")


def _emit(obj: dict[str, Any]) -> None:
    os.write(PROTOCOL_FD, (json.dumps(obj, default=repr) + "\n").encode("utf-8"))


def _jsonable(value: Any, depth: int = 0) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if depth < 2 and isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v, depth + 1) for v in value]
    if depth < 2 and isinstance(value, dict):
        return {str(k): _jsonable(v, depth + 1) for k, v in value.items()}
    name = getattr(value, "name", None)  # an enum
    if isinstance(name, str) and type(value).__module__ != "builtins" and hasattr(type(value), "__members__"):
        return name
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


# --- the host's parser ---------------------------------------------------------------------


def _build_parser() -> argparse.ArgumentParser:
    """The parser ``vllm serve`` uses, wherever this release keeps it."""
    try:
        from vllm.utils.argparse_utils import FlexibleArgumentParser  # type: ignore[import-not-found]
    except ImportError:  # older releases
        from vllm.utils import FlexibleArgumentParser  # type: ignore[import-not-found]
    try:
        from vllm.entrypoints.common.cli_args import make_arg_parser  # type: ignore[import-not-found]
    except ImportError:
        from vllm.entrypoints.openai.cli_args import make_arg_parser  # type: ignore[import-not-found]
    parser = make_arg_parser(FlexibleArgumentParser(prog="vllm serve"))
    return parser  # type: ignore[no-any-return]


def _validator() -> Any:
    for module in ("vllm.entrypoints.common.cli_args", "vllm.entrypoints.openai.cli_args"):
        try:
            found = __import__(module, fromlist=["validate_parsed_serve_args"])
        except ImportError:
            continue
        check = getattr(found, "validate_parsed_serve_args", None)
        if check is not None:
            return check
    return None


def _flag_facts(parser: argparse.ArgumentParser) -> tuple[dict[str, Any], dict[str, str]]:
    """Every long option: kind, type, choices, default; other long spellings as aliases."""
    flags: dict[str, Any] = {}
    aliases: dict[str, str] = {}
    for action in parser._actions:  # the parser's own table; there is no public one
        longs = [o[2:] for o in action.option_strings if o.startswith("--")]
        if not longs or isinstance(action, argparse._HelpAction):
            continue
        name = longs[0]
        positive = [n for n in longs if not n.startswith("no-")]
        if positive:
            name = positive[0]
        if isinstance(action, (argparse._StoreTrueAction, argparse.BooleanOptionalAction)):
            kind = "bool"
        elif isinstance(action, argparse._StoreFalseAction):
            kind = "bool_false"
        elif action.nargs in ("+", "*") or (isinstance(action.nargs, int) and action.nargs > 1):
            kind = "list"
        else:
            kind = "value"
        info: dict[str, Any] = {"kind": kind}
        kind_of = getattr(action.type, "__name__", None) if action.type is not None else None
        if kind_of:
            info["type"] = kind_of
        if action.choices:
            try:
                info["choices"] = [_jsonable(c) for c in action.choices]
            except TypeError:
                pass
        default = _jsonable(action.default)
        if default is not None and default != argparse.SUPPRESS:
            info["default"] = default
        info["dest"] = action.dest
        keys = _config_keys(action.dest)
        if keys:
            info["keys"] = keys
        flags[name] = info
        for other in longs:
            # --enable-x / --disable-x share a dest with opposite meanings: no aliases.
            if other != name and not other.startswith(("no-", "disable-")) and not name.startswith("disable-"):
                aliases[other] = name
    return flags, aliases


def _config_keys(dest: str) -> list[str]:
    """For a flag that takes a config class as JSON (--speculative-config), the keys the
    class accepts: its fields, read from the installed vllm.config."""
    if not dest.endswith("_config"):
        return []
    name = "".join(part.capitalize() for part in dest.split("_"))
    try:
        import vllm.config as configs  # type: ignore[import-not-found]

        found = getattr(configs, name, None)
    except Exception:
        return []
    fields = getattr(found, "__dataclass_fields__", None) or getattr(found, "model_fields", None) or {}
    return [n for n in fields if not n.startswith("_")]


# --- one candidate -------------------------------------------------------------------------


def _resolved(config: Any, namespace: argparse.Namespace, set_dests: list[str]) -> dict[str, Any]:
    """What vLLM resolved for the flags the candidate set, and a few it always decides
    (max_model_len, gpu_memory_utilization, ...); JSON-valued sections field by field."""
    wanted = set(set_dests) | {
        "max_model_len",
        "tensor_parallel_size",
        "pipeline_parallel_size",
        "gpu_memory_utilization",
        "max_num_batched_tokens",
        "max_num_seqs",
        "block_size",
        "dtype",
        "kv_cache_dtype",
        "quantization",
    }
    out: dict[str, Any] = {}
    for section_name in _SECTIONS:
        section = getattr(config, section_name, None)
        if section is None:
            continue
        if section_name in _JSON_SECTIONS:
            for field in _fields(section):
                try:
                    value = getattr(section, field)
                except Exception:
                    continue
                if value is None or isinstance(value, (bool, int, float, str)):
                    out["%s.%s" % (section_name, field)] = value
        for dest in wanted:
            if dest in out:
                continue
            try:
                value = getattr(section, dest)
            except Exception:
                continue
            out[dest] = _jsonable(value)
    for dest in set_dests:
        if dest not in out and hasattr(namespace, dest):
            out[dest] = _jsonable(getattr(namespace, dest))
    return out


def _fields(obj: Any) -> list[str]:
    found = getattr(type(obj), "__dataclass_fields__", None) or getattr(type(obj), "model_fields", None)
    return [n for n in (found or {}) if not n.startswith("_")]


def _run(argv: list[str], steps_run: list[str]) -> dict[str, Any]:
    """In the forked child: vLLM's own steps, as ``vllm serve`` takes them."""
    parser = _build_parser()
    namespace = parser.parse_args(argv)
    steps_run.append("parse_args")
    if getattr(namespace, "model_tag", None) is not None:
        namespace.model = namespace.model_tag  # as `vllm serve MODEL` does
    check = _validator()
    if check is not None:
        check(namespace)
        steps_run.append("validate_parsed_serve_args")
    from vllm.engine.arg_utils import AsyncEngineArgs  # type: ignore[import-not-found]

    engine_args = AsyncEngineArgs.from_cli_args(namespace)
    try:
        from vllm.usage.usage_lib import UsageContext  # type: ignore[import-not-found]

        config = engine_args.create_engine_config(usage_context=UsageContext.OPENAI_API_SERVER)
    except ImportError:
        config = engine_args.create_engine_config()
    steps_run.append("create_engine_config")
    defaults = parser.parse_args([])
    set_dests = [d for d in vars(namespace) if getattr(namespace, d) != getattr(defaults, d, None)]
    resolved = _resolved(config, namespace, set_dests)
    changed = {}
    for dest in set_dests:
        asked = _jsonable(getattr(namespace, dest))
        if dest in resolved and resolved[dest] != asked and not isinstance(asked, (dict, list)):
            changed[dest] = [asked, resolved[dest]]
    return {"ok": True, "status": "ok", "steps_run": steps_run, "resolved": resolved, "changed": changed}


def _child(argv: list[str], env: dict[str, str], result_fd: int, log_path: str) -> None:
    log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log_fd, 1)
    os.dup2(log_fd, 2)
    sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
    sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)
    # vLLM's logger wrote to the parent's stderr; point its handlers at the log file.
    for handler in logging.getLogger("vllm").handlers + logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(sys.stderr)
    os.environ.update(env)
    steps_run: list[str] = []
    try:
        answer = _run(argv, steps_run)
    except BaseException as exc:  # SystemExit from argparse included
        traceback.print_exc()
        sys.stderr.flush()
        answer = {"ok": False, "status": "failed", "steps_run": steps_run, "exception": type(exc).__name__}
    os.write(result_fd, json.dumps(answer, default=repr).encode("utf-8"))
    os.close(result_fd)
    os._exit(0)


def _read_log(path: str, limit: int = 2_000_000) -> str:
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError:
        return ""
    text = data[:limit].decode("utf-8", errors="replace")
    return text + ("\n[autofix probe: output cut at 2 MB]\n" if len(data) > limit else "")


def _handle(request: dict[str, Any], version: str) -> dict[str, Any]:
    started = time.monotonic()
    argv = [str(a) for a in request.get("argv", [])]
    timeout = float(request.get("timeout", 120))
    env = {str(k): str(v) for k, v in (request.get("env") or {}).items()}
    fd, log_path = tempfile.mkstemp(prefix="autofix-preflight-", suffix=".log")
    os.close(fd)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            _child(argv, env, write_fd, log_path)
        finally:
            os._exit(70)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = started + timeout
    status = None
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            status = "timeout"
            break
        ready, _, _ = select.select([read_fd], [], [], min(remaining, 1.0))
        if ready:
            chunk = os.read(read_fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    os.close(read_fd)
    if status == "timeout":
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    _, wait_status = os.waitpid(pid, 0)
    output = _read_log(log_path)
    try:
        os.unlink(log_path)
    except OSError:
        pass
    answer = None
    if status is None and chunks:
        try:
            answer = json.loads(b"".join(chunks).decode("utf-8"))
        except ValueError:
            answer = None
    if answer is None:
        if status is None:
            status = "crashed"
            if os.WIFSIGNALED(wait_status):
                output += "\n[autofix probe: validation child killed by signal %d]\n" % os.WTERMSIG(wait_status)
        answer = {"ok": False, "status": status, "steps_run": []}
    answer.update({"id": request.get("id"), "version": version, "output": output})
    answer["seconds"] = round(time.monotonic() - started, 3)
    return answer


def _warm(parser: argparse.ArgumentParser) -> None:
    """One throwaway config in a child, so the lazy imports of config creation (most of
    a first call's 10 s) are paid here, once, not by every candidate: the parent imports
    the modules the child needed."""
    try:
        import vllm.config
        import vllm.engine.arg_utils  # type: ignore[import-not-found]
        import vllm.transformers_utils.config  # type: ignore[import-not-found]  # noqa: F401
    except Exception:
        pass
    try:
        from vllm.platforms import current_platform  # type: ignore[import-not-found]

        getattr(current_platform, "device_type", None)
    except Exception:
        pass


def main() -> int:
    global PROTOCOL_FD
    PROTOCOL_FD = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    started = time.monotonic()
    try:
        import vllm

        version = str(getattr(vllm, "__version__", "unknown"))
        simulated = bool(getattr(vllm, "SIMULATED", False))
        parser = _build_parser()
        flags, aliases = _flag_facts(parser)
    except BaseException:
        _emit({"event": "error", "kind": "no_vllm", "python": sys.executable, "output": traceback.format_exc()})
        return 3
    _warm(parser)
    steps = STEPS if _validator() is not None else [s for s in STEPS if s != "validate_parsed_serve_args"]
    _emit(
        {
            "event": "ready",
            "version": version,
            "simulated": simulated,
            "import_s": round(time.monotonic() - started, 3),
            "python": "%d.%d.%d" % sys.version_info[:3],
            "steps": steps,
            "parser": {"flags": flags, "aliases": aliases},
        }
    )
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError:
            _emit({"id": None, "ok": False, "status": "bad_request", "output": line[:200]})
            continue
        if request.get("quit"):
            break
        _emit(_handle(request, version))
    return 0


if __name__ == "__main__":
    sys.exit(main())
