"""autofix preflight probe: SGLang's own argument validation, without a server or weights.

Copied to the host and run with the target's Python (``launch.python``). Standard library
only: it must run in any Python that has SGLang, and import nothing of autofix.

Protocol (one JSON object per line, both ways; protocol lines go to the ORIGINAL stdout,
everything SGLang prints is moved to stderr so it cannot corrupt them):

    -> hello   {"event": "ready", "version": "0.5.23", "simulated": false, "import_s": 11.2,
                "python": "3.11.7", "steps": ["prepare_server_args", "resolve_once", ...],
                "parser": {"flags": {name: {kind, type, choices, default, deprecated, help}},
                           "aliases": {other spelling: name}}}
               or {"event": "error", "kind": "no_sglang", "output": "<traceback>"} and exit 3
    <- request {"id": "a1", "argv": ["--model-path", ...], "timeout": 120, "env": {...}}
    -> answer  {"id": "a1", "ok": true|false, "status": "ok|failed|timeout|crashed",
                "steps_run": [...], "resolved": {field: value}, "changed": {field: [raw, resolved]},
                "output": "<log lines and the traceback, as SGLang printed them>", "seconds": 0.4}

SGLang is imported once (10-14 s); each request is resolved in a forked child, because
resolution mutates module state and a failed ServerArgs cannot be resolved twice. A child
that hangs is killed at its timeout; a child that dies costs that request only.

It runs what SGLang's own launcher runs, in the same order: ``prepare_server_args(argv)``
(argparse; versions before 0.5 also validate in ``__post_init__`` here), then
``ServerArgs.resolve_once()`` where the installed version has it, then
``ServerArgs.check_server_args()`` (in 0.5.23 the LoRA, chunked-prefill/page-size and
pipeline-parallel checks live only there). ``steps_run`` says which of them ran.
"""

from __future__ import annotations

import dataclasses
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
# Fields SGLang fills with something new on every run: not a decision worth showing.
_NOISY = {"random_seed"}


def _emit(obj: dict[str, Any]) -> None:
    data = (json.dumps(obj, default=repr) + "\n").encode("utf-8")
    os.write(PROTOCOL_FD, data)


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return repr(value)


def _steps(server_args_cls: type) -> list[str]:
    steps = ["prepare_server_args"]
    if hasattr(server_args_cls, "resolve_once"):
        steps.append("resolve_once")
    if hasattr(server_args_cls, "check_server_args"):
        steps.append("check_server_args")
    return steps


def _action_kind(action: Any) -> str:
    """bool (a bare flag that sets True), bool_false, list (several values) or value."""
    import argparse

    nargs = action.nargs
    if isinstance(action, argparse.BooleanOptionalAction) or (nargs == 0 and action.const is True):
        return "bool"
    if nargs == 0 and action.const is False:
        return "bool_false"
    if nargs == 0:
        return "bool"
    if nargs in ("*", "+") or (isinstance(nargs, int) and nargs > 1):
        return "list"
    return "value"


def _parser_facts(server_args_cls: type) -> dict[str, Any]:
    """What the installed parser says about each flag: kind, type, choices, default,
    other spellings, and the deprecation the help or the action names (any version:
    every release builds its parser with ServerArgs.add_cli_args)."""
    import argparse

    parser = argparse.ArgumentParser(prog="sglang serve", add_help=False)
    server_args_cls.add_cli_args(parser)  # type: ignore[attr-defined]
    if dataclasses.is_dataclass(server_args_cls):
        fields = {f.name for f in dataclasses.fields(server_args_cls)}
    else:
        fields = set(
            getattr(server_args_cls, "__struct_fields__", ()) or getattr(server_args_cls, "__annotations__", {})
        )
    flags: dict[str, Any] = {}
    aliases: dict[str, str] = {}
    by_field: dict[str, str] = {}
    for action in parser._actions:
        longs = [s[2:] for s in action.option_strings if s.startswith("--")]
        if not longs:
            continue
        # The spelling named after the record's field (tp-size, not tensor-parallel-size).
        own = str(action.dest).replace("_", "-")
        named = [n for n in longs if n.replace("-", "_") in fields]
        name = named[0] if named else own if own in longs else longs[0]
        info: dict[str, Any] = {"kind": _action_kind(action)}
        kind_of = getattr(action.type, "__name__", None)
        if kind_of:
            info["type"] = kind_of
        if action.choices is not None:
            try:
                info["choices"] = [_jsonable(c) for c in action.choices]
            except TypeError:
                pass
        if action.default is not None and action.default is not argparse.SUPPRESS:
            info["default"] = _jsonable(action.default)
        help_text = str(action.help or "")
        if info["kind"] == "value" and kind_of in (None, "str") and action.choices is None:
            # Free text: the controller reads the help for what it documents as a secret
            # (a key, a token, a password: autofix/secrets.py), so it never shows in clear.
            info["help"] = help_text[:300]
        elif (
            help_text
            and info["kind"] in ("value", "list")
            and (kind_of in ("int", "float") or str(kind_of).endswith("_int"))
        ):
            # A number: the help names its unit and the number for no limit or off
            # (autofix/meant.py reads a refused value by them).
            info["help"] = help_text[:300]
        new_flag = getattr(action, "new_flag", None)
        if "deprecat" in help_text.lower() or "Deprecated" in type(action).__name__:
            info["deprecated"] = str(new_flag) if new_flag else help_text[:200]
        if name in flags:  # two actions for one name (a deprecated alias registered twice)
            continue
        flags[name] = info
        by_field.setdefault(str(action.dest), name)
        for other in longs:
            if other != name:
                if isinstance(action, argparse.BooleanOptionalAction) and other.startswith("no-"):
                    flags.setdefault(other, {"kind": "bool", "negates": name})
                else:
                    aliases[other] = name
    for field, value in _fallbacks(server_args_cls).items():
        flag = by_field.get(field)
        if flag is not None and flag in flags and "default" not in flags[flag]:
            flags[flag]["fallback"] = _jsonable(value)
    return {"flags": flags, "aliases": aliases}


