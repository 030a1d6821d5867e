"""Journal text -> Python tracebacks and failure signals. Pure, streaming, line by line.

Reads what a crashed server left behind in any of the forms an operator meets: plain
stderr, ``journalctl -o short`` / ``short-iso`` / ``short-precise``, and ``-o json``
(where MESSAGE may be a byte array), behind a container's prefix (``docker compose logs``,
``docker logs --timestamps``, ``kubectl logs --prefix``, a Ray worker's), pasted without
its indentation, or cut at the top (frames with no ``Traceback`` header, an exception line
quoted alone). Lines are demultiplexed by process (journal PID)
and by SGLang's rank prefix (``[2026-05-25 19:34:29 TP3] ...``), so the tracebacks of
nine interleaved processes come apart again. Memory stays bounded whatever the journal
size: only open tracebacks, a few lines of context per process and capped result lists
are kept.

The root cause is chosen the way an expert reads a TP=8 crash: the first failing
rank's original exception, not the parent's "scheduler died" wrapper, not the last
traceback printed.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from .model import Frame

MAX_TRACEBACKS = 200
MAX_SIGNALS = 200
MAX_FRAMES = 200
# Past MAX_FRAMES the middle goes: the outermost HEAD_FRAMES (how it started) and the
# innermost rest (where it failed: the root cause) are kept.
HEAD_FRAMES = 16
MAX_MESSAGE_LINES = 40
MAX_LINE = 16_384
CONTEXT_LINES = 8
# Tracebacks open at once (a TP=8 x DP=8 crash prints 64 and the launcher's), and processes
# remembered: per-line work and memory must not grow with a journal of a million PIDs.
MAX_OPEN = 128
WRAPPER_SCAN = 4096
MAX_STREAMS = 4096

# -- line prefixes --------------------------------------------------------------------------

_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
# journalctl -o short: "May 25 19:34:29 host ident[pid]: msg"; short-iso / short-precise too.
_JOURNAL_SHORT = re.compile(
    rf"^(?:(?:{_MONTHS}) [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"
    r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:?\d\d|Z)?)"
    r" (?P<host>\S+) (?P<ident>[^\s\[:]+)(?:\[(?P<pid>\d+)\])?: ?(?P<msg>.*)$"
)
# SGLang's logger: "[%(asctime)s{.ms}{ prefix}] msg", prefix like " TP0", " DP1 TP3", " PP0 TP1".
_SGLANG_PREFIX = re.compile(
    r"^\[(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?)(?P<ranks>(?: [A-Z]{2,4}\d+)*)\] ?(?P<msg>.*)$"
)
# vLLM's logger: "LEVEL MM-DD HH:MM:SS[.ms] [file.py:line] msg" (after its process prefix,
# "(EngineCore_DP0 pid=N) ", which _RAY strips); an engine core logs its traceback so.
_VLLM_PREFIX = re.compile(
    r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[[\w.-]+:\d+\] ?(?P<msg>.*)$"
)
_JOURNAL_META = re.compile(r"^-- (?:Boot |No entries|Logs begin|Journal begins|Reboot)")
# Container and orchestrator prefixes, stripped before the journal's and SGLang's own:
# `docker compose logs` ("sglang-1  | ", "[sglang]     | "), `kubectl logs --prefix`
# ("[pod/name/container] "), a Ray actor's ("(SGLangEngine pid=952, ip=10.0.0.1) ") and
# `docker logs --timestamps` (RFC 3339 with nanoseconds and Z; journalctl writes an offset).
_COMPOSE = re.compile(r"^(?P<name>\[?[A-Za-z0-9][\w.-]*\]?) +\| ?")
_KUBECTL = re.compile(r"^\[pod/(?P<name>[^\]\s]+)\] ")
_RAY = re.compile(r"^\((?P<name>[\w.-]+) pid=(?P<pid>\d+)(?:, ip=[\w.:]+)?\) ")
_DOCKER_TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ")

# -- traceback grammar ----------------------------------------------------------------------

_TB_START = "Traceback (most recent call last):"
# ``.*\S`` rather than ``.+?\s*$``: a lazy name before ``\s*$`` retries the rest of the line
# at every character (quadratic in a run of spaces); so would ``[\^~]+[\^~ ]*`` below.
_FRAME = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+), in (?P<func>.*\S)\s*$')
_CARETS = re.compile(r"^\s*[\^~][\^~ ]*$")
_REPEATED = re.compile(r"^\s*\[Previous line repeated \d+ more times?\]$")
# Exception classes are CamelCase by convention: "sglang.service: Main process exited" is no exception.
_EXC_LINE = re.compile(r"^(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*)(?::(?: (?P<msg>.*))?)?$")
# An exception line quoted alone (the traceback cut off above it, or never printed): only
# types named like failures, so "Note: ..." or "Summary: ..." prose is not one.
_ORPHAN = re.compile(r"^(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)): (?P<msg>\S.*)$")
_CHAIN_CONTEXT = "During handling of the above exception, another exception occurred:"
_CHAIN_CAUSE = "The above exception was the direct cause of the following exception:"

# -- non-Python failure lines ---------------------------------------------------------------

_SIGNALS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("argparse_error", re.compile(r"^(?:usage: )?(?P<prog>[\w .:/-]+): error: (?P<detail>.+)$")),
    ("oom", re.compile(r"(?:CUDA out of memory|torch\.OutOfMemoryError|OutOfMemoryError: CUDA)")),
    # torch's NCCL watchdog (a collective never finished) and SGLang's own (a batch never did).
    ("nccl_timeout", re.compile(r"Watchdog caught collective operation timeout|Watchdog thread terminated")),
    ("sglang_watchdog", re.compile(r"Watchdog timeout \(self\.watchdog_timeout=")),
    # flashinfer prints "CUDA Error:" with a capital E.
    ("cuda_error", re.compile(r"CUDA [Ee]rror: (?P<detail>.+)")),
    ("nccl_warn", re.compile(r"NCCL WARN (?P<detail>.+)")),
    (
        "nccl_error",
        re.compile(r"(?:ncclInternalError|ncclInvalidUsage|ncclSystemError|ncclUnhandledCudaError|ncclRemoteError)"),
    ),
    ("bind_error", re.compile(r"(?:\[Errno 98\]|address already in use|Address already in use)")),
    ("segfault", re.compile(r"(?:Segmentation fault|status=11/SEGV|exit status 139|signal 11\b|SIGSEGV)")),
    ("killed", re.compile(r"(?:^Killed$|status=9/KILL|exit status 137|Out of memory: Killed process|oom-kill)")),
    ("exit_status", re.compile(r"Main process exited, code=(?P<code>\w+), status=(?P<detail>\S+)")),
)
# All of them in one search: most lines that hint at a failure ("Error:") are none of these.
_ANY_SIGNAL = re.compile("|".join(f"(?:{re.sub(r'[(][?]P<[a-z]+>', '(?:', p.pattern)})" for _, p in _SIGNALS))
# One cheap search decides whether a line needs the detailed signal patterns at all.
# Case-sensitive on purpose (an IGNORECASE alternation costs 13x more per line); every
# alternative contains one of _INTERESTING's, so block mode never skips a failure line.
_SIGNAL_HINT = re.compile(
    r"error:|Error:|ERROR:|out of memory|OutOfMemoryError|CUDA error|NCCL WARN|nccl[A-Z]|Errno 98"
    r"|already in use|Segmentation|SEGV|exit status|Killed|KILL|oom-kill|Main process exited|signal 11"
    r"|Watchdog"
)

# A pipe to a dead child breaking says less than the wrapper that reports the death.
_IPC_NOISE = frozenset({"EOFError", "BrokenPipeError", "ConnectionResetError", "ConnectionRefusedError"})
_QUIET_EXITS = frozenset({"SystemExit", "KeyboardInterrupt"})

# Wrapper exceptions: they report that a child failed, the child holds the cause.
# "x.*y" is tried from every x of a line ("scheduler " x 1000: quadratic); from a line's
# start, an atomic lazy prefix finds its first x only, which is the same question.
_WRAPPER = re.compile(
    r"scheduler died|Received sigquit|child process|Engine core initialization failed|See root cause above|"
    r"stack trace (?:above )?for (?:the )?root cause|"
    r"^(?>.*?scheduler).*(?:dead|exited)|"
    r"^(?>.*?Rank \d+ ).*died|^(?>.*?detokenizer).*died|Exception in (?:ModelTpServer|run_scheduler_process)",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class Traceback:
    """One Python exception with its frames, and the exception that led to it (if any)."""

    exc_type: str
    message: str
    frames: tuple[Frame, ...]
    stream: str = ""
    rank: str = ""
    order: int = 0
    truncated: bool = False
    cause: Traceback | None = None
    # "cause" (raise ... from) or "context" (during handling); describes ``cause``.
    chain: str = ""
    # SGLang log lines and warnings printed by the same process just before it.
    preceding: tuple[str, ...] = ()
    # What the first line of the traceback followed, e.g. "Scheduler hit an exception:".
    lead: str = ""
    # Frames left out of the middle of a traceback deeper than MAX_FRAMES.
    omitted_frames: int = 0

    @property
    def innermost(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    def chain_list(self) -> list[Traceback]:
        """This exception and every cause before it, outermost (last printed) first."""
        out: list[Traceback] = []
        node: Traceback | None = self
        while node is not None and len(out) < 32:
            out.append(node)
            node = node.cause
        return out

    @property
    def original(self) -> Traceback:
        """The first exception of the chain: where things went wrong."""
        return self.chain_list()[-1]

    @property
    def is_wrapper(self) -> bool:
        # A wrapper says so up front; a message may be 40 lines of 16 KB, asked per chain link.
        return bool(_WRAPPER.search(self.message[:WRAPPER_SCAN])) or bool(_WRAPPER.search(self.lead[:WRAPPER_SCAN]))

    def render(self, *, limit_frames: int = 12) -> str:
        """Python's own layout, for evidence and ``show``."""
        parts: list[str] = []
        for tb in reversed(self.chain_list()):
            if parts:
                parts.append("")
                parts.append(_CHAIN_CAUSE if tb.cause is not None and tb.chain == "cause" else _CHAIN_CONTEXT)
                parts.append("")
            parts.append(_TB_START)
            frames = tb.frames[-limit_frames:]
            if len(tb.frames) > limit_frames:
                parts.append(f"  ... {len(tb.frames) - limit_frames} frames left out ...")
            for f in frames:
                parts.append(f'  File "{f.file}", line {f.line}, in {f.function}')
                if f.source:
                    parts.append(f"    {f.source}")
            parts.append(f"{tb.exc_type}: {tb.message}" if tb.message else tb.exc_type)
        return "\n".join(parts)


