"""Observe the real SGLang 0.5.23: what it prints, raises and resolves for each argv.

Run with the real CPU environment's Python (see shared/tools/sglang-cpu-env.sh):

    ~/.cache/autofix/sglang-0.5.23-cpu/bin/python tests/data/sim/tools/capture_facts.py CASES.json OUT.json

Run it with the simulator on PYTHONPATH (and AUTOFIX_SIM_STRICT_SM120=1) to record the sim's
answers in the same shape; compare_facts.py diffs the two.

CASES.json is a list of ``{"id": ..., "argv": [...], "env": {...}}`` (``{models}`` / ``{files}``
stand for tests/data/sim/models and tests/data/sim/files). Each case runs the real
``prepare_server_args -> resolve_once -> check_server_args`` in a forked child on the simulated
host's platform facts (the same override as capture_real.py: CUDA, SM120, 96 GB) and records:

* ``logs``: the log lines it printed (timestamps cut);
* ``raised``: the exception chain, outermost last, each with its type, message, how it links to
  the next (cause / context) and every frame a traceback prints: file (relative to
  site-packages), line, function, the printed source line and the caret line under it;
* ``raw`` / ``resolved``: every field of the record before and after resolution (``repr`` for
  values JSON cannot hold).

These observations are what autofix/sim/site/sglang/srt/_sim/rules.json is written from; the
tool itself copies no code, it only looks at what the real code does.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import sys
import traceback
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from capture_real import GPU_MEM_MIB, SM120  # noqa: E402

MODELS = os.path.join(DATA, "models")
FILES = os.path.join(DATA, "files")
_TS = re.compile(r"^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}( TP\d+)?\] ")


def _rel(path: str) -> str:
    for marker in ("/site-packages/", "/autofix/sim/site/"):
        if marker in path:
            return path.split(marker, 1)[1]
    if path.endswith("/argparse.py"):
        return "argparse.py"
    return path


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return {"repr": repr(value)}


def _frames(tb_exc: traceback.TracebackException) -> list[dict[str, Any]]:
    out = []
    for summary in tb_exc.stack:
        lines = tb_exc.stack.format_frame_summary(summary).splitlines()
        frame = {"file": _rel(summary.filename), "line": summary.lineno, "func": summary.name}
        if len(lines) > 1:
            frame["code"] = lines[1].strip()
        if len(lines) > 2:
            frame["marks"] = lines[2][4:]
        out.append(frame)
    return out


def _chain(exc: BaseException) -> list[dict[str, Any]]:
    """Innermost cause first, as a traceback prints them."""
    seen: list[dict[str, Any]] = []
    te = traceback.TracebackException.from_exception(exc)
    node: traceback.TracebackException | None = te
    entries = []
    while node is not None:
        link = None
        nxt = None
        if node.__cause__ is not None:
            link, nxt = "cause", node.__cause__
        elif node.__context__ is not None and not node.__suppress_context__:
            link, nxt = "context", node.__context__
        entries.append((node, link))
        node = nxt
    for node, link in reversed(entries):
        seen.append(
            {
                "type": node.exc_type.__module__ + "." + node.exc_type.__qualname__
                if node.exc_type.__module__ not in ("builtins", "__main__")
                else node.exc_type.__qualname__,
                "message": str(node),
                "then": link,  # how the NEXT (outer) exception relates to this one's successor
                "frames": _frames(node),
            }
        )
    return seen


def _snapshot(obj: Any, names: list[str]) -> dict[str, Any]:
    out = {}
    for name in names:
        try:
            out[name] = _jsonable(getattr(obj, name))
        except Exception as exc:  # a property that needs a GPU
            out[name] = {"error": type(exc).__name__}
    return out


def _child(argv: list[str], fd: int) -> None:
    buf = io.StringIO()
    sys.stderr = buf
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s] %(message)s", stream=buf, force=True)
    result: dict[str, Any] = {"ok": False, "stage": "prepare_server_args"}
    try:
        from sglang.srt.server_args import prepare_server_args

        sa = prepare_server_args(argv)
        names = list(type(sa).__struct_fields__)
        result["raw"] = _snapshot(sa, names)
        result["stage"] = "resolve_once"
        sa.resolve_once()
        result["stage"] = "check_server_args"
        sa.check_server_args()
        from sglang.srt.arg_groups.overrides import resolved_view

        result["resolved"] = _snapshot(resolved_view(sa), names)
        result["ok"] = True
    except BaseException as exc:
        result["raised"] = _chain(exc)
    text = buf.getvalue()
    result["logs"] = [_TS.sub("", line) for line in text.splitlines() if _TS.match(line)]
    result["output"] = text
    os.write(fd, json.dumps(result, default=repr).encode("utf-8"))
    os.close(fd)


def run(argv: list[str], env: dict[str, str]) -> dict[str, Any]:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        os.close(read_fd)
        try:
            os.environ.update(env)
            _child(argv, write_fd)
        finally:
            os._exit(0)
    os.close(write_fd)
    chunks = []
    while chunk := os.read(read_fd, 1 << 16):
        chunks.append(chunk)
    os.close(read_fd)
    os.waitpid(pid, 0)
    return json.loads(b"".join(chunks).decode("utf-8"))


def main() -> int:
    cases_path, out_path = sys.argv[1:3]
    with open(cases_path) as f:
        cases = json.load(f)
    import sglang

    if not getattr(sglang, "SIMULATED", False):  # the real code: give it the sim host's GPUs
        import sglang.srt.arg_groups.memory_hook as memory_hook
        from sglang.srt.runtime_context import override_platform

        memory_hook.get_device_memory_capacity = lambda device=None: GPU_MEM_MIB
        override_platform(**SM120).install()
    out = []
    for case in cases:
        argv = [a.replace("{models}", MODELS).replace("{files}", FILES) for a in case["argv"]]
        result = run(argv, case.get("env", {}))
        text = json.dumps(result).replace(MODELS, "{models}").replace(FILES, "{files}")
        out.append({"id": case["id"], "argv": case["argv"], **json.loads(text)})
        last = (result.get("raised") or [{}])[-1]
        print(case["id"], result["ok"], last.get("type"), (last.get("message") or "")[:90], file=sys.__stderr__)
    with open(out_path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