def _fallbacks(server_args_cls: type) -> dict[str, Any]:
    """What an unset field resolves to when its default is None, where the installed
    version declares it (0.5.x: arg_utils.fallbacks_of); empty elsewhere."""
    try:
        from sglang.srt.arg_groups.arg_utils import fallbacks_of  # type: ignore[import-not-found]

        found = fallbacks_of(server_args_cls)
    except Exception:
        return {}
    return dict(found) if isinstance(found, dict) else {}


def _snapshot(obj: Any, names: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names:
        try:
            out[name] = _jsonable(getattr(obj, name))
        except Exception:  # a property that needs a GPU, etc.
            continue
    return out


def _field_names(sa: Any) -> list[str]:
    """The record's fields: a dataclass before 0.5, a msgspec Struct in 0.5.x."""
    if dataclasses.is_dataclass(sa):
        return [f.name for f in dataclasses.fields(sa)]
    fields = getattr(type(sa), "__struct_fields__", None)
    if fields:
        return list(fields)
    return [n for n in vars(sa) if not n.startswith("_")]


def _resolved_view(sa: Any) -> Any:
    """What the record resolved to: 0.5.x resolves into a view of the record; before, the
    record itself."""
    try:
        from sglang.srt.arg_groups.overrides import resolved_view  # type: ignore[import-not-found]

        return resolved_view(sa)
    except Exception:
        return sa


def _resolve(argv: list[str], set_fields: list[str], steps_run: list[str], held: dict[str, Any]) -> dict[str, Any]:
    """Runs in the forked child; returns the answer fields. ``held`` keeps the record and
    its values as parsed, for the values it had resolved when a check refused it."""
    from sglang.srt.server_args import prepare_server_args  # type: ignore[import-not-found]

    sa = prepare_server_args(argv)
    steps_run.append("prepare_server_args")
    names = _field_names(sa)
    # Before resolve_once (0.4.x, early 0.5.x), the record resolves itself as it is built:
    # what the user gave is what the parser read, not the record.
    raw = _snapshot(sa, names) if hasattr(sa, "resolve_once") else (_parsed(sa, argv, names) or _snapshot(sa, names))
    held.update(record=sa, names=names, raw=raw)
    if hasattr(sa, "resolve_once"):
        sa.resolve_once()
        steps_run.append("resolve_once")
    if hasattr(sa, "check_server_args"):
        sa.check_server_args()
        steps_run.append("check_server_args")
    resolved_all = _snapshot(_resolved_view(sa), names)
    changed = {
        n: [raw.get(n), v]
        for n, v in resolved_all.items()
        if raw.get(n) != v and not (n in _NOISY and n not in set_fields)
    }
    keep = set(set_fields) | set(changed)
    resolved = {n: v for n, v in resolved_all.items() if n in keep}
    return {"ok": True, "status": "ok", "steps_run": steps_run, "resolved": resolved, "changed": changed}


def _held_from(exc: BaseException, argv: list[str]) -> dict[str, Any]:
    """When the refusal came while the record was still being built and resolved (0.5.23's
    prepare_server_args does both): the record, from the failing frames' locals (innermost
    first), and its values as the parser alone reads the argv. Empty if none is found."""
    tb = exc.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        for value in list(frame.f_locals.values()):
            if type(value).__name__ != "ServerArgs":
                continue
            names = _field_names(value)
            raw = _parsed(value, argv, names)
            return {"record": value, "names": names, "raw": raw} if raw is not None else {}
    return {}


def _parsed(record: Any, argv: list[str], names: list[str]) -> dict[str, Any] | None:
    """The record's fields as the parser alone reads ``argv`` (None if it cannot)."""
    import argparse

    try:
        parser = argparse.ArgumentParser(add_help=False)
        type(record).add_cli_args(parser)
        parsed = vars(parser.parse_known_args(argv)[0])
    except BaseException:
        return None
    return {n: _jsonable(parsed[n]) for n in names if n in parsed}


def _resolved_before_refusal(held: dict[str, Any], set_fields: list[str]) -> dict[str, Any]:
    """The fields the resolution had changed from what the user gave (not the fields the
    user set) when a check refused the record: what a message naming a value SGLang chose
    refers to. Empty when parsing itself failed."""
    if "record" not in held:
        return {}
    try:
        now = _snapshot(_resolved_view(held["record"]), held["names"])
    except Exception:
        return {}
    raw = held["raw"]
    return {n: v for n, v in now.items() if n in raw and raw[n] != v and n not in set_fields and n not in _NOISY}


def _child(argv: list[str], env: dict[str, str], set_fields: list[str], result_fd: int, log_path: str) -> None:
    # The candidate's environment, as its launch will have it: SGLang's checks read SGLANG_*
    # variables while they validate (a budget's capacity, a kill switch).
    os.environ.update(env)
    # Everything SGLang prints (stdout and stderr) goes to the log file, in order.
    log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log_fd, 1)
    os.dup2(log_fd, 2)
    sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
    sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)
    logging.basicConfig(
        level=logging.INFO,
        format="[%(asctime)s] %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
        stream=sys.stderr,
        force=True,
    )
    steps_run: list[str] = []
    held: dict[str, Any] = {}
    try:
        answer = _resolve(argv, set_fields, steps_run, held)
    except BaseException as exc:  # SystemExit from argparse included
        traceback.print_exc()
        sys.stderr.flush()
        answer = {
            "ok": False,
            "status": "failed",
            "steps_run": steps_run,
            "exception": type(exc).__name__,
            "resolved": _resolved_before_refusal(held or _held_from(exc, argv), set_fields),
        }
    data = json.dumps(answer, default=repr).encode("utf-8")
    os.write(result_fd, data)
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
    env = {str(k): str(v) for k, v in (request.get("env") or {}).items()}
    timeout = float(request.get("timeout", 120))
    set_fields = [a[2:].replace("-", "_") for a in argv if a.startswith("--")]
    fd, log_path = tempfile.mkstemp(prefix="autofix-preflight-", suffix=".log")
    os.close(fd)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            _child(argv, env, set_fields, write_fd, log_path)
        finally:
            os._exit(70)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = started + timeout
    status: str | None = None
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
                output += "\n[autofix probe: resolution child killed by signal %d]\n" % os.WTERMSIG(wait_status)
        answer = {"ok": False, "status": status, "steps_run": []}
    answer.update(
        {
            "id": request.get("id"),
            "version": version,
            "output": output,
            "seconds": round(time.monotonic() - started, 3),
        }
    )
    return answer