@dataclass(frozen=True)
class Signal:
    """A failure line that is not a Python traceback (NCCL WARN, Killed, exit status …)."""

    kind: str
    line: str
    stream: str = ""
    rank: str = ""
    order: int = 0


@dataclass(frozen=True)
class Journal:
    """What one pass over a journal found."""

    tracebacks: tuple[Traceback, ...]
    signals: tuple[Signal, ...]
    lines: int
    bytes: int
    tail: tuple[str, ...] = ()
    dropped_tracebacks: int = 0
    # Lines longer than MAX_LINE, cut to it (see ``notes``).
    cut_lines: int = 0

    @property
    def notes(self) -> tuple[str, ...]:
        """What the parser did to the text that a reader should know."""
        if not self.cut_lines:
            return ()
        return (f"{self.cut_lines} journal line(s) longer than {MAX_LINE} characters were cut to {MAX_LINE}",)

    def root_cause(self) -> Traceback | None:
        return root_cause(self.tracebacks)

    def first_signal(self, *kinds: str) -> Signal | None:
        return next((s for s in self.signals if not kinds or s.kind in kinds), None)


def root_cause(tracebacks: Iterable[Traceback]) -> Traceback | None:
    """The first failing rank's original exception.

    Wrappers (the parent's "scheduler died", sigquit reports) and ``SystemExit`` after
    an argparse error never win over a real exception, and a broken pipe to a dead child
    never wins over the wrapper that reports the death; rank processes win over the
    launcher; among equals the earliest printed wins, not the last; within one chain
    the first exception (the one the others were raised from or during) wins.
    """
    best: Traceback | None = None
    best_key: tuple[int, int, int, int] | None = None
    for head in tracebacks:
        for depth, tb in enumerate(head.chain_list()):
            if not tb.exc_type:
                continue
            noise = 2 if tb.exc_type in _IPC_NOISE else int(tb.is_wrapper or tb.exc_type in _QUIET_EXITS)
            key = (noise, 0 if head.rank else 1, head.order, -depth)
            if best_key is None or key < best_key:
                best, best_key = tb, key
    return best


