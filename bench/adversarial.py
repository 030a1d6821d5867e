"""Benchmark: time per MB of the journal parser + classifier on adversarial input.

Each input is fed the way the controller reads a crashed candidate's log
(``JournalParser.feed_bytes`` in 1 MB blocks, ``parse_stream``) and then classified
against the whole catalogue (``classify(journal, catalog, Gate.START)``), as in
bench/classify.py. Sizes 1, 4 and 16 MB; CPU seconds (``time.process_time``, so other
load on the machine counts less) per MB, beside the baseline of a normal journal: the
real captures of tests/data/journals, concatenated and repeated to the same size.

The shapes:

* random bytes (newlines included, invalid UTF-8 included);
* one gigantic line without a newline;
* an endless traceback: its header, then frames (with their source lines) forever,
  never an exception line;
* exception chains nested forever ("During handling of the above exception ...");
* a journal of a new process per line (PID counting up), and one where each of them
  starts a traceback it never finishes (state per process, tracebacks left open);
* journals dense with tracebacks: a ``Traceback`` header on every line, a whole short
  traceback every four lines, an exception line quoted alone on every line, frames with no
  header (each starts a traceback cut at the top), and a compose-prefixed journal;
* journals as pasted into issues: Ray prefixes all through joined lines, prose that names an
  exception (or nearly: a lower-case name) on every line, a long dotted run before an
  exception's name, the normal journal quoted with "> ";
* lines crafted against the regexes of autofix/tracebacks.py and of the catalogue
  (strategies/*.yaml): near misses that make a backtracking regex try every split of a
  long line: carets with a bad last character, a frame whose function name holds a run
  of spaces, "scheduler" / "Rank 1" / "FA3" / "fp4" repeated in an exception message
  (the wrapper and catalogue patterns ``x.*y``), "NCCL WARN invalid" repeated without
  the NCCL_ variable (``NCCL WARN .*?(?:Invalid…).*?NCCL_…``), argparse-like
  ``a: a: a:`` runs, long runs of spaces and of colons, 'a' * N.

What it shows: CPU seconds per MB stay about the same from 1 to 16 MB (linear, no
quadratic blow-up) and within a few times the normal journal's. Nothing may raise. A
shape whose 1 MB takes more than --budget seconds is not run at the larger sizes.

    python bench/adversarial.py [--sizes 1,4,16] [--shapes a,b] [--budget 60]
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from autofix.catalog import Catalog, load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.tracebacks import parse_stream

ROOT = Path(__file__).resolve().parent.parent
MB = 1 << 20
LINE = 16_000  # a long line, just under the parser's own cut (tracebacks.MAX_LINE)
TB = "Traceback (most recent call last):\n"
FRAME = '  File "/opt/venv/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py", line 371, in __init__\n'


def _repeat(unit: str, size: int, head: str = "") -> bytes:
    """``head`` then ``unit`` repeated up to ``size`` bytes."""
    data = (head + unit * max(1, (size - len(head)) // max(1, len(unit)) + 1)).encode()
    return data[:size]


def normal(size: int) -> bytes:
    """The real captures (tests/data/journals), one after another, repeated."""
    text = "".join(p.read_text() for p in sorted((ROOT / "tests" / "data" / "journals").glob("*.log")))
    return _repeat(text, size)


def random_bytes(size: int) -> bytes:
    return random.Random(8).randbytes(size)


def giant_line(size: int) -> bytes:
    return b"a" * size


def endless_traceback(size: int) -> bytes:
    return _repeat(FRAME + "    self.tp_worker = TpModelWorker(\n", size, head=TB)


def nested_chains(size: int) -> bytes:
    link = TB + FRAME + "    raise ValueError(x)\nValueError: x\n\n"
    link += "During handling of the above exception, another exception occurred:\n\n"
    return _repeat(link, size)


def _lines(line: str, size: int, head: str = "") -> bytes:
    return _repeat(line + "\n", size, head=head)


def carets(size: int) -> bytes:
    """Inside a traceback, indented lines of carets ending in a character that is none."""
    return _lines("    " + "^" * LINE + "x", size, head=TB + FRAME)


def frame_spaces(size: int) -> bytes:
    """Frame lines whose function name holds a long run of spaces (``in (.+?)\\s*$``)."""
    return _lines('  File "a.py", line 1, in f' + " " * LINE + "x", size, head=TB)


def _message(word: str) -> Callable[[int], bytes]:
    """A traceback whose exception message is ``word`` repeated, line after line."""

    def make(size: int) -> bytes:
        body = word * (LINE // len(word))
        return _lines(body, size, head=TB + FRAME + "RuntimeError: ")

    return make


def nccl_warn(size: int) -> bytes:
    """NCCL WARN ... invalid ..., never the NCCL_ variable (the nccl-invalid-env evidence)."""
    return _lines("NCCL WARN invalid " * (LINE // 18), size)


def argparse_like(size: int) -> bytes:
    return _lines("a: " * (LINE // 3), size)


def spaces(size: int) -> bytes:
    return _lines(" " * LINE + "x", size)


def colons(size: int) -> bytes:
    return _lines(":" * LINE, size)


def journal_prefix(size: int) -> bytes:
    """journalctl's short form, near misses: month, time, host, then no identifier."""
    return _lines("May 25 19:34:29 " + "h " * (LINE // 2), size)


def sglang_prefix(size: int) -> bytes:
    """SGLang's rank prefix, never closed: "[2026-05-25 19:34:29 TP0 TP1 TP2 ..."."""
    return _lines("[2026-05-25 19:34:29" + " TP1" * (LINE // 4), size)


def _numbered(template: str, size: int) -> bytes:
    """``template`` with {n} counting up, line after line."""
    out: list[str] = []
    total = n = 0
    while total < size:
        line = template.format(n=n) + "\n"
        out.append(line)
        total += len(line)
        n += 1
    return "".join(out).encode()[:size]


def many_processes(size: int) -> bytes:
    """journalctl lines of a new process each (PID counting up), each an error line."""
    return _numbered("May 25 19:34:29 h python[{n}]: RuntimeError: x", size)


def many_tracebacks(size: int) -> bytes:
    """A new process each line, each starting a traceback it never finishes."""
    return _numbered("May 25 19:34:29 h python[{n}]: Traceback (most recent call last):", size)


def dense_headers(size: int) -> bytes:
    return _lines("Traceback (most recent call last):", size)


def dense_tracebacks(size: int) -> bytes:
    return _repeat(TB + FRAME + "    raise ValueError(x)\nValueError: x\n", size)


def orphan_lines(size: int) -> bytes:
    return _lines("RuntimeError: x", size)


def headless_frames(size: int) -> bytes:
    return _lines(FRAME.rstrip("\n") + "\nKilled", size)


def compose_prefixed(size: int) -> bytes:
    """The normal journal behind docker compose's prefix."""
    return "".join(f"sglang-1  | {line}\n" for line in normal(size).decode("utf-8", "replace").splitlines()).encode()[
        :size
    ]


def ray_joined(size: int) -> bytes:
    """Ray prefixes all through each line (a worker's log copied from a web page, joined)."""
    return _lines("(SGLangWorker pid=38138) x " * (LINE // 27), size)


def prose_near_miss(size: int) -> bytes:
    """Prose naming no exception (a lower-case name): checked on every line, never kept."""
    return _lines("the server says x.aError: y", size)


def prose_quoted(size: int) -> bytes:
    """An exception quoted in prose on every line (a journal without any traceback)."""
    return _lines("it exits with `RuntimeError: x` again", size)


def dotted_run(size: int) -> bytes:
    """A dotted run before an exception name (the module path walked back by hand)."""
    return _lines("a." * (LINE // 2 - 8) + "ValueError: x", size)


def markdown_quoted(size: int) -> bytes:
    """The normal journal quoted in an issue comment ("> " on every line)."""
    return "".join(f"> {line}\n" for line in normal(size).decode("utf-8", "replace").splitlines()).encode()[:size]


def compiler_positions(size: int) -> bytes:
    """Compiler-shaped positions (``:1:2: error: ``) after no source file name, many a line."""
    return _lines("x.py:1:2: error: " * (LINE // 17), size)


def backtick_spans(size: int) -> bytes:
    """A backticked exception whose message is a run of short code spans (``a` `b` ...``)."""
    return _lines("`RuntimeError: " + "`a` " * (LINE // 4), size)


def watchdog_words(size: int) -> bytes:
    """'watchdog timeout (' near misses, lower case (the newer wording's shape)."""
    return _lines("watchdog timeout (" * (LINE // 18), size)


def bare_names(size: int) -> bytes:
    """An exception name alone at the end of every line (its message would be the next)."""
    return _lines("x " * (LINE // 4) + "RuntimeError:", size)


def failed_with_error(size: int) -> bytes:
    """'failed with error: ' many times a line (a part's failure line, the round 7 shape)."""
    return _lines("X failed with error: " * (LINE // 21), size)


def wrapped_names(size: int) -> bytes:
    """'Error(Error): ' runs: a wrapper naming the remote exception (Ray's shape), nested."""
    return _lines("AError(" * (LINE // 14) + "BError): x", size)


def error_codes_in_prose(size: int) -> bytes:
    """A failure word and backticked upper-case codes that never end a status name."""
    return _lines("fails `" + "A_B_C_" * (LINE // 6) + "` error", size)


def command_near_miss(size: int) -> bytes:
    """'launch_server' on every line after a long path-like run, no interpreter before it."""
    return _lines("a" * (LINE - 40) + " x.launch_server sglang serveX", size)


SHAPES: dict[str, Callable[[int], bytes]] = {
    "normal journal (baseline)": normal,
    "random bytes": random_bytes,
    "one giant line, no newline": giant_line,
    "endless traceback": endless_traceback,
    "nested exception chains": nested_chains,
    "carets, bad last char": carets,
    "frame, spaces in name": frame_spaces,
    "'scheduler ' x N message": _message("scheduler "),
    "'Rank 1 ' x N message": _message("Rank 1 "),
    "'FA3 ' x N message": _message("FA3 "),
    "'fp4 ' x N message": _message("fp4 "),
    "'MoE runner ' x N message": _message("MoE runner "),
    "'NCCL WARN invalid' x N": nccl_warn,
    "'a: ' x N (argparse)": argparse_like,
    "runs of spaces": spaces,
    "runs of colons": colons,
    "journal prefix near miss": journal_prefix,
    "SGLang prefix near miss": sglang_prefix,
    "a new process per line": many_processes,
    "a new traceback per process": many_tracebacks,
    "Traceback header per line": dense_headers,
    "short traceback per 4 lines": dense_tracebacks,
    "exception line alone per line": orphan_lines,
    "frames without header": headless_frames,
    "compose-prefixed journal": compose_prefixed,
    "Ray prefixes joined in lines": ray_joined,
    "prose, near-miss exception": prose_near_miss,
    "prose, quoted exception": prose_quoted,
    "dotted run before a name": dotted_run,
    "markdown-quoted journal": markdown_quoted,
    "compiler positions, no file": compiler_positions,
    "backticked spans in a message": backtick_spans,
    "'watchdog timeout (' x N": watchdog_words,
    "launch command near misses": command_near_miss,
    "exception name alone at line end": bare_names,
    "'failed with error: ' x N": failed_with_error,
    "nested wrapper names": wrapped_names,
    "error codes in prose, near misses": error_codes_in_prose,
}


@dataclass(frozen=True)
class Timing:
    shape: str
    mb: float
    seconds: float  # CPU seconds, parse + classify
    parse_seconds: float
    tracebacks: int
    signals: int
    failure_class: str | None

    @property
    def s_per_mb(self) -> float:
        return self.seconds / self.mb

    @property
    def mb_per_s(self) -> float:
        return self.mb / self.seconds if self.seconds > 0 else float("inf")


def measure(shape: str, data: bytes, catalog: Catalog) -> Timing:
    """Parse ``data`` as the controller reads a log, then classify it; CPU time."""
    started = time.process_time()
    journal = parse_stream(io.BytesIO(data))
    parsed = time.process_time()
    diagnosis = classify(journal, catalog, Gate.START)
    done = time.process_time()
    return Timing(
        shape,
        len(data) / MB,
        done - started,
        parsed - started,
        len(journal.tracebacks),
        len(journal.signals),
        diagnosis.failure.class_id,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,4,16", help="sizes in MB (default 1,4,16)")
    parser.add_argument("--shapes", help="comma list of shape names (substring match)")
    parser.add_argument("--budget", type=float, default=60.0, help="CPU s over which larger sizes are skipped")
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    catalog = load_catalog()
    shapes = SHAPES
    if args.shapes:
        wanted = args.shapes.split(",")
        shapes = {k: v for k, v in SHAPES.items() if k == "normal journal (baseline)" or any(w in k for w in wanted)}
    head = "".join(f"{f'{s:g} MB':>16}" for s in sizes)
    print("parse_stream + classify, CPU MB/s (x slower than the normal journal at that size)\n")
    print(f"{'input':<30}{head}   {'last/first s/MB':>15}  class found")
    baseline: dict[float, Timing] = {}
    worst = 0.0
    for name, make in shapes.items():
        cells: list[str] = []
        timings: list[Timing] = []
        for size in sizes:
            if timings and timings[-1].seconds > args.budget:
                cells.append(f"{'skipped':>16}")
                continue
            timing = measure(name, make(int(size * MB)), catalog)
            timings.append(timing)
            if name.startswith("normal"):
                baseline[size] = timing
            slower = timing.s_per_mb / baseline[size].s_per_mb if size in baseline else 1.0
            worst = max(worst, slower)
            cells.append(f"{timing.mb_per_s:>9.1f} ({slower:>4.1f}x)")
        growth = timings[-1].s_per_mb / timings[0].s_per_mb if len(timings) > 1 else float("nan")
        print(f"{name:<30}{''.join(cells)}   {growth:>14.2f}x  {timings[-1].failure_class}", flush=True)
    print(f"\nworst: {worst:.1f}x the normal journal's time per MB; nothing raised")
    return 0


if __name__ == "__main__":
    sys.exit(main())