def _warm_imports() -> float:
    """Import SGLang's resolution hooks once here, so no forked child pays for them.

    In 0.5.x resolve_once() imports ~40 hook modules lazily (1.4 s measured); imported in
    the parent, a child resolves in a few hundredths of a second. Best effort: a module
    that fails to import here is simply imported (or not) by the child as before.
    """
    import importlib
    import pkgutil

    started = time.monotonic()
    try:
        package = importlib.import_module("sglang.srt.arg_groups")
    except Exception:
        return 0.0
    for info in pkgutil.walk_packages(package.__path__, "sglang.srt.arg_groups."):
        try:
            importlib.import_module(info.name)
        except Exception:
            continue
    return time.monotonic() - started


def main() -> int:
    global PROTOCOL_FD
    # Keep the real stdout for protocol lines; anything else printed goes to stderr.
    PROTOCOL_FD = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    started = time.monotonic()
    try:
        import sglang.srt.server_args as server_args_module  # type: ignore[import-not-found]

        try:
            from sglang.version import __version__ as version  # type: ignore[import-not-found]
        except Exception:
            import sglang

            version = getattr(sglang, "__version__", "unknown")
        import sglang

        simulated = bool(getattr(sglang, "SIMULATED", False))
    except BaseException:
        _emit({"event": "error", "kind": "no_sglang", "python": sys.executable, "output": traceback.format_exc()})
        return 3
    warm_s = _warm_imports()
    try:
        parser = _parser_facts(server_args_module.ServerArgs)
    except Exception:
        parser = {"error": traceback.format_exc(limit=3)[-500:]}
    _emit(
        {
            "event": "ready",
            "warm_s": round(warm_s, 3),
            "version": str(version),
            "simulated": simulated,
            "import_s": round(time.monotonic() - started, 3),
            "python": "%d.%d.%d" % sys.version_info[:3],
            "steps": _steps(server_args_module.ServerArgs),
            "parser": parser,
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
        _emit(_handle(request, str(version)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