# -- the streaming parser -------------------------------------------------------------------


@dataclass
class _Open:
    """A traceback being read."""

    lead: str
    rank: str
    order: int
    preceding: tuple[str, ...]
    last_line: int
    frames: list[Frame] = field(default_factory=list)  # the outermost HEAD_FRAMES, then ...
    inner: deque[Frame] | None = None  # ... the innermost (made when the head is full)
    omitted: int = 0
    expect_source: bool = False  # the last line was a frame: a flat paste's next line is its source
    orphan: bool = False  # an exception line quoted alone: only indented lines continue it
    exc_type: str = ""
    message_lines: list[str] = field(default_factory=list)
    state: str = "frames"  # frames -> message -> blank -> chain:<kind>
    pending_source: list[str] = field(default_factory=list)
    cause: Traceback | None = None
    chain: str = ""


@dataclass
class _Stream:
    rank: str = ""
    open: _Open | None = None


@dataclass(frozen=True)
class _Line:
    """One journal line taken apart: which process said it, and what."""

    pid_key: str  # "" for plain text, else "pid:<ident>[<pid>]"
    rank: str | None  # SGLang's rank prefix ("TP3", "" for the launcher), None: no prefix
    body: str
    parts: tuple[str, ...] = ()  # a JSON MESSAGE holding several lines


