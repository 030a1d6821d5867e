"""Run SGLang's own argument resolution for one argv and normalise what it printed.

Shared by tests/data/sim/tools/capture_real.py (run once against the real SGLang 0.5.23
CPU env) and tests/sim/test_parity.py (run against the simulator): both call
``run_case`` in a forked child and compare ``normalize`` output. Standard library only.
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

RESOLVED_FIELDS = (
    "speculative_algorithm",
    "speculative_num_steps",
    "speculative_eagle_topk",
    "speculative_num_draft_tokens",
    "attention_backend",
    "page_size",
    "device",
    "max_running_requests",
    "tp_size",
    "chunked_prefill_size",
    "mem_fraction_static",
)

_FRAME = re.compile(r'^(\s*)File "([^"]+)", line (\d+), in (.+)$')
_CARETS = re.compile(r"^\s*[\^~]+\s*$")
_TS = re.compile(r"^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}( TP\d+)?\] ")
_NOISE = ("support AWQ currently", "support GGUF quantization currently", 'warnings.warn(f"Only')
_PACKAGES = ("sglang/", "transformers/", "huggingface_hub/", "torch/")
# Real 0.5.23 builds these choices from a set: their printed order follows string hashing.
_SET_CHOICES = re.compile(r"(--sampling-backend \{)([^}]*)(\})")


def _child(argv: list[str], fd: int) -> None:
    buf = io.StringIO()
    sys.stderr = buf
    logging.basicConfig(
        level=logging.INFO,
        format="[%(asctime)s] %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
        stream=buf,
        force=True,
    )
    result: dict[str, Any] = {"ok": False, "stage": "import"}
    try:
        from sglang.srt.server_args import prepare_server_args

        result["stage"] = "prepare_server_args"
        sa = prepare_server_args(argv)
        result["stage"] = "resolve_once"
        sa.resolve_once()
        result["stage"] = "check_server_args"
        sa.check_server_args()
        from sglang.srt.arg_groups.overrides import resolved_view

        view = resolved_view(sa)
        result["resolved"] = {name: getattr(view, name) for name in RESOLVED_FIELDS}
        result["ok"] = True
    except BaseException as exc:  # SystemExit from argparse included
        result["exception_type"] = _qualname(type(exc))
        result["message"] = str(exc)
        traceback.print_exc(file=buf)
    result["output"] = buf.getvalue()
    os.write(fd, json.dumps(result, default=repr).encode("utf-8"))
    os.close(fd)


def _qualname(cls: type) -> str:
    if cls.__module__ in ("builtins", "__main__"):
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def run_case(argv: list[str]) -> dict[str, Any]:
    """Resolve ``argv`` in a forked child (resolution mutates module state)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        os.close(read_fd)
        try:
            _child(argv, write_fd)
        finally:
            os._exit(0)
    os.close(write_fd)
    chunks = []
    while True:
        chunk = os.read(read_fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_fd)
    os.waitpid(pid, 0)
    return json.loads(b"".join(chunks).decode("utf-8"))


def _package_path(path: str) -> str | None:
    for marker in ("/site-packages/", "/autofix/sim/site/"):
        if marker in path:
            rel = path.split(marker, 1)[1]
            if rel.startswith(_PACKAGES):
                return rel
    if path.endswith("/argparse.py"):
        return "argparse.py"
    return None


def normalize(output: str, subs: dict[str, str]) -> list[str]:
    """Timestamps, absolute paths, SGLang line numbers and harness frames removed."""
    for real, placeholder in subs.items():
        output = output.replace(real, placeholder)
    output = _SET_CHOICES.sub(lambda m: m.group(1) + ",".join(sorted(m.group(2).split(","))) + m.group(3), output)
    lines = output.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if any(n in line for n in _NOISE):
            i += 1
            continue
        m = _FRAME.match(line)
        if m:
            indent, path, lineno, func = m.groups()
            rel = _package_path(path)
            block = [line]
            j = i + 1
            if j < len(lines) and lines[j].startswith(indent + "  ") and not _FRAME.match(lines[j]):
                block.append(lines[j])
                j += 1
                if j < len(lines) and _CARETS.match(lines[j]):
                    block.append(lines[j])
                    j += 1
            if rel is not None:
                if rel.startswith("sglang/"):
                    block[0] = f'{indent}File "{rel}", in {func}'
                else:
                    block[0] = f'{indent}File "{rel}", line {lineno}, in {func}'
                out.extend(block)
            i = j
            continue
        out.append(_TS.sub(lambda mt: (mt.group(1) or "").strip() + (" " if mt.group(1) else ""), line))
        i += 1
    return out


def main() -> int:
    """Driver: stdin = JSON list of argv lists, stdout = JSON list of run_case results."""
    argvs = json.load(sys.stdin)
    results = [run_case(argv) for argv in argvs]
    sys.stdout.write(json.dumps(results, default=repr))
    return 0


if __name__ == "__main__":
    sys.exit(main())
