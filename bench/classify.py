"""Benchmark: reading a crashed TP=8 server's journal, autofix vs the seed's grep.

Builds a journal (``journalctl -o short-iso`` form, or ``-o json``) of 8 interleaved
ranks logging INFO lines, a root-cause traceback on one rank part-way through, and the
launcher's "scheduler died" wrapper traceback after it; then runs, side by side in one
run, on the same file:

* autofix: ``parse_stream`` + ``classify`` in a fresh process (MB/s, peak RSS, what it
  recovered: class, exception, frame);
* the seed's loop: ``journalctl -n 15 | grep -E 'Error|error|FAIL|Traceback|assert'``
  (the last 15 lines), and the same grep over the whole file.

Peak memory is measured at two sizes to show it is flat in the file size.

    python bench/classify.py [--mb 200] [--form short-iso|json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED_GREP = "Error|error|FAIL|Traceback|assert"

ROOT_CAUSE = """Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py", line 3120, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)
  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py", line 371, in __init__
    self.tp_worker = TpModelWorker(
  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/srt/model_executor/model_runner.py", line 402, in __init__
    self.initialize(min_per_gpu_memory)
  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/srt/model_executor/model_runner.py", line 1894, in init_device_graphs
    self.graph_runner = CudaGraphRunner(self)
  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/srt/model_executor/cuda_graph_runner.py", line 391, in capture
    raise Exception(
Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 568.00 MiB. GPU 3 has a total capacity of 95.59 GiB of which 212.00 MiB is free. Possible solutions:
1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)
2. set --cuda-graph-max-bs to a smaller value (e.g., 16)"""

WRAPPER = """Traceback (most recent call last):
  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/launch_server.py", line 82, in <module>
    run_server(server_args)
  File "/opt/sglang/.venv/lib/python3.11/site-packages/sglang/srt/entrypoints/engine.py", line 2011, in _wait_for_scheduler_ready
    raise _scheduler_died_error(rank, scheduler_procs[rank])
RuntimeError: Rank 0 scheduler died during initialization (exit code: -9). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer. Run `dmesg -T | grep -i oom` to check."""


def journal_line(form: str, pid: int, message: str, ts: str) -> str:
    if form == "json":
        return json.dumps({"MESSAGE": message, "_PID": str(pid), "SYSLOG_IDENTIFIER": "python", "_HOSTNAME": "gpu"})
    return f"2026-05-25T{ts}+0000 dflash-train python[{pid}]: {message}"


def build(path: Path, megabytes: float, form: str) -> tuple[float, int]:
    """Write the journal; return its size in MB and its line count.

    INFO lines of 8 ranks fill it; at the end, as in a real crash, TP3's traceback
    (other ranks still logging in between), a few more lines, the launcher's wrapper
    traceback and systemd's exit line.
    """
    target = int(megabytes * 1e6)
    written = 0
    lines = 0

    def info(i: int) -> str:
        rank = i % 8
        ts = f"19:{(i // 60000) % 60:02d}:{(i // 1000) % 60:02d}"
        msg = (
            f"[2026-05-25 {ts} TP{rank}] Decode batch. #running-req: {i % 48}, #token: {30000 + i % 999}, "
            f"token usage: 0.{i % 97:02d}, cuda graph: True, gen throughput (token/s): {800 + i % 50}.5, #queue-req: 0"
        )
        return journal_line(form, 67700 + rank, msg, ts)

    with open(path, "w", encoding="utf-8") as fh:
        i = 0
        while written < target:
            chunk = [info(i + k) for k in range(800)]
            i += 800
            text = "\n".join(chunk) + "\n"
            fh.write(text)
            written += len(text.encode())
            lines += len(chunk)
        tail: list[str] = []
        for n, tb_line in enumerate(ROOT_CAUSE.splitlines()):
            shown = f"[2026-05-25 19:34:29 TP3] {tb_line}" if n == 0 else tb_line
            tail.append(journal_line(form, 67703, shown, "19:34:29"))
            tail.append(info(i + n * 8))  # another rank, interleaved
        tail += [info(i + 200 + k) for k in range(12)]
        sigquit = "[2026-05-25 19:34:30] Received sigquit from a child process. It usually means the child failed."
        tail.append(journal_line(form, 67699, sigquit, "19:34:30"))
        tail += [journal_line(form, 67699, tb_line, "19:34:31") for tb_line in WRAPPER.splitlines()]
        exit_line = "sglang-k26-eagle3.service: Main process exited, code=exited, status=1/FAILURE"
        tail.append(
            json.dumps({"MESSAGE": exit_line, "_PID": "1", "SYSLOG_IDENTIFIER": "systemd"})
            if form == "json"
            else f"2026-05-25T19:34:31+0000 dflash-train systemd[1]: {exit_line}"
        )
        text = "\n".join(tail) + "\n"
        fh.write(text)
        written += len(text.encode())
        lines += len(tail)
    return written / 1e6, lines


AUTOFIX_CHILD = """
import json, resource, sys, time
from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.tracebacks import parse_stream
catalog = load_catalog()
start = time.perf_counter()
with open(sys.argv[1], "rb") as fh:
    journal = parse_stream(fh)
d = classify(journal, catalog, Gate.START)
seconds = time.perf_counter() - start
f = d.failure
frame = f"{f.frame.function} ({f.frame.file.rsplit('/', 1)[-1]}:{f.frame.line})" if f.frame else "-"
print(json.dumps({"seconds": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "found": f"class {f.class_id}; {f.exception} on {d.subject.traceback.rank if d.subject.traceback else '?'}; frame {frame}"}))
"""


def run_autofix(path: Path) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", AUTOFIX_CHILD, str(path)], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(["bash", "-c", sys.argv[1]], capture_output=True, text=True)
seconds = time.perf_counter() - start
sys.stdout.write(f"{seconds} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\\n" + done.stdout)
"""


def run_shell(command: str) -> dict[str, object]:
    """Run a shell pipeline in a fresh process that reports its own children's peak RSS."""
    done = subprocess.run([sys.executable, "-c", MEASURE, command], capture_output=True, text=True, check=True)
    head, _, output = done.stdout.partition("\n")
    seconds, rss_kb = head.split()
    lines = [ln for ln in output.splitlines() if ln.strip()]
    return {
        "seconds": float(seconds),
        "rss_mb": int(rss_kb) / 1024,
        "found": f"{len(lines)} bare line(s)",
        "lines": lines,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=200.0, help="journal size in MB (default 200)")
    parser.add_argument("--form", choices=["short-iso", "json"], default="short-iso")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="autofix-bench-") as tmp:
        big = Path(tmp) / "journal.log"
        small = Path(tmp) / "small.log"
        size, lines = build(big, args.mb, args.form)
        small_size, _ = build(small, max(args.mb / 8, 5), args.form)
        print(f"journal: {size:.1f} MB, {lines:,} lines, 8 TP ranks interleaved (-o {args.form});")
        print("at the end: TP3's root cause, the launcher's 'scheduler died' wrapper, systemd's exit line\n")

        rows = [
            ("autofix parse_stream + classify", run_autofix(big), size),
            ("seed: journalctl -n 15 | grep -E", run_shell(f"tail -n 15 {big} | grep -E '{SEED_GREP}'"), size),
            ("grep -E over the whole journal", run_shell(f"grep -E '{SEED_GREP}' {big}"), size),
        ]
        small_autofix = run_autofix(small)
        print(f"{'reader':<34} {'MB/s':>8} {'seconds':>8} {'peak RSS':>9}  recovered")
        for name, result, mb in rows:
            seconds = float(str(result["seconds"]))
            rate = mb / seconds if name != rows[1][0] else float("nan")
            rate_text = f"{rate:8.1f}" if rate == rate else "     n/a"
            print(f"{name:<34} {rate_text} {seconds:8.2f} {float(str(result['rss_mb'])):7.0f}MB  {result['found']}")
        for name, result, _ in rows[1:]:
            print(f"\n{name} printed:")
            for line in list(result.get("lines", []))[:6]:  # type: ignore[call-overload]
                print(f"  {str(line)[-150:]}")
        print(
            f"\nautofix peak RSS: {float(str(small_autofix['rss_mb'])):.0f} MB at {small_size:.0f} MB of journal, "
            f"{float(str(rows[0][1]['rss_mb'])):.0f} MB at {size:.0f} MB (flat in file size)"
        )
        print(f"target: >= 30 MB/s -> {'met' if size / float(str(rows[0][1]['seconds'])) >= 30 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