def _container(line: str) -> tuple[str, str]:
    """(a key naming the container, the line without its prefix); ("", line) if none."""
    first = line[:1]
    if first.isdigit() and line[10:11] == "T":
        stamped = _DOCKER_TS.match(line)
        if stamped is not None:
            line = line[stamped.end() :]
            first = line[:1]
    if first == "(":
        ray = _RAY.match(line)
        if ray is not None:
            return f"ray:{ray.group('name')}[{ray.group('pid')}]", line[ray.end() :]
    elif line.startswith("[pod/"):
        pod = _KUBECTL.match(line)
        if pod is not None:
            return f"pod:{pod.group('name')}", line[pod.end() :]
    elif "| " in line[:64]:
        compose = _COMPOSE.match(line)
        if compose is not None:
            return f"svc:{compose.group('name').strip('[]')}", line[compose.end() :]
    return "", line


def _split(line: str) -> _Line | None:
    """Strip the container, journal and SGLang prefixes; None for journal meta lines."""
    owner, line = _container(line)
    if owner:
        return _sglang(owner, line)
    if line[:1] == "{" and line.endswith("}"):
        parsed = _json_entry(line)
        if parsed is not None:
            pid, msg = parsed
            parts = tuple(msg.split("\n"))
            head = _sglang(f"pid:{pid}" if pid else "", parts[0])
            return _Line(head.pid_key, head.rank, head.body, parts if len(parts) > 1 else ())
    if line[:2] == "--" and _JOURNAL_META.match(line):
        return None
    if line[:1].isalnum():
        match = _JOURNAL_SHORT.match(line)
        if match is not None and _looks_like_journal(match):
            return _sglang(f"pid:{match.group('ident')}[{match.group('pid') or ''}]", match.group("msg"))
    return _sglang("", line)


def _sglang(pid_key: str, msg: str) -> _Line:
    if msg[:1] == "[":
        prefixed = _SGLANG_PREFIX.match(msg)
        if prefixed is not None:
            return _Line(pid_key, prefixed.group("ranks").strip(), prefixed.group("msg"))
    elif msg[:1] in "DIWEC" and (vllm := _VLLM_PREFIX.match(msg)):
        return _Line(pid_key, None, vllm.group("msg"))
    return _Line(pid_key, None, msg)


# A line that can matter when no traceback is open: it starts one, or is a failure line.
# A case-sensitive superset of _SIGNAL_HINT, searched over whole blocks at C speed.
_INTERESTING = re.compile(
    r"Traceback \(most recent call last\)|rror|RROR|emory|NCCL|nccl|Errno|in use|Segment|SEGV|exit status"
    r"|Kill|KILL|oom-kill|exited|signal 11|\"MESSAGE\":\[|Exception|Watchdog|File \""
)
LOOKBACK_LINES = 2000
STALE_LINES = 5000  # an open traceback that hears nothing for this long was cut off
BLOCK_BYTES = 1 << 20


class JournalParser:
    """Feed a journal (any form, mixed is fine) by line or by block; read :meth:`result`.

    Block mode (:meth:`feed_block`, used by :func:`parse_text` and :func:`parse_stream`)
    finds the few lines that can matter with one regex scan of the block and skips the
    rest; line mode (:meth:`feed`) looks at every line. Both give the same result.
    """

    def __init__(self) -> None:
        self._streams: dict[str, _Stream] = {}
        self._open_keys: dict[str, None] = {}  # ordered set of streams with an open traceback
        # Indexes that keep the work per line constant however many processes a journal
        # holds (a scan of every stream or open traceback per line is quadratic):
        self._open_of_pid: dict[str, dict[str, None]] = {}  # pid key -> its open streams
        self._heard: dict[str, None] = {}  # open streams, least recently heard first
        self._in_message: dict[str, None] = {}  # open streams reading an exception message
        self._last_stream_of_pid: dict[str, str] = {}  # pid key -> its newest stream
        self._tracebacks: list[Traceback] = []
        self._signals: list[Signal] = []
        self._dropped = 0
        self._cut_lines = 0
        self._order = 0
        self._lines = 0
        self._bytes = 0
        self._recent: deque[str] = deque(maxlen=LOOKBACK_LINES)
        self._last_plain_owner = ""
        self._block: list[str] = []
        self._block_index = -1
        self._carry = b""

    # public ----------------------------------------------------------------------------
    def feed(self, raw: str | bytes) -> None:
        """One line (its newline optional)."""
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8", errors="replace")
        self._bytes += len(raw)
        line = raw.rstrip("\r\n")
        self._lines += 1
        if len(line) > MAX_LINE:
            self._cut_lines += 1
        self._process(line)
        self._recent.append(line[:MAX_LINE])

    def feed_block(self, text: str) -> None:
        """Complete lines (a trailing partial line is taken as complete)."""
        if not text:
            return
        self._bytes += len(text)
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        marks = _line_numbers(text, _INTERESTING)
        if len(text) > MAX_LINE:  # a block shorter than the cap holds no line over it
            self._cut_lines += sum(1 for line in lines if len(line) > MAX_LINE)
        self._block = lines
        n = len(lines)
        i = 0
        mark = 0
        while i < n:
            if not self._open_keys:
                while mark < len(marks) and marks[mark] < i:
                    mark += 1
                if mark == len(marks):
                    break
                i = marks[mark]
            self._block_index = i
            self._process(lines[i].rstrip("\r"))
            i += 1
        self._lines += n
        self._recent.extend(line[:MAX_LINE] for line in lines[-LOOKBACK_LINES:])
        self._block = []
        self._block_index = -1

    def feed_bytes(self, chunk: bytes) -> None:
        """Raw bytes as they arrive (a file, a log over SSH); lines may straddle chunks."""
        data = self._carry + chunk
        cut = data.rfind(b"\n")
        if cut < 0:
            self._carry = data
            if len(data) > 4 * BLOCK_BYTES:  # a gigantic line: take it in pieces
                self._carry = b""
                self.feed_block(data.decode("utf-8", errors="replace") + "\n")
            return
        self._carry = data[cut + 1 :]
        self.feed_block(data[: cut + 1].decode("utf-8", errors="replace"))

    def feed_text(self, text: str | bytes) -> None:
        data = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
        self.feed_block(data)

    def result(self) -> Journal:
        if self._carry:
            carry, self._carry = self._carry, b""
            self.feed_block(carry.decode("utf-8", errors="replace"))
        for key in list(self._open_keys):
            self._finish(key, self._streams[key], truncated=True)
        ordered = sorted(self._tracebacks, key=lambda tb: tb.order)
        return Journal(
            tracebacks=tuple(ordered),
            signals=tuple(self._signals),
            lines=self._lines,
            bytes=self._bytes,
            tail=tuple(list(self._recent)[-40:]),
            dropped_tracebacks=self._dropped,
            cut_lines=self._cut_lines,
        )

    # per line --------------------------------------------------------------------------
    def _line_no(self) -> int:
        return self._lines + max(self._block_index, 0)

    def _process(self, line: str) -> None:
        if len(line) > MAX_LINE:
            line = line[:MAX_LINE]
        if not line:
            self._blank_line()
            return
        split = _split(line)
        if split is None:
            return
        if self._open_keys:
            self._close_stale()
        self._message(split.pid_key, split.rank, split.body, line)
        for part in split.parts[1:]:
            inner = _sglang(split.pid_key, part)
            self._message(inner.pid_key, inner.rank, inner.body, part)

    def _blank_line(self) -> None:
        # A blank line matters only inside a traceback (it separates chained exceptions).
        waiting, self._in_message = self._in_message, {}
        for key in waiting:
            stream = self._streams.get(key)
            tb = stream.open if stream is not None else None
            if tb is not None and tb.state == "message":
                tb.state = "blank"

    def _close_stale(self) -> None:
        now = self._line_no()
        stale: list[str] = []
        for key in self._heard:  # least recently heard first: stop at the first fresh one
            tb = self._streams[key].open
            if tb is None or now - tb.last_line <= STALE_LINES:
                break
            stale.append(key)
        for key in stale:
            self._finish(key, self._streams[key], truncated=True)

    def _message(self, pid_key: str, rank: str | None, body: str, raw: str) -> None:
        if rank is not None:
            key = f"{pid_key}|{rank}"
            if not pid_key:
                self._last_plain_owner = key
            stream = self._stream(key)
            stream.rank = rank
            # A new log record ends whatever traceback this process was printing.
            if stream.open is not None:
                self._finish(key, stream)
            self._line(key, stream, body)
            return
        key = self._route_unprefixed(pid_key)
        self._line(key, self._stream(key), body)

    def _route_unprefixed(self, pid_key: str) -> str:
        open_streams = self._open_of_pid.get(pid_key, {})
        if pid_key:
            # A journal PID is one process; its rank is whatever it last logged as.
            open_owner = next(iter(open_streams), None)
            if open_owner:
                return open_owner
            return self._last_stream_of_pid.get(pid_key, f"{pid_key}|")
        # Plain text: continuation lines belong to whichever process is mid-traceback.
        if len(open_streams) == 1:
            return next(iter(open_streams))
        return self._last_plain_owner or "|"

    def _stream(self, key: str) -> _Stream:
        stream = self._streams.get(key)
        if stream is None:
            if len(self._streams) >= MAX_STREAMS:
                self._forget_streams()
            stream = _Stream(rank=key.split("|", 1)[1] if "|" in key else "")
            self._streams[key] = stream
            self._last_stream_of_pid[_pid_of(key)] = key
        return stream

    def _forget_streams(self) -> None:
        """Drop the older half of the processes with nothing open (memory stays bounded)."""
        for key in list(self._streams)[: MAX_STREAMS // 2]:
            if key in self._open_keys:
                continue
            del self._streams[key]
            pid = _pid_of(key)
            if self._last_stream_of_pid.get(pid) == key:
                del self._last_stream_of_pid[pid]

    def _line(self, key: str, stream: _Stream, body: str) -> None:
        tb = stream.open
        if tb is not None:
            tb.last_line = self._line_no()
            self._heard.pop(key, None)
            self._heard[key] = None
            if self._traceback_line(key, stream, tb, body):
                return
        start = body.find(_TB_START)
        full = len(self._tracebacks) >= MAX_TRACEBACKS
        if start >= 0:
            if full:  # it would be dropped when it ends: count it, read its lines as plain ones
                self._dropped += 1
                return
            self._start(key, stream, lead=body[:start].strip(), cause=None, chain="")
            return
        if full:
            if _SIGNAL_HINT.search(body):
                self._signal(stream, body)
            return
        if 'File "' in body[:16] and _FRAME.match(body):
            # Frames with no header above them: a traceback cut at the top.
            self._start(key, stream, lead="", cause=None, chain="")
            self._line(key, stream, body)
            return
        if _SIGNAL_HINT.search(body):
            self._signal(stream, body)
        if body[:1].isalpha() or body[:1] == "_":
            orphan = _ORPHAN.match(body)
            if orphan is not None:
                self._start(key, stream, lead="", cause=None, chain="")
                tb = stream.open
                assert tb is not None
                tb.exc_type, tb.message_lines = orphan.group("type"), [orphan.group("msg")]
                tb.state, tb.orphan = "message", True
                self._in_message[key] = None

    def _start(self, key: str, stream: _Stream, *, lead: str, cause: Traceback | None, chain: str) -> None:
        if len(self._open_keys) >= MAX_OPEN:
            oldest = next(iter(self._heard))
            self._finish(oldest, self._streams[oldest], truncated=True)
        self._order += 1
        # Past MAX_TRACEBACKS a new traceback is dropped when it ends: no context to look up.
        wanted = cause is None and len(self._tracebacks) < MAX_TRACEBACKS
        stream.open = _Open(
            lead=lead,
            rank=stream.rank,
            order=self._order,
            preceding=self._preceding(key) if wanted else (),
            last_line=self._line_no(),
            cause=cause,
            chain=chain,
        )
        self._open_keys[key] = None
        self._open_of_pid.setdefault(_pid_of(key), {})[key] = None
        self._heard[key] = None

    def _preceding(self, key: str) -> tuple[str, ...]:
        """The last few lines the same process printed before this traceback."""
        pid_key, _, rank = key.partition("|")
        # A journal line of this process names it ("python[123]"): a substring test skips
        # other processes' lines before the costlier split.
        needle = pid_key[4:].removesuffix("[]") if pid_key.startswith("pid:") else ""
        found: list[str] = []
        scanned = 0
        for line in self._recent_lines_backwards():
            scanned += 1
            if scanned > LOOKBACK_LINES or len(found) >= CONTEXT_LINES:
                break
            if not line.strip() or (needle and line[:1] != "{" and needle not in line):
                continue
            split = _split(line)
            if split is None or split.pid_key != pid_key:
                continue
            if split.rank is not None and split.rank != rank:
                continue
            if _TB_START in split.body:
                break  # the previous traceback of this process: context ends there
            found.append(split.body.strip())
        return tuple(reversed(found))

    def _recent_lines_backwards(self) -> Iterator[str]:
        if self._block_index >= 0:
            for i in range(self._block_index - 1, max(-1, self._block_index - 1 - LOOKBACK_LINES), -1):
                yield self._block[i]
        yield from reversed(self._recent)

    def _traceback_line(self, key: str, stream: _Stream, tb: _Open, body: str) -> bool:
        """Consume a line of an open traceback; False if the line ends it (reprocess)."""
        if tb.state == "frames":
            frame = _FRAME.match(body)
            if frame is not None:
                self._flush_source(tb)
                self._add_frame(tb, Frame(frame.group("file"), int(frame.group("line")), frame.group("func")))
                tb.expect_source = True
                return True
            if body[:1] in ("^", "~", " ", "\t") and _CARETS.match(body):
                return True
            if body.startswith("    ") or body.startswith("\t"):
                if (tb.expect_source or tb.pending_source) and len(tb.pending_source) < 8:
                    tb.pending_source.append(body.strip())
                return True
            if _REPEATED.match(body) or body.strip() == "...":
                return True
            exc = _EXC_LINE.match(body.strip()) if not body.startswith(" ") else None
            if exc is None and tb.expect_source and not body.startswith(" "):
                # A flat paste (indentation lost): the line after a frame is its source.
                tb.pending_source.append(body.strip())
                tb.expect_source = False
                return True
            tb.expect_source = False
            self._flush_source(tb)
            if exc is None:
                if body.startswith("  "):
                    return True  # exception-group decoration and other indented noise
                # Something that is no exception line: the traceback was cut off here.
                self._finish(key, stream, truncated=True)
                return False
            tb.exc_type = exc.group("type")
            tb.message_lines = [exc.group("msg") or ""]
            tb.state = "message"
            self._in_message[key] = None
            if _SIGNAL_HINT.search(body):
                self._signal(stream, body)
            return True
        if tb.state == "message":
            if _TB_START in body or (tb.orphan and body[:1] not in (" ", "\t")):
                self._finish(key, stream)
                return False
            if len(tb.message_lines) < MAX_MESSAGE_LINES:
                tb.message_lines.append(body)
            return True
        if tb.state == "blank":
            text = body.strip()
            if text in (_CHAIN_CONTEXT, _CHAIN_CAUSE):
                tb.state = "chain:" + ("cause" if text == _CHAIN_CAUSE else "context")
                return True
            self._finish(key, stream)
            return False
        if tb.state.startswith("chain:"):
            if body.strip().startswith(_TB_START):
                done = self._build(tb)
                self._order += 1
                stream.open = _Open(
                    lead=tb.lead,
                    rank=tb.rank,
                    order=tb.order,
                    preceding=tb.preceding,
                    last_line=self._line_no(),
                    cause=done,
                    chain=tb.state.split(":", 1)[1],
                )
                return True
            self._finish(key, stream)
            return False
        return False

    @staticmethod
    def _add_frame(tb: _Open, frame: Frame) -> None:
        """Keep the outermost HEAD_FRAMES and the innermost rest; the middle of a deeper one goes."""
        if tb.inner is None:
            if len(tb.frames) < HEAD_FRAMES:
                tb.frames.append(frame)
                return
            tb.inner = deque(maxlen=MAX_FRAMES - HEAD_FRAMES)
        if len(tb.inner) == tb.inner.maxlen:
            tb.omitted += 1
        tb.inner.append(frame)

    @staticmethod
    def _flush_source(tb: _Open) -> None:
        # The source lines read since the last frame belong to that frame, the newest one,
        # which is always kept (a frame evicted from the middle takes nothing with it).
        if tb.pending_source:
            pool = tb.inner if tb.inner else tb.frames
            if pool:
                last = pool[-1]
                pool[-1] = Frame(last.file, last.line, last.function, " ".join(tb.pending_source))
        tb.pending_source = []
        tb.expect_source = False

    def _build(self, tb: _Open, *, truncated: bool = False, stream: str = "") -> Traceback:
        self._flush_source(tb)
        message = "\n".join(tb.message_lines).strip()
        return Traceback(
            exc_type=tb.exc_type,
            message=message,
            frames=(*tb.frames, *(tb.inner or ())),
            omitted_frames=tb.omitted,
            stream=stream,
            rank=tb.rank,
            order=tb.order,
            truncated=truncated or not tb.exc_type,
            cause=tb.cause,
            chain=tb.chain,
            preceding=tb.preceding,
            lead=tb.lead,
        )

    def _finish(self, key: str, stream: _Stream, *, truncated: bool = False) -> None:
        tb = stream.open
        stream.open = None
        self._open_keys.pop(key, None)
        self._heard.pop(key, None)
        self._in_message.pop(key, None)
        pid = _pid_of(key)
        open_streams = self._open_of_pid.get(pid)
        if open_streams is not None:
            open_streams.pop(key, None)
            if not open_streams:
                del self._open_of_pid[pid]
        if tb is None:
            return
        if len(self._tracebacks) >= MAX_TRACEBACKS:
            self._dropped += 1  # nothing to keep: building it would be the whole cost of the line
            return
        self._tracebacks.append(self._build(tb, truncated=truncated and tb.state == "frames", stream=key))

    def _signal(self, stream: _Stream, body: str) -> None:
        if len(self._signals) >= MAX_SIGNALS or not _ANY_SIGNAL.search(body):
            return
        for kind, pattern in _SIGNALS:
            if pattern.search(body):
                self._order += 1
                self._signals.append(Signal(kind, body.strip()[:2000], rank=stream.rank, order=self._order))
                return


def _pid_of(key: str) -> str:
    """A stream key's process part ("pid:python[12]|TP3" -> "pid:python[12]"; "" for plain text)."""
    return key.rpartition("|")[0]


def _line_numbers(text: str, pattern: re.Pattern[str]) -> list[int]:
    """Indices of the lines of ``text`` in which ``pattern`` matches, in order."""
    out: list[int] = []
    line = 0
    pos = 0
    for match in pattern.finditer(text):
        start = match.start()
        line += text.count("\n", pos, start)
        pos = start
        if not out or out[-1] != line:
            out.append(line)
    return out


def _looks_like_journal(match: re.Match[str]) -> bool:
    # "May 25 19:34:29 host python[123]: msg" - identifier present; guards against
    # a plain log line that merely starts with a month name.
    return bool(match.group("ident"))


def _json_entry(line: str) -> tuple[str, str] | None:
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    if not isinstance(entry, dict) or "MESSAGE" not in entry:
        return None
    message = entry["MESSAGE"]
    if isinstance(message, list):  # journald's form for a MESSAGE that is not UTF-8
        try:
            message = bytes(int(b) & 0xFF for b in message).decode("utf-8", errors="replace")
        except (TypeError, ValueError):
            message = ""
    elif message is None:
        message = ""
    pid = str(entry.get("_PID") or entry.get("SYSLOG_PID") or "")
    ident = str(entry.get("SYSLOG_IDENTIFIER") or entry.get("_COMM") or "")
    return (f"{ident}[{pid}]" if pid or ident else ""), str(message)


def parse(lines: Iterable[str | bytes]) -> Journal:
    """Parse an iterable of lines in one streaming pass (line mode)."""
    parser = JournalParser()
    for line in lines:
        parser.feed(line)
    return parser.result()


def parse_text(text: str | bytes) -> Journal:
    parser = JournalParser()
    parser.feed_text(text)
    return parser.result()


def parse_stream(stream: BinaryIO, block_bytes: int = BLOCK_BYTES) -> Journal:
    """Parse a binary file object block by block; memory stays flat in its size."""
    parser = JournalParser()
    while chunk := stream.read(block_bytes):
        parser.feed_bytes(chunk)
    return parser.result()


def iter_frames(tb: Traceback) -> Iterator[Frame]:
    for node in tb.chain_list():
        yield from node.frames
