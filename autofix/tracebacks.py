"""Journal text -> Python tracebacks and failure signals. Pure, streaming, line by line.

Reads what a crashed server left behind in any of the forms an operator meets: plain
stderr, ``journalctl -o short`` / ``short-iso`` / ``short-precise``, and ``-o json``
(where MESSAGE may be a byte array), behind a container's prefix (``docker compose logs``,
``docker logs --timestamps``, ``kubectl logs --prefix``, a Ray worker's, a cloud log
viewer's severity and timestamp), pasted without
its indentation, quoted in an issue ("> "), a Ray worker's lines joined into one by a web
page, or cut at the top (frames with no ``Traceback`` header, an exception line quoted
alone); an exception named only inside a sentence is kept as the weakest evidence, used
when the journal shows no traceback that names its exception (one cut above its
exception line names none); an error quoted in a sentence without its class is weaker
still. Lines are demultiplexed by process (journal PID) and by SGLang's rank prefix
(``[2026-05-25 19:34:29 TP3] ...``), so the tracebacks of
nine interleaved processes come apart again. Memory stays bounded whatever the journal
size: only open tracebacks, a few lines of context per process and capped result lists
are kept (chains past MAX_CHAIN keep their first and newest links). Speed does not depend
on what the journal holds: lines that cannot matter are skipped by block-wide C searches,
and once MAX_TRACEBACKS are kept only failure lines are read, the rest counted.

The root cause is chosen the way an expert reads a TP=8 crash: the first failing
rank's original exception, not the parent's "scheduler died" wrapper, not the last
traceback printed.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import BinaryIO, NamedTuple

from .model import Frame

MAX_TRACEBACKS = 200
MAX_SIGNALS = 200
# Exceptions quoted inside prose ("the server dies with `RuntimeError: x`"): the weakest
# evidence there is, used only when nothing else explains a failure; few are worth keeping.
MAX_QUOTED = 16
# Exceptions chained ("During handling ...") deeper than this keep the first (the root
# cause) and the last ones; chain_list() walks no further either.
MAX_CHAIN = 32
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
_MONTH_SET = frozenset(_MONTHS.split("|"))
# journalctl -o short: "May 25 19:34:29 host ident[pid]: msg"; short-iso / short-precise too,
# and short-monotonic ("[ 1234.567890] host ident[pid]: msg", seconds since boot).
_JOURNAL_SHORT = re.compile(
    rf"^(?:(?:{_MONTHS}) [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"
    r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:?\d\d|Z)?"
    r"|\[ *\d+\.\d{6}\])"
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
_RAY = re.compile(r"^\((?P<name>[\w.-]+) pid=(?P<pid>\d+)(?:, ip=[\w.:]+)?\)(?: |$)")
# The same prefix anywhere in a line: a Ray worker's lines joined into one (a web page's copy).
_RAY_ANY = re.compile(r"\([\w.-]+ pid=\d+(?:, ip=[\w.:]+)?\)(?: |$)")
_DOCKER_TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ")
# The CRI log file's (containerd, CRI-O: /var/log/pods/*/*.log) after its timestamp: the
# stream and whether the line is whole (F) or a part of a longer one (P).
_CRI_STREAM = re.compile(r"^(?:stdout|stderr) [FP] ")
# Slurm's `srun --label`: the task's number before each line its task printed.
_SRUN_LABEL = re.compile(r"^(?P<task>\d{1,4}): ")
# Python's exception groups (3.11+) print each nested traceback behind a margin of "| " two
# spaces deeper per level, open the group with "+ Exception Group Traceback ...", and part
# its sub-exceptions with "+-+---- 1 ----" / "+----" separators.
_GROUP_MARGIN = re.compile(
    r"^(?:  )+(?:\| ?|\+ (?=Exception Group Traceback)|(?P<separator>\+[-+]*(?: \d+ -+| \.\.\..*)?$))"
)
# A terminal's colours (ANSI control sequences), kept when a log is copied from one.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
# A cloud log viewer's export (Google Cloud Logging, `gcloud logging read --format`): the
# entry's severity, then its RFC 3339 timestamp, before what the container printed.
_CLOUD_SEVERITY = re.compile(
    r"^(?:DEFAULT|DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL|ALERT|EMERGENCY) "
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d) "
)

# -- traceback grammar ----------------------------------------------------------------------

_TB_START = "Traceback (most recent call last):"
# ``.*\S`` rather than ``.+?\s*$``: a lazy name before ``\s*$`` retries the rest of the line
# at every character (quadratic in a run of spaces); so would ``[\^~]+[\^~ ]*`` below.
_FRAME = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+), in (?P<func>.*\S)\s*$')
_CARETS = re.compile(r"^\s*[\^~][\^~ ]*$")
# An exception class named like a failure (dotted module path allowed): "torch.OutOfMemoryError".
_FAILURE_NAME = r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)"
# A paste that lost its newlines glues a frame's code and the exception line onto the frame:
# 'File "m.py", line 3, in f x = g() TypeError: g() missing ...' (a name like a failure's).
_GLUED_EXCEPTION = re.compile(rf"(?:^|\s)(?P<line>{_FAILURE_NAME}(?::\s.*|$))")
# A traceback re-indented as a block puts its closing line where its frames are: "  AssertionError"
# (named like a failure: other indented lines in a traceback are decoration).
_INDENTED_EXCEPTION = re.compile(rf"^ {{1,2}}(?P<type>{_FAILURE_NAME})(?:: (?P<msg>.*))?$")
# The start of a frame line: a traceback cut after "F", "Fi", "Fil" or "File" was cut there.
_FRAME_HEADER = 'File "'
# A fence opening below a bare exception line ("```" or "```text"): what it holds is the message.
_OPENING_FENCE = re.compile(r"^```[\w-]*\s*$")
_REPEATED = re.compile(r"^\s*\[Previous line repeated \d+ more times?\]$")
# Exception classes are CamelCase by convention: "sglang.service: Main process exited" is no exception.
# Ray's wrapper names the remote exception in parentheses: "ray.exceptions.RayTaskError(OutOfMemoryError)".
_EXC_LINE = re.compile(r"^(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:\([A-Z]\w*\))?)(?::(?: (?P<msg>.*))?)?$")
# An exception line quoted alone (the traceback cut off above it, or never printed): only
# types named like failures, so "Note: ..." or "Summary: ..." prose is not one.
# ASCII names: a sentence in another script glued to "Exception:" is prose (see _name_before).
# A class named otherwise still reads as one when its module is an exceptions module
# (``triton.runtime.errors.OutOfResources``, ``torch._dynamo.exc.Unsupported``): Python
# prints a non-builtin exception by its module, and such modules are named so by convention.
_EXC_MODULE = r"(?:[A-Za-z_]\w*\.)*(?:errors|exc|exceptions)\.[A-Z]\w*"
_ORPHAN = re.compile(
    rf"^(?P<type>(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception)|Exception)(?:\([A-Z]\w*\))?|{_EXC_MODULE})"
    r": (?P<msg>\S.*)$",
    re.ASCII,
)
# The same name alone at the end of its line, its message on the next ("tvm.error.InternalError:"
# then "Check failed: ..."): a paste that wrapped the line, or a message that starts with a
# newline. Python's bare "Exception:" alone is a heading more often than not: left out.
_BARE_ORPHAN = re.compile(rf"^(?P<type>{_FAILURE_NAME}|{_EXC_MODULE}):$", re.ASCII)
# An error code quoted in a sentence that says something failed ("aborts (`CUDA_ERROR_LAUNCH_FAILED`
# in ...)"): an upper-case constant that names an error, a failure or a library's status
# (CUBLAS_STATUS_NOT_SUPPORTED), between quotes.
_ERROR_CODE = re.compile(
    r"[`'\"\u201c](?P<code>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:ERROR|STATUS|FAILED|FAILURE|FAULT|NOT_SUPPORTED)(?:_(?!SUCCESS)[A-Z0-9]+)*)[`'\"\u201d]"
)
_FAILURE_WORD = re.compile(
    r"(?i)\b(?:errors?|fail(?:s|ed|ing|ure)?|crash(?:es|ed|ing)?|abort(?:s|ed|ing)?|die[sd]?|dying|raise[sd]?)\b"
)
# An error quoted in a sentence: a failure word, at most three words, then the quote; read
# in the first PROSE_LINE characters of a line only.
PROSE_LINE = 2000
# An error quoted in a sentence: a failure word, at most five words, then the quote.
_PROSE_ERROR = re.compile(
    r"(?i)\b(?:errors?|fail(?:s|ed|ing|ure)?|crash(?:es|ed)?|exit(?:s|ed)?|raise[sd]?|throws?"
    r"|reject(?:s|ed)?|refus(?:es|ed)?)\b"
    r"(?:[ \t]+[\w-]+){0,5}?[ \t]*:?[ \t]*[\"\u201c`](?P<quote>[^\"\u201d`\n]{12,400})[\"\u201d`]"
)
# The other order: the error in quotes first, then the word ("I meet "..." error when ...").
_QUOTED_THEN_ERROR = re.compile(
    r"[\"\u201c`](?P<quote>[^\"\u201d`\n]{12,400})[\"\u201d`][ \t]+(?:\w+[ \t]+)?"
    r"(?i:errors?|exceptions?|failures?|crash(?:es)?)\b"
)
# An assertion's condition in backticks in a sentence about the assertion
# ("trips the assertion (`x.size(0) <= num_max_dispatch_tokens_per_rank`)").
_ASSERTED = re.compile(r"`(?P<quote>[^`\n]{1,300}?(?:<=|>=|==|!=| < | > )[^`\n]{1,300}?)`")
_ASSERT_WORD = re.compile(r"(?i)\bassert(?:s|ed|ion)?\b")
# A message in backticks that says itself that something is wrong ("`... this should not happen`"),
# or states a failure with its detail ("`Capture cuda graph failed: x`", "`X failed to dispatch
# with dtype Half`").
_SELF_SAYS = re.compile(
    r"`(?P<quote>[^`\n]{0,400}?(?i:should (?:not|never) happen|unexpected|mismatch|failed: |failed to |error: )"
    r"[^`\n]{0,200})`"
)
# A C-style assertion's own line in backticks ("`Assertion 'x' failed.`"): it says it failed.
_C_ASSERTION = re.compile(r"`(?P<quote>Assertion ['\"][^`\n]{1,300}['\"] failed\.?)`")
# A JSON error object a server answers with: its message, and the type or object that says
# it is an error, within a few lines of each other (pretty-printed) or on the one line.
_JSON_MESSAGE = re.compile(r'"(?:message|detail)"\s*:\s*"(?P<message>(?:[^"\\\n]|\\.){8,600})"')
_JSON_ERROR_TYPE = re.compile(r'"type"\s*:\s*"(?P<type>[A-Za-z_]\w*(?:Error|Exception))"')
_JSON_ERROR_OBJECT = re.compile(r'"object"\s*:\s*"error"|"error"\s*:\s*\{')
ERROR_OBJECT_LINES = 4
# A raise quoted from the code, its message's string on the line or the next ones.
_RAISE_LINE = re.compile(r"\s*raise\s+(?P<type>[A-Z]\w*(?:Error|Exception))\(\s*(?P<rest>.*)$")
_STRING_LITERAL = re.compile(r"""f?(?P<q>["'])(?P<text>[^"'\n]{8,400})(?P=q)\s*,?\s*\)?$""")
LOOKBACK_RAISE = 80
# A release's version ("0.6.16.post4", "v2.9.1+cu128"): named beside a failure, not one.
_VERSION = re.compile(r"v?\d+(?:\.\d+)+(?:[.-]?(?:post|rc|dev|a|b)\d*)*(?:\+\w+)?")


def _says_raised(prose: str, name: str) -> bool:
    """Whether a sentence says the exception ``name`` was raised ("a ValueError is raised",
    "it raises ValueError")."""
    said = rf"(?i)\b{name}\b[^.\n]{{0,30}}\b(?:raised|thrown)\b|\b(?:raises|threw|throws) (?:an? )?{name}\b"
    return re.search(said, prose) is not None


def _quoted_error(text: str) -> re.Match[str] | None:
    """The quote a sentence gives as its error: of several ("crashes at `x` with this error:
    "RuntimeError: ..."") the one that names an exception, else the first."""
    found = [
        m
        for m in (*_PROSE_ERROR.finditer(text), *_QUOTED_THEN_ERROR.finditer(text))
        if not _VERSION.fullmatch(m.group("quote").strip())  # "fails with FlashInfer `0.6.16.post4`"
    ]
    named = [m for m in found if _NAMED_ERROR.search(m.group("quote"))]
    return (named or found)[0] if found else None


_CHAIN_CONTEXT = "During handling of the above exception, another exception occurred:"
_CHAIN_CAUSE = "The above exception was the direct cause of the following exception:"

# -- non-Python failure lines ---------------------------------------------------------------

_SIGNALS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # A compiler's own error line (a JIT build of a kernel: gcc's "x.cuh:20:10: fatal error:",
    # nvcc's "x.cu(118): error:"). Before argparse's pattern, which a gcc line would also fit.
    # The pattern starts at the position, not the file name (a name-first pattern would be
    # tried from every character of a long line); _names_source_file checks the name.
    ("compile_error", re.compile(r"(?::\d+:\d+:|\(\d+\):) (?:fatal )?error: (?P<detail>.+)")),
    # ninja's line for a build step that failed ("FAILED: [code=139] cuda_0.o"; no code before
    # ninja 1.12): the failure when the compiler died without an error line of its own.
    ("build_failed", re.compile(r"^FAILED: (?P<detail>(?:\[code=-?\d+\] )?\S.*)$")),
    ("argparse_error", re.compile(r"^(?:usage: )?(?P<prog>[\w .:/-]+): error: (?P<detail>.+)$")),
    # The dynamic loader could not start a program: a library it needs is missing (a
    # parent reports the child's exit code 127).
    # Its refusal of a library built against newer symbols ("libc.so.6: version `GLIBC_2.32'
    # not found (required by x.so)") reads the same wherever a program logs it.
    (
        "loader_error",
        re.compile(r"error while loading shared libraries: (?P<detail>.+)|version `[\w.]+' not found \(required by "),
    ),
    # A shell that finds no such program (dash: "/bin/sh: 1: nvcc: not found"; bash: "bash:
    # line 3: nvcc: command not found"): weak, since a diagnostic tool missing (py-spy, run
    # after a watchdog fired) reads the same as a compiler a build needs.
    ("program_not_found", re.compile(r"(?<![\w-])(?:ba|da|z)?sh: (?:\d+: |line \d+: )?\S+: (?:command )?not found")),
    # (any accelerator's allocator: torch_npu says "NPU out of memory", ROCm "HIP out of memory")
    ("oom", re.compile(r"(?:(?:CUDA|NPU|HIP|XPU) out of memory|torch\.OutOfMemoryError|OutOfMemoryError: CUDA)")),
    # torch's NCCL watchdog (a collective never finished) and SGLang's own (a batch never did).
    ("nccl_timeout", re.compile(r"Watchdog caught collective operation timeout|Watchdog thread terminated")),
    # Older releases say "Watchdog timeout (...)", newer ones name what hung: "Scheduler
    # watchdog timeout (self.watchdog_timeout=300, self.soft=False)".
    # (a literal start: a character class first would be tried at every position of a line)
    ("sglang_watchdog", re.compile(r"atchdog timeout \(self\.watchdog_timeout=")),
    # A CUDA kernel's own assertion ("Indexing.cu:1500: ...: Assertion `i < n` failed."): the
    # "device-side assert triggered" CUDA error that follows it only reports it. Its file and
    # kernel may be printed (or wrapped) onto the line before "block: [..], thread: [..]".
    # C++ kernel libraries' own form (DeepGEMM's): "Assertion failed: x.cuh:131, condition: ...".
    (
        "device_assert",
        re.compile(
            r"(?:\.cu:\d+: .*|block: \[[\d,]+\], thread: \[[\d,]+\] )Assertion `.+` failed"
            r"|Assertion failed: [\w./-]+\.(?:cuh?|hpp|h|cc|cpp):\d+, condition: "
        ),
    ),
    # flashinfer prints "CUDA Error:" with a capital E; kernels built with a CHECK macro
    # (FlashMLA, cutlass) "CUDA error (file.cu:93): ..."; a driver API call's failure is its
    # error's name, then the source file that checked it ("CUDA_ERROR_INVALID_VALUE
    # /workspace/.../fmhaKernels.cuh 328"; a sentence that explains a code names none).
    # torch's line after its "CUDA error: ..." names the runtime's error ("Search for
    # `cudaErrorIllegalAddress' in https://docs.nvidia.com/..."): the failure where a paste
    # was cut below the line before it.
    (
        "cuda_error",
        # (ROCm's torch says "HIP error: ..." where CUDA's says "CUDA error: ...")
        re.compile(
            r"(?:(?:CUDA|HIP) [Ee]rror(?: \([^)\n]{1,300}\))?: |(?=CUDA_ERROR_[A-Z_]+ [^\s`'\"]*/)"
            r"|(?=Search for .cudaError[A-Za-z]+' in ))(?P<detail>.+)"
        ),
    ),
    # ROCm's report of a kernel's memory fault ("Memory access fault by GPU node-2 ... on
    # address 0x..."): the process aborts without a Python traceback. The kernel log's
    # (dmesg) report of one: amdgpu's page fault lines ("[gfxhub0] retry page fault", "...
    # fault from die AID0.XCD1"), NVIDIA's Xid line ("NVRM: Xid (PCI:...): 13, ...").
    # ROCm's runtime aborting a GPU queue on a hardware exception ("Callback: Queue 0x...
    # aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in ...").
    (
        "gpu_fault",
        re.compile(
            r"Memory access fault by GPU|amdgpu: .{0,60}?(?:page fault|fault from die)|NVRM: Xid \("
            # (a paste may glue the traceback that follows onto the line)
            # (its words may stand on the next line: the name ends its own)
            r"|(?P<detail>HSA_STATUS_ERROR_[A-Z_]+:(?: [A-Z].*?)?)(?:Traceback \(most recent call last\):)?$"
        ),
    ),
    # UCX (the transport under NIXL and Mooncake) at error level: "rdma.c:77 UCX  ERROR   what".
    ("ucx_error", re.compile(r"\bUCX {1,4}ERROR {1,8}(?P<detail>\S.*)")),
    ("nccl_warn", re.compile(r"NCCL WARN (?P<detail>.+)")),
    # A C library's checked status with where it was checked (NVSHMEM's form:
    # "ibrc.cpp:418: non-zero status: 22 ibv_modify_qp failed"); the lines after it pass
    # the same failure up, so the first one is the failure.
    ("status_failed", re.compile(r"\.(?:cuh?|cc|cpp|c):\d+: non-zero status: \d+ (?P<detail>\S.*)")),
    # A part of the server reporting its own failure ("[... TP7] Piecewise CUDA Graph failed
    # with error: ..."), its traceback often cut from the paste below it.
    ("part_failed", re.compile(r"failed with error: (?P<detail>\S.*)")),
    (
        "nccl_error",
        re.compile(r"(?:ncclInternalError|ncclInvalidUsage|ncclSystemError|ncclUnhandledCudaError|ncclRemoteError)"),
    ),
    ("bind_error", re.compile(r"(?:\[Errno 98\]|address already in use|Address already in use)")),
    # glibc's allocator stopping on a corrupt heap ("free(): invalid pointer", "double free or
    # corruption (!prev)", "corrupted size vs. prev_size"): a native library freed what it
    # did not own or wrote past a buffer; the abort that follows only reports it.
    (
        "heap_check",
        re.compile(
            r"(?P<detail>(?:munmap_chunk|free|malloc|realloc|malloc_consolidate|_int_free|_int_malloc)"
            r"\(\): (?:invalid|corrupted|unaligned|unsorted|double free|memory corruption)[^\n]*"
            r"|double free or corruption \([^)\n]{1,10}\)|corrupted (?:size vs\. prev_size|double-linked list)[^\n]*)"
        ),
    ),
    # (a native backtrace's banner too: "!!!!!!! Segfault encountered !!!!!!!")
    (
        "segfault",
        re.compile(r"(?:Segmentation fault|Segfault encountered|status=11/SEGV|exit status 139|signal 11\b|SIGSEGV)"),
    ),
    # The C++ runtime's word that an exception escaped (its "what():" line joins it): the
    # abort faulthandler reports next only follows from it.
    ("cpp_terminate", re.compile(r"terminate called after throwing an instance of '(?P<detail>[^'\n]+)'")),
    # faulthandler's report of another native crash (a C++ abort after a CUDA error, a bus
    # error); its thread dumps that follow are not a traceback.
    (
        "native_abort",
        re.compile(r"Fatal Python error: (?P<detail>Aborted|Bus error|Floating point exception|Illegal instruction)"),
    ),
    # (a launcher's report of a child's exit code -9: SIGKILL, the OOM killer's signal)
    (
        "killed",
        re.compile(
            r"(?:^Killed$|status=9/KILL|exit status 137|Out of memory: Killed process|oom-kill"
            r"|[Ee]xit ?code[:=]? ?-9\b)"
        ),
    ),
    ("exit_status", re.compile(r"Main process exited, code=(?P<code>\w+), status=(?P<detail>\S+)")),
    # SGLang's warning when the profiled KV budget came out negative: the weights left no
    # memory for a KV pool, whatever failure line follows (often cut from a paste).
    ("kv_budget_negative", re.compile(r"is larger than the profiled value -\d")),
    # torch's C++ log at error level ("[rank4]:[E421 02:05:38.764 ProcessGroupGloo.cpp:143] msg",
    # glog's E), last: a line an earlier pattern names (a watchdog's) keeps that kind.
    ("torch_error", re.compile(r"^\[rank\d+\]:\[E\d{3,4} [\d:.]+(?: \d+)? [\w.]+:\d+\] (?P<detail>.+)")),
    # glog's error level from any C++ library (a transfer engine, a kernel runtime):
    # "E0612 14:05:26.176716 1192408 tcp_transport.cpp:136] Session::writeBody failed. ..."
    ("glog_error", re.compile(r"^E\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w.-]+:\d+\] (?P<detail>\S.*)")),
)
# All of them in one search: most lines that hint at a failure ("Error:") are none of these.
_ANY_SIGNAL = re.compile("|".join(f"(?:{re.sub(r'[(][?]P<[a-z]+>', '(?:', p.pattern)})" for _, p in _SIGNALS))
# One cheap search decides whether a line needs the detailed signal patterns at all.
# Case-sensitive on purpose (an IGNORECASE alternation costs 13x more per line); every
# alternative contains one of _INTERESTING's, so block mode never skips a failure line.
_SIGNAL_HINT = re.compile(
    r"error:|Error:|ERROR:|error while loading|out of memory|OutOfMemoryError|CUDA error|CUDA_ERROR_|cudaError"
    r"|NCCL WARN|' not found \(required by|: not found|command not found"
    r"|nccl[A-Z]|Errno 98"
    r"|already in use|Segmentation|Segfault|SEGV|exit status|xit ?code[:=]? ?-9\b|Killed|KILL|oom-kill"
    r"|Main process exited|signal 11"
    r"|Watchdog|watchdog timeout|Assertion `|Assertion failed: |profiled value -|\]:\[E|^E\d{4} \d\d:|access fault"
    r"|page fault|fault from die|NVRM: Xid|terminate called|non-zero status|HSA_STATUS_ERROR_|UCX {1,4}ERROR"
    r"|\(\): |double free|corrupted |FAILED: "
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
    r"^(?>.*?Rank \d+ ).*died|^(?>.*?detokenizer).*died|Exception in (?:ModelTpServer|run_scheduler_process)|"
    # an exception group's own line: its sub-exceptions follow ("... (2 sub-exceptions)")
    r"\(\d+ sub-exceptions?\)$",
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
    # Those of them that carried the rank's own prefix (a user's sentences carry none),
    # oldest first: what a traceback cut before its exception line may have died of.
    rank_said: tuple[str, ...] = ()
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


SIGNAL_LINE = 2000  # characters of a failure line kept


@dataclass(frozen=True)
class Signal:
    """A failure line that is not a Python traceback (NCCL WARN, Killed, exit status …)."""

    kind: str
    line: str
    stream: str = ""
    rank: str = ""
    order: int = 0
    # The failure stands in quotes in the line: a sentence that quotes it, not the line the
    # program printed.
    quoted: bool = False
    # The line is an issue's title (a markdown heading, a "[Bug]" tag): a few words on what
    # the user saw, which the log under it says better.
    titled: bool = False


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
    # The server's launch command as the text shows it ("" if none): a paste usually has
    # the command the user ran above the failure (backslash continuations joined).
    command: str = ""
    # The line that states the most failure (see failure_evidence), "" if none does: what a
    # paste no other reading explains points at.
    likely_error: str = ""
    # SGLang's "Ignore import error when loading sglang.srt.models.<module>: <why>" lines of
    # the last LOOKBACK_LINES, one (module, what it said) per module: noise on most starts,
    # the cause when the model's architecture then goes unsupported.
    ignored_imports: tuple[tuple[str, str], ...] = ()
    # Lines of the last LOOKBACK_LINES that blame options for the failure (BLAMES_OPTION),
    # the first MAX_BLAMING: a report's own view of which setting breaks.
    blaming: tuple[str, ...] = ()

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


_RawFrame = tuple[str, int, str, str]


@dataclass
class _Open:
    """A traceback being read."""

    lead: str
    rank: str
    order: int
    preceding: tuple[str, ...]
    last_line: int
    rank_said: tuple[str, ...] = ()
    # (file, line, function, source): Frames are made only for what is kept, at the end.
    frames: list[_RawFrame] = field(default_factory=list)  # the outermost HEAD_FRAMES, then ...
    inner: deque[_RawFrame] | None = None  # ... the innermost (made when the head is full)
    omitted: int = 0
    expect_source: bool = False  # the last line was a frame: a flat paste's next line is its source
    orphan: bool = False  # an exception line quoted alone: only indented lines continue it
    awaiting_message: bool = False  # a name alone at the end of its line: the next line is its message
    exc_type: str = ""
    message_lines: list[str] = field(default_factory=list)
    state: str = "frames"  # frames -> message -> blank -> chain:<kind>
    pending_source: list[str] = field(default_factory=list)
    chain: str = ""  # how the link before this one led to it ("cause" / "context")
    # The links read before this one, built only when the chain ends: the first of the chain
    # (the root cause) and the newest; past MAX_CHAIN the middle goes, never built.
    first: _Open | None = None
    recent: deque[_Open] = field(default_factory=lambda: deque(maxlen=MAX_CHAIN - 2))


@dataclass
class _Stream:
    rank: str = ""
    open: _Open | None = None


class _Line(NamedTuple):
    """One journal line taken apart: which process said it, and what (a tuple: made per line)."""

    pid_key: str  # "" for plain text, else "pid:<ident>[<pid>]"
    rank: str | None  # SGLang's rank prefix ("TP3", "" for the launcher), None: no prefix
    body: str
    parts: tuple[str, ...] = ()  # a JSON MESSAGE holding several lines


def _container(line: str) -> tuple[str, str]:
    """(a key naming the container, the line without its prefix); ("", line) if none."""
    first = line[:1]
    if first == ">":  # quoted in an issue or a mail ("> ", "> > "): the quote says nothing
        line = _unquote(line)
        first = line[:1]
    if first.isdigit() and line[10:11] == "T":
        stamped = _DOCKER_TS.match(line)
        if stamped is not None:
            line = line[stamped.end() :]
            if line[:3] == "std" and (cri := _CRI_STREAM.match(line)) is not None:
                line = line[cri.end() :]
            first = line[:1]
    if first.isdigit() and ": " in line[1:6]:
        task = _SRUN_LABEL.match(line)
        if task is not None:
            return f"task:{task.group('task')}", line[task.end() :]
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


_QUOTE_MARKS = {'"': '"', "\u201c": "\u201d"}


def _exception_quoted_whole(line: str) -> str | None:
    """The exception line a line quotes whole (an issue's description quoting what it got
    between double quotes); None when the quote holds anything else."""
    text = line.strip()
    close = _QUOTE_MARKS.get(text[:1])
    if close is None or len(text) < 3 or not text.endswith(close):
        return None
    inner = text[1:-1].strip()
    return inner if _ORPHAN.match(inner) else None


def _unquote(line: str) -> str:
    while line[:1] == ">":
        line = line[2:] if line[1:2] == " " else line[1:]
    return line


def _ray_pieces(line: str) -> list[str] | None:
    """A line holding several Ray prefixes, cut before each; None for an ordinary line."""
    starts = [m.start() for m in _RAY_ANY.finditer(line)]
    if not starts or (len(starts) == 1 and (starts[0] == 0 or not line[: starts[0]].lstrip("> ").strip())):
        return None
    bounds = [0, *starts] if starts[0] > 0 else starts
    return [line[a:b].rstrip() for a, b in zip(bounds, [*bounds[1:], len(line)], strict=True)]


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
    if (
        (line[3:4] == " " and line[:3] in _MONTH_SET)
        or (line[4:5] == "-" and line[:1].isdigit())
        or (line[:1] == "[" and line[1:2] in " 0123456789" and "] " in line[:24])
    ):
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


# Once MAX_TRACEBACKS are kept, a line can matter only as a failure signal: the lines
# that can be one (a superset of _SIGNALS, literal so a block scan stays at C speed).
_SIGNAL_BLOCK_PATTERN = (
    r"error(?:: | while loading shared)|out of memory|OutOfMemoryError|Watchdog caught"
    r"|Watchdog thread terminated|Watchdog timeout \(|watchdog timeout \("
    r"|C(?:UDA(?: [Ee]rror(?: \([^)\n]*\))?: |_ERROR_)|X {1,4}ERROR)|NCCL WARN "
    r"|Search for .cudaError"
    r"|' not found \(required by|: not found|command not found"
    r"|n(?:ccl(?:InternalError|InvalidUsage|SystemError|UnhandledCudaError|RemoteError)|on-zero status: )"
    r"|E(?:rrno 98|\d{3,4} \d\d:\d\d:\d\d|xit ?code[:=]? ?-9\b)|d(?:dress already in use| value -\d|ouble free or)"
    r"|S(?:eg(?:mentation fault|fault encountered)|EGV|A_STATUS_ERROR_)"
    r"|e(?:xit(?: status 13[79]| ?code[:=]? ?-9\b)|r throwing an instance)"
    r"|s(?:ignal 11|sertion `|sertion failed: )|Killed|KILL"
    r"|o(?:om-kill|rrupted (?:size vs|double-linked))|Main process exited"
    r"|\"MESSAGE\":\["
    r"|Memory access fault by GPU|page fault|fault from die|NVRM: Xid"
    r"|\(\): (?:invalid|corrupted|double|unaligned|unsorted|memory)|FAILED: "
)
# Every alternative costs the block scan of every journal; the ones added for torch's glog
# error lines ("E421 02:05:38"), a negative profiled budget ("d value -5") and a kernel's
# assertion ("ssertion `"), a C++ terminate ("er throwing an instance") and a C library's
# checked status ("non-zero status: ") share a first letter with an older one, where they
# cost nothing.
# The kernel log's GPU faults ("page fault", "fault from die", "NVRM: Xid") cost about a
# tenth of the scan of a journal of progress lines; no spelling of them that shares a first
# letter measured cheaper.
# ROCm's queue abort ("HSA_STATUS_ERROR_...") and UCX's error lines ("UCX  ERROR") are found
# inside the S and C alternatives of older ones (HSA_STATUS_ERROR_ from its S, UCX from its
# C): one alternative more per scan measured about a tenth slower, folded in none.
# glibc's heap checks ("free(): invalid pointer", "double free or corruption", "corrupted
# size vs. prev_size") are found by their "(): " and from inside their words ("c|orrupted",
# with "oom-kill" under one "o"); one alternative per function name started inside it
# ("fr|ee(): ", "mall|oc(): ", ...) measured a third slower. With the two folds above, a
# scan of 100k progress lines with parentheses measured 455 ms against 499 ms before all three.
# ninja's "FAILED: " has no older alternative to fold into (one under "E" of "ED: " would
# stop at every "LOADED: "): alone it measured 2-3 % of a scan (218 ms against 213 ms).
_SIGNAL_BLOCK = re.compile(_SIGNAL_BLOCK_PATTERN)
# A line that can matter when no traceback is open: it starts one (a header, a frame cut
# from its header, an exception line quoted alone) or it is a failure line. The literals
# are searched over whole blocks at C speed; an exception's name is found from its
# "Error: " by _names (a regex started at every character would cost more, and one over
# a long dotted run be quadratic).
_INTERESTING = re.compile(r"Traceback \(most recent call last\)|File \"|" + _SIGNAL_BLOCK_PATTERN)
_NEEDLE = re.compile(r"(?:Error|Exception)\)?: ")
_BARE_NEEDLE = re.compile(r"(?:Error|Exception):[ \t]*\r?$", re.MULTILINE)
# A class of an exceptions module (see _EXC_MODULE), found by its module's last letters:
# each a plain literal, searched apart (an alternation would lose the literal fast path and
# cost every line of a journal), the module's name checked after.
_MODULE_NEEDLES = tuple(re.compile(rf"{tail}\.(?=[A-Z]\w*: )") for tail in ("rors", "exc", "ions"))
_EXC_MODULES = ("errors", "exc", "exceptions")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
# What a line's prefix ends in (SGLang's and kubectl's "]", compose's "|", the journal's
# ":", Ray's ")", docker's "Z", a quote's ">", JSON's quote).
_PREFIX_ENDS = frozenset(']|:)Z>"\n')
_QUOTES = frozenset("\"'`\u201c")
# An issue title's tag before an exception name ("# [Bug] KeyError: ..."): the title quotes
# the error, its "]" is no log prefix.
_TITLE_TAG = r"\[(?:bug|feature|question|rfc|help|issue)\]\s*:?"
_TITLE_TAG_PREFIX = re.compile(rf"(?i)\s*(?:#{{1,6}}\s+)?{_TITLE_TAG}\s*")


def _name_before(text: str, needle: int) -> int:
    """Where the exception name whose "Error: " / "Exception: " is at ``needle`` starts,
    or -1 if the characters there are no such name: dotted identifiers, the last one
    CamelCase and ending in Error or Exception (or Python's own Exception), ASCII only."""
    start = needle
    while start > 0 and needle - start < 200 and text[start - 1] in _NAME_CHARS:
        start -= 1
    if needle - start >= 200:
        return -1
    dot = text.rfind(".", start, needle)
    last = dot + 1 if dot >= 0 else start
    if not text[last : last + 1].isupper() or (last == needle and text[needle] == "E" and text[needle + 1] == "r"):
        return -1  # a lower-case word, or a bare "Error:" (a log level, not a class)
    if dot >= 0:
        for part in text[start:dot].split("."):
            if not part or part[0].isdigit():
                return -1
    if start > 1 and text[start - 1] == "(":
        # The remote exception a wrapper names in parentheses ("RayTaskError(OutOfMemoryError)"):
        # the line's exception is the wrapper, named before the parenthesis.
        outer = start - 1
        while outer > 0 and start - outer < 200 and text[outer - 1] in _NAME_CHARS:
            outer -= 1
        name = text[outer : start - 1]
        return outer if name.endswith(("Error", "Exception")) and name[:1].isalpha() else -1
    return start


def _starts_line(text: str, start: int) -> bool:
    """Whether a name at ``start`` starts its line: right after a prefix (and a blank),
    or after a JSON message's escaped newline; not inside a sentence."""
    if start == 0:
        return True
    before = text[start - 1]
    if before == " " and start > 1:
        before = text[start - 2]
    return before in _PREFIX_ENDS or (before == "n" and text[start - 2 : start - 1] == "\\")


def _after_title_tag(text: str, start: int) -> bool:
    """Whether the name at ``start`` follows only an issue title's tag on its line."""
    return _TITLE_TAG_PREFIX.fullmatch(text, text.rfind("\n", 0, start) + 1, start) is not None


def _quoted(text: str, start: int, needle: int) -> tuple[str, str] | None:
    """The name at ``start`` and its message, quoted in a sentence; a name in backticks
    ends its message at the closing one. None for an empty message."""
    colon = text.index(": ", needle)
    end = text.find("\n", colon)
    message = text[colon + 2 : end if end >= 0 else len(text)]
    if start > 0 and text[start - 1] == "`":
        message = _until_closing_backtick(message)
    message = message.strip()
    return (text[start:colon], message) if message else None


# A code span inside a backticked message: a flag or a name alone between two backticks
# (``...set a smaller number for `--max-running-requests`. ...``), not the closing one.
_INNER_SPAN = re.compile(r"`(?:--?)?[\w.-]+(?:[= ][\w.-]+)?`")


def _until_closing_backtick(message: str) -> str:
    """``message`` up to the backtick that closes it; a backtick that opens a short code
    span of its own (a flag, a name) is kept with the span."""
    at = 0
    while True:
        tick = message.find("`", at)
        if tick < 0:
            return message
        inner = _INNER_SPAN.match(message, tick)
        if inner is None:
            return message[:tick]
        at = inner.end()


LOOKBACK_LINES = 2000
STALE_LINES = 5000  # an open traceback that hears nothing for this long was cut off
BLOCK_BYTES = 1 << 20


# -- the line that states the most failure (a paste no pattern above reads) ------------------

# What a line states, by weight: a failure that names its kind (3), a failure (2), a refusal
# or a limit (1). Each weight counts once per line; a line needs 2 to be a failure line.
_EVIDENCE: tuple[tuple[int, re.Pattern[str]], ...] = (
    (
        3,
        re.compile(
            r"(?i)out of memory|out of resources?\b|\bOOM\b|segmentation fault|illegal memory access|core dumped"
            r"|\bfatal\b|\bdeadlock|\bpanic(?:ked)?\b"
        ),
    ),
    (
        2,
        re.compile(
            r"(?i)error|exception\b|\bfail(?:s|ed|ing|ure)?\b|\bcrash|\babort|\bassert|\bhang(?:s|ing)?\b"
            r"|\bhung\b|\bstuck\b|\bfreez|\btime[sd]? ?out\b|\btimeout|\bkilled\b|no kernel image|cannot allocate"
            r"|not enough memory|\b(?:is|was|are|were) dead\b|\bdied\b|\bcorrupt(?:ed|ion)?\b"
            # a package a feature needs; an HTTP client's log of its own request (the URL it
            # asked first) answered 4xx / 5xx (a server's access log of a client's bad
            # request is the client's failure, not the server's)
            r'|\b(?:is|are) not installed\b|://[^\s"]+ "[A-Z]+ [^"\s]+ HTTP/\d(?:\.\d)?" [45]\d\d\b'
            # a resource the program could not reach ("Cannot access gated repo for url ...")
            r"|\b(?:cannot|can't|could not|couldn't|unable to) (?:access|connect|reach)\b"
        ),
    ),
    (
        1,
        re.compile(
            r"(?i)\binvalid\b|not supported|unsupported|\bunable\b|\bcannot\b|can't|longer than|exceed"
            r"|mismatch|unexpected|refused|denied|not found|(?:does|do|did) not match|doesn't match"
        ),
    ),
)
# Any of them, in a lower-cased line: the cheap test first.
_EVIDENCE_HINT = re.compile(
    r"error|exception|fail|crash|abort|assert|hang|hung|stuck|freez|time[sd]? ?out|timeout|killed|memory|\boom\b"
    r"|segmentation|core dumped|fatal|deadlock|panic|no kernel image|dead|died|corrupt|not installed|http/"
    r"|could not|couldn't"
)
# Lines that say nothing of this failure whatever words they hold: a traceback's frames, an
# issue template's checklist and boilerplate.
_NO_EVIDENCE = re.compile(
    r'^\s*(?:File "|[-*] \[[ xX]\]|Exception raised from )|(?i:I have searched|please (?:note|use english)|'
    r"otherwise it will be closed|\bdiscussions?/new"
    # a program saying it goes on past an error ("Ignoring mcp import error", SGLang's
    # "Ignore import error when loading sglang.srt.models.x" on every start)
    r"|\bignor(?:e|es|ed|ing)\b[^\n]{0,40}?\b(?:errors?|exceptions?)\b)"
)
# The issue's own title (one '#', or a bracketed tag), not a template's section heading.
_ISSUE_TITLE = re.compile(rf"(?i)\s*(?:#\s|{_TITLE_TAG})")
# The weakest failure words (_EVIDENCE's last weight), read only when nothing states more.
_WEAK_EVIDENCE = re.compile(
    r"(?i)\binvalid\b|not supported|unsupported|\bunable\b|\bcannot\b|can't|mismatch|not match|n't match|not found"
)
_NAMED_ERROR = re.compile(r"\b[A-Za-z_]\w*(?:Error|Exception)\b:")
# A level word that opens a logged line (a prefix, not what the line says).
_LEVEL = r"(?:ERROR|CRITICAL|FATAL)\b"
# A line a program logged: a timestamp (the year may be left out: "[12-11 17:52:52]"), a glog
# or rank prefix, a level word, an exception.
# (A native library tags its lines with its source file: "[memory_saver.cpp] ...".)
_LOGGED = re.compile(
    r"\s*(?:\[?(?:\d{4}-)?\d\d-\d\d[ T]\d\d:\d\d|[EWFI]\d{4} \d\d:\d\d:\d\d|\[rank\d+\]|\[TP\d+|\(\w+ pid=\d+\)"
    rf"|{_LEVEL}|[A-Za-z_.]*(?:Error|Exception)\b[:(]|\[[\w.-]+\.(?:cpp|cc|cu|cuh|c|h|hpp|py)\]"
    r"|[A-Za-z_][\w.]*(?:Error|Exception)\s*$)"
)
# A line that is only an exception's class name (a paste quotes what it said on the next line).
_BARE_CLASS = re.compile(r"\s*[A-Za-z_][\w.]*(?:Error|Exception)\s*")
# A logged line that says a failure happened elsewhere, not what it was: a traceback follows,
# or the launcher saw a child die. (A paste may cut the traceback's header at the line's end.)
_ANNOUNCES = re.compile(
    r"Traceback \((?:most recent call last\)|[a-z ]*$)|SIGQUIT received|means one child (?:process )?failed"
    r"|[Cc]hild process(?:es)?\b[^\n]{0,40}?\b(?:failed|died|exited)"
)
# A user's sentence that ends pointing at the error quoted below it ("... trigger the error
# below:", "I get the following error:"): what it points at, when the paste holds it, is
# the failure (when the paste was cut before it, the sentence is all there is).
_POINTS_BELOW = re.compile(
    r"(?i)\b(?:the|this|these|following|an?|same)\s+(?:[\w-]+\s+){0,2}?(?:errors?|exceptions?|tracebacks?)"
    r"(?:\s+(?:below|as follows|like (?:this|below)))?\s*:?[\s`]*$"
)
# An error code's name joins its words with underscores (CUDA_ERROR_OUT_OF_MEMORY); a
# setting's name (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) states no failure.
_ERROR_CONSTANT = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:ERROR|FAILED|FAILURE|FAULT)(?:_[A-Z0-9]+)*\b")
# A command-line option names a setting: its words ("--dump-assert-binaries") state no failure.
_OPTION_NAME = r"--[A-Za-z][\w-]*"
_OPTION = re.compile(rf"(?<![\w-]){_OPTION_NAME}(?:=\S*)?")
# A quote that holds only options and their values is a setting the user names, not an error.
_OPTION_SET = rf"{_OPTION_NAME}(?:[= ][^\s-]\S*)?"
_OPTIONS_ONLY = re.compile(rf"\s*{_OPTION_SET}(?:\s+{_OPTION_SET})*\s*")
# A report blaming options for the failure: "--x parameter is unsupported in ...", "--a &
# --b generate errors", "crash with `--x 4` when ..." (the options in group ``named``, or
# ``named_after`` when the failure is said first).
_BLAMED_OPTION = rf"`?{_OPTION_NAME}(?:[= ][^\s`&,+/-]\S*)?`?"
_BLAMED_OPTIONS = rf"{_BLAMED_OPTION}(?:\s*(?:&|\+|,|/|\band\b)\s*{_BLAMED_OPTION})*"
BLAMES_OPTION = re.compile(
    rf"(?P<named>{_BLAMED_OPTIONS})\s+(?:(?:parameter|option|flag|argument|arg)s?\s+)?(?:(?:is|are)\s+)?"
    r"(?i:not supported|unsupported|broken|incompatible|not compatible|not working|causes?|caused|triggers?"
    r"|breaks?|crash(?:es)?|fails?|generates? errors?|throws?|raises?|leads? to)\b"
    r"|(?i:crash(?:es|ed|ing)?|fails?|failed|failing|errors?|hangs?|hanging|breaks?|broken|segfaults?)\s+"
    rf"(?i:with|when using|when enabling|after enabling|after adding|using)\s+(?P<named_after>{_BLAMED_OPTIONS})"
)
MAX_BLAMING = 8  # lines kept: an issue's title and its first sentences come first
# A label a paste puts above what it shows ("Error:", "Log output:"): it states nothing.
_LABEL_ONLY = re.compile(r"[\s#>*`-]*[\w .()-]{0,24}:[\s`]*")
_LEVEL_WORD = re.compile(rf"\s*{_LEVEL}")
# Where a logged line's prefix (a timestamp and level, a rank, a source tag) ends.
LOG_PREFIX = 120
EVIDENCE_LINE = 2000  # characters of a line read for evidence
MIN_EVIDENCE = 2


def failure_evidence(line: str) -> int:
    """How much failure ``line`` states (0: none; see _EVIDENCE)."""
    text = line[:EVIDENCE_LINE]
    if _NO_EVIDENCE.search(text) or _LABEL_ONLY.fullmatch(text):
        return 0
    if "-" in text:
        text = _OPTION.sub(" ", text)
    if "_" in text:
        text = _ERROR_CONSTANT.sub(lambda code: code.group().replace("_", " "), text)
    return sum(weight for weight, pattern in _EVIDENCE if pattern.search(text))


def _with_what_it_said(line: str, after: str) -> str:
    """A line as it states its failure: an exception's class name alone joined with the
    line after it when that one states some failure (a two-line quote: the class, then
    what it said), else the line itself; both cut at EVIDENCE_LINE."""
    head = line[:EVIDENCE_LINE]
    if _BARE_CLASS.fullmatch(head) and failure_evidence(after):
        return f"{head.strip()}: {after.strip()}"[:EVIDENCE_LINE]
    return head


def _logged_message(line: str) -> str:
    """What a logged line says, without its prefix ending in "] " (a timestamp and level,
    a rank, a native library's source tag) or its level word."""
    cut = line.find("] ", 0, LOG_PREFIX)
    if cut >= 0:
        return line[cut + 2 :]
    level = _LEVEL_WORD.match(line)
    return line[level.end() :] if level is not None else line


def _as_stated(line: str) -> str:
    """The line without the marks a paste puts around it (a heading's #, a quote's >, a
    list's dash, code backticks)."""
    return line[:EVIDENCE_LINE].strip().lstrip("#>*- \t").strip().strip("`").strip()


@dataclass(frozen=True)
class _Reading:
    """What a paste's lines state when no pattern reads them: the likeliest failure line,
    and whether a line the program printed states a failure."""

    line: str
    printed: bool


_IGNORED_IMPORT = re.compile(r"Ignore import error when loading sglang\.srt\.models\.(?P<module>\w+)")
MAX_IGNORED_IMPORTS = 200


def _ignored_imports(lines: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(module, the line from the module on) of each model module SGLang skipped, first line
    of each (every rank prints its own)."""
    found: dict[str, str] = {}
    for line in lines:
        if "Ignore import error" not in line:
            continue
        match = _IGNORED_IMPORT.search(line)
        if match is not None and match.group("module") not in found:
            found[match.group("module")] = line[match.start("module") :].strip()
            if len(found) >= MAX_IGNORED_IMPORTS:
                break
    return tuple(found.items())


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
        # A traceback kept that names its exception: a traceback cut above its exception
        # line says where, not what, and leaves prose and lone lines to say it.
        self._explained = False
        self._signals: list[Signal] = []
        # A failure line per stream awaiting its detail on the next lines (NCCL's "Last
        # error:" then what it saw fail; a C++ terminate's "what():"): the signal's index,
        # and whether the line that announces the detail was read.
        self._awaiting_detail: dict[str, tuple[int, bool]] = {}
        self._dropped = 0
        self._quoted: list[Signal] = []
        # (text, from, first exceptions-module name at or after it or -1, searched until)
        self._module_memo: tuple[str | None, int, int, int] = (None, 0, -1, 0)
        self._stale_due = -1  # no open traceback can be stale before this line
        self._cut_lines = 0
        self._order = 0
        self._lines = 0
        self._bytes = 0
        self._recent: deque[str] = deque(maxlen=LOOKBACK_LINES)
        self._last_plain_owner = ""
        self._block: list[str] = []
        self._block_index = -1
        self._carry = b""
        self._command = ""
        self._command_open = False  # line mode: the command's last line ended in a backslash
        self._command_lines = 0

    @property
    def _full(self) -> bool:
        return len(self._tracebacks) >= MAX_TRACEBACKS

    @property
    def _quoting(self) -> bool:
        """Quoted exceptions are still looked for: few found, and no traceback seen."""
        return len(self._quoted) < MAX_QUOTED and not self._explained and not self._open_keys

    @property
    def _signals_full(self) -> bool:
        return len(self._signals) >= MAX_SIGNALS

    def _names(self, text: str, pos: int, limit: int) -> int:
        """The first exception name in ``text[pos:limit]`` that starts its line (-1: none).
        Names inside sentences are kept as quoted exceptions meanwhile, while the journal
        shows no traceback: they count at the end only if it never does."""
        while True:
            found = _NEEDLE.search(text, pos, limit)
            module = self._module_needle(text, pos, found.start() if found is not None else limit)
            if found is None and module < 0:
                return -1
            needle = module if module >= 0 else found.start()  # type: ignore[union-attr]
            end = needle if module >= 0 else found.end()  # type: ignore[union-attr]
            if self._quoting and text.startswith("{", text.rfind("\n", 0, needle) + 1):
                # A JSON journal's MESSAGE may escape the text around a name ("\u5931"):
                # read the line decoded (_process looks for quoted names there).
                return text.rfind("\n", 0, needle) + 1
            start = _name_before(text, needle)
            if start >= 0:
                if _starts_line(text, start) and not _after_title_tag(text, start):
                    return start
                if self._quoting:
                    quoted = _quoted(text, start, needle)
                    if quoted is not None:
                        self._order += 1
                        line = f"{quoted[0]}: {quoted[1]}"[:SIGNAL_LINE]
                        self._quoted.append(Signal("quoted_exception", line, order=self._order))
            pos = end + 1 if module >= 0 else end

    def _module_needle(self, text: str, pos: int, limit: int) -> int:
        """Where the first exceptions-module class name in ``text[pos:limit]`` starts (-1:
        none). Remembered per text, so a block read name by name is searched once."""
        memo_text, start, hit, until = self._module_memo
        if memo_text is text and start <= pos and (hit >= pos or (hit < 0 and until >= limit)):
            return hit if 0 <= hit < limit else -1
        hit = -1
        for pattern in _MODULE_NEEDLES:
            at = pos
            while (found := pattern.search(text, at, limit if hit < 0 else hit)) is not None:
                dot = found.end() - 1
                word = dot
                while word > 0 and (text[word - 1].isalnum() or text[word - 1] == "_"):
                    word -= 1
                if text[word:dot] in _EXC_MODULES:
                    hit = found.end()
                    break
                at = found.end()
        self._module_memo = (text, pos, hit, limit)
        return hit

    def _next_interesting(self, text: str, offset: int) -> int:
        """Where the next line that can matter has its match in ``text`` (-1: none)."""
        literal = _INTERESTING.search(text, offset)
        if literal is None:
            limit = len(text)
        else:  # names up to the end of the literal's line: that line is read next anyway
            limit = text.find("\n", literal.end())
            limit = len(text) if limit < 0 else limit
        name = self._names(text, offset, limit)
        bare = self._bare_name(text, offset, name if name >= 0 else limit)
        if bare >= 0:
            name = bare
        if literal is None or 0 <= name < literal.start():
            return name
        return literal.start()

    @staticmethod
    def _bare_name(text: str, pos: int, limit: int) -> int:
        """Where the first exception name alone at the end of its line (its message on the
        next, see _BARE_ORPHAN) in ``text[pos:limit]`` starts (-1: none)."""
        while (found := _BARE_NEEDLE.search(text, pos, limit)) is not None:
            start = _name_before(text, found.start())
            if start >= 0 and _starts_line(text, start):
                return start
            pos = found.end()
        return -1

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
        if self._command_open:  # line mode: the command goes on after a trailing backslash
            self._command_lines += 1
            part, goes_on = _command_part(line[:MAX_LINE])
            self._command = f"{self._command} {part}".strip()
            self._command_open = goes_on and self._command_lines < MAX_COMMAND_LINES
        elif not self._command and any(n in line for n in _COMMAND_NEEDLES):
            self._command = launch_command(line[:MAX_LINE])
            self._command_open = bool(self._command) and _command_part(line)[1]
            self._command_lines = 1
        if self._quoting and line[:1] != "{":
            self._names(line[:MAX_LINE], 0, len(line))  # quoted exceptions, as block mode finds them
        if not self._full or self._open_keys or (not self._signals_full and _SIGNAL_BLOCK.search(line)):
            self._process(line)
        elif _TB_START in line:
            self._dropped += 1
        self._recent.append(line[:MAX_LINE])

    def feed_block(self, text: str) -> None:
        """Complete lines (a trailing partial line is taken as complete)."""
        if not text:
            return
        self._bytes += len(text)
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(text) > MAX_LINE:  # a block shorter than the cap holds no line over it
            self._cut_lines += sum(1 for line in lines if len(line) > MAX_LINE)
        if not self._command:
            self._command = _first_command(text)
        self._block = lines
        n = len(lines)
        i = 0
        offset = 0  # where line i starts in text
        while i < n:
            if not self._open_keys and not self._awaiting_detail:
                # Nothing open (no traceback, no failure line awaiting its detail): jump to
                # the next line that can matter, found at C speed. Once MAX_TRACEBACKS
                # are kept only failure lines can, and the tracebacks of the lines jumped
                # over are still counted (by their headers).
                full = self._full
                if full and self._signals_full:
                    self._dropped += text.count(_TB_START, offset)
                    break
                if full:
                    found = _SIGNAL_BLOCK.search(text, offset)
                    at = found.start() if found is not None else -1
                else:
                    at = self._next_interesting(text, offset)
                if at < 0:
                    if full:
                        self._dropped += text.count(_TB_START, offset)
                    break
                newline = text.rfind("\n", offset, at)
                if newline >= 0:
                    if full:
                        self._dropped += text.count(_TB_START, offset, newline)
                    i += text.count("\n", offset, newline + 1)
                    offset = newline + 1
            self._block_index = i
            line = lines[i]
            self._process(line.rstrip("\r"))
            offset += len(line) + 1
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
        reading = None if self._explained or self._signals or self._quoted else self._read_lines()
        return Journal(
            tracebacks=tuple(ordered),
            # Prose naming an exception says something only when no traceback does, and an
            # error a user quotes only when no line the program printed states a failure.
            signals=tuple(self._signals)
            + (
                ()
                if self._explained
                else (*self._quoted, *self._answered_errors(), *self._raised_in_code(), *self._prose_errors(reading))
            ),
            lines=self._lines,
            bytes=self._bytes,
            tail=tuple(list(self._recent)[-40:]),
            ignored_imports=_ignored_imports(self._recent),
            blaming=_blaming(self._recent),
            dropped_tracebacks=self._dropped,
            cut_lines=self._cut_lines,
            command=self._command,
            likely_error=reading.line if reading is not None else "",
        )

    def _answered_errors(self) -> tuple[Signal, ...]:
        """The JSON error objects a server answered with, pasted by the user ({"object":
        "error", "message": ..., "type": "BadRequestError"}, on one line or several): its
        message under its type, as a quoted exception (read only while no traceback was)."""
        if self._tracebacks:
            return ()
        recent = list(self._recent)[-40:]
        found: list[Signal] = []
        for number, line in enumerate(recent):
            said = _JSON_MESSAGE.search(line[:PROSE_LINE])
            if said is None:
                continue
            around = " ".join(recent[max(0, number - ERROR_OBJECT_LINES) : number + ERROR_OBJECT_LINES + 1])
            kind = _JSON_ERROR_TYPE.search(around)
            if kind is None and not _JSON_ERROR_OBJECT.search(around):
                continue
            self._order += 1
            name = kind.group("type") if kind is not None else "Error"
            line = f"{name}: {said.group('message')}"[:SIGNAL_LINE]
            found.append(Signal("quoted_exception", line, order=self._order))
            if len(found) >= MAX_QUOTED:
                break
        return tuple(found)

    def _raised_in_code(self) -> tuple[Signal, ...]:
        """A raise the user quotes from the code ("raise ValueError(" and its message's
        string) where a sentence of the paste says that exception was raised: its type and
        message, as a quoted exception (read only while no traceback says what it raised)."""
        if any(tb.exc_type for tb in self._tracebacks):
            return ()
        recent = list(self._recent)[-LOOKBACK_RAISE:]
        raises = [_RAISE_LINE.match(line[:PROSE_LINE]) for line in recent]
        prose = "\n".join(line[:PROSE_LINE] for line, raised in zip(recent, raises, strict=True) if raised is None)
        for number, raised in enumerate(raises):
            if raised is None:
                continue
            name = raised.group("type")
            if not _says_raised(prose, name):
                continue
            for text in (raised.group("rest"), *recent[number + 1 : number + 3]):
                literal = _STRING_LITERAL.match(text.strip())
                if literal is not None:
                    self._order += 1
                    return (
                        Signal("quoted_exception", f"{name}: {literal.group('text')}"[:SIGNAL_LINE], order=self._order),
                    )
        return ()

    def _read_lines(self) -> _Reading:
        """The line of the journal's last LOOKBACK_LINES that states the most failure, the
        first of equals (nearer the cause); "" when none states enough. An issue's title or
        a user's sentence gives way to a line the program logged that states as much: they
        sum up what the user saw, the log says what failed (unless they quote the exception
        by its name, which is the error itself). When nothing states enough, a logged line
        that states some failure, else the title whatever its words ("X is not installed"),
        else the first line that states some ("X are not supported for now"), else a line
        that only announces a failure elsewhere. Read only when nothing else
        was found: a paste is short, a long journal has its failure lines."""
        best: tuple[int, int] = (0, 0)
        best_logged: tuple[int, int] = (0, 0)
        found = logged = title = announced = weak = ""
        yields = points = False
        recent = list(self._recent)
        for number, line in enumerate(recent):
            head = _with_what_it_said(line, recent[number + 1] if number + 1 < len(recent) else "")
            if not title and _ISSUE_TITLE.match(head):
                title = _as_stated(head)
            if not _EVIDENCE_HINT.search(head.lower()) and not _WEAK_EVIDENCE.search(head):
                continue
            evidence = failure_evidence(head)
            announces = _ANNOUNCES.search(head) is not None
            if announces and not announced and evidence:
                announced = _as_stated(head)
            if _LOGGED.match(head) and not announces:
                said = (failure_evidence(_logged_message(head)), -number)
                if said > best_logged:
                    best_logged, logged = said, _as_stated(head)
            if evidence and not weak and not announces and not _ISSUE_TITLE.match(head):
                weak = _as_stated(head)
            if evidence < MIN_EVIDENCE or (announces and title):
                continue
            if (evidence, -number) > best:
                # (a title or a sentence that quotes the exception is the error itself)
                yields = not _NAMED_ERROR.search(head)
                points = _POINTS_BELOW.search(head) is not None
                best, found = (evidence, -number), _as_stated(head)
        printed = best_logged[0] >= MIN_EVIDENCE
        if found and points and logged and best_logged[1] < best[1]:
            return _Reading(logged, printed)  # the printed line the sentence points at
        if found:
            return _Reading(logged if logged and yields and printed else found, printed)
        return _Reading(logged or title or weak or announced, printed)

    # per line --------------------------------------------------------------------------
    def _prose_errors(self, reading: _Reading | None) -> tuple[Signal, ...]:
        """Errors a user quoted in a sentence without their class ('fails with error
        "Failed to allocate memory for ..."'): read from the journal's last lines, and only
        when nothing else there names a failure (the weakest evidence of all): no signal, no
        quoted exception, no line the program printed that states one."""
        if reading is None or reading.printed:
            return ()
        found: list[Signal] = []
        for line in list(self._recent)[-40:]:
            # A sentence, not a 16 KB line; and no quote, no quoted error (a cheap test first).
            text = line[:PROSE_LINE]
            if '"' not in text and "`" not in text and "\u201c" not in text:
                continue
            unquoted = _unquote(text)
            match = _quoted_error(unquoted)
            if match is None and _ASSERT_WORD.search(unquoted):
                match = _ASSERTED.search(unquoted)
            if match is None and "`" in unquoted:
                match = _SELF_SAYS.search(unquoted) or _C_ASSERTION.search(unquoted)
            if match is not None and _OPTIONS_ONLY.fullmatch(match.group("quote")):
                match = None
            if match is not None and len(found) < MAX_QUOTED:
                self._order += 1
                found.append(Signal("quoted_error", match.group("quote").strip(), order=self._order))
            elif len(found) < MAX_QUOTED and _ERROR_CODE.search(unquoted) and _FAILURE_WORD.search(unquoted):
                # The whole sentence: the code, and what it names around it (where it failed).
                self._order += 1
                found.append(Signal("quoted_error", unquoted.strip().lstrip("-*> ").strip(), order=self._order))
        return tuple(found)

    def _line_no(self) -> int:
        return self._lines + max(self._block_index, 0)

    def _process(self, line: str) -> None:
        if len(line) > MAX_LINE:
            line = line[:MAX_LINE]
        if "\x1b" in line:
            line = _ANSI.sub("", line)
        if line[:2] == "  " and (margin := _GROUP_MARGIN.match(line)) is not None:
            # An exception group's nesting: the margin goes, a separator ends a traceback.
            line = "" if margin.group("separator") is not None else line[margin.end() :]
        if not line:
            self._blank_line()
            return
        first = line[0]
        if first in "DINWECA" and line[:1].isupper() and (cloud := _CLOUD_SEVERITY.match(line)):
            line = line[cloud.end() :]
            if not line:
                self._blank_line()
                return
            first = line[0]
        if first in " \t":
            # Indented: no container, journal or SGLang prefix starts with a blank, and most
            # lines of a traceback are indented. Plain text, routed like any unprefixed line.
            self._plain(line)
            return
        if "pid=" in line and line.count(" pid=") > 1:
            pieces = _ray_pieces(line)
            if pieces is not None:
                for piece in pieces:
                    self._process(piece)
                return
        if (
            (first.isalpha() or first == "_")
            and "| " not in line[:64]
            and not (line[3:4] == " " and line[:3] in _MONTH_SET)
        ):
            # A word first and no compose or journal prefix: plain too ("Traceback ...",
            # "ValueError: x", "During handling ...").
            self._plain(line)
            return
        split = _split(line)
        if split is None:
            return
        if first == "{" and self._quoting:
            for text in split.parts or (split.body,):
                self._names(text, 0, len(text))  # a JSON MESSAGE, decoded
        if not split.body and split.rank is None and not split.parts:
            self._blank_line()  # a prefix with nothing after it (Ray's, a quote's): an empty line
            return
        if self._open_keys:
            self._close_stale()
        self._message(split.pid_key, split.rank, split.body, line)
        for part in split.parts[1:]:
            inner = _sglang(split.pid_key, part)
            self._message(inner.pid_key, inner.rank, inner.body, part)

    def _plain(self, line: str) -> None:
        """A line with no prefix of any kind (what _split would make of it, sooner)."""
        if self._open_keys:
            self._close_stale()
        key = self._route_unprefixed("")
        stream = self._streams.get(key)
        self._line(key, stream if stream is not None else self._stream(key), line)

    def _blank_line(self) -> None:
        # A blank line matters only inside a traceback (it separates chained exceptions),
        # and ends a logged failure line (NCCL's, a terminate's) still awaiting its detail.
        self._awaiting_detail.clear()
        waiting, self._in_message = self._in_message, {}
        for key in waiting:
            stream = self._streams.get(key)
            tb = stream.open if stream is not None else None
            if tb is not None and tb.state == "message":
                if tb.awaiting_message:  # a bare class line: its message may follow a blank line
                    self._in_message[key] = None
                    continue
                tb.state = "blank"

    def _close_stale(self) -> None:
        now = self._lines + max(self._block_index, 0)
        if now <= self._stale_due:
            return  # nothing open was last heard before now - STALE_LINES
        stale: list[str] = []
        due = now
        for key in self._heard:  # least recently heard first: stop at the first fresh one
            tb = self._streams[key].open
            if tb is None or now - tb.last_line <= STALE_LINES:
                # The oldest one left: a line heard later only moves its due further on.
                due = tb.last_line + STALE_LINES if tb is not None else now
                break
            stale.append(key)
        for key in stale:
            self._finish(key, self._streams[key], truncated=True)
        self._stale_due = due

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
        if self._awaiting_detail and tb is None and self._detail_of_signal(key, body):
            return
        if tb is not None:
            tb.last_line = self._lines + max(self._block_index, 0)
            heard = self._heard
            if next(reversed(heard)) != key:  # it is open, so it is heard; move it last
                del heard[key]
                heard[key] = None
            if self._traceback_line(key, stream, tb, body):
                return
        start = body.find(_TB_START)
        full = len(self._tracebacks) >= MAX_TRACEBACKS
        if start >= 0:
            if full:  # it would be dropped when it ends: count it, read its lines as plain ones
                self._dropped += 1
                return
            self._start(key, stream, lead=body[:start].strip())
            return
        if full:
            if _SIGNAL_HINT.search(body):
                self._signal(key, stream, body)
            return
        if 'File "' in body[:16] and _FRAME.match(body):
            # Frames with no header above them: a traceback cut at the top.
            self._start(key, stream, lead="")
            self._line(key, stream, body)
            return
        if _SIGNAL_HINT.search(body):
            self._signal(key, stream, body)
        if body[:1] in _QUOTE_MARKS:
            body = _exception_quoted_whole(body) or body
        if body[:1].isalpha() or body[:1] == "_":
            orphan = _ORPHAN.match(body)
            # (a trailing space after the colon: the message still starts on the next line)
            trimmed = body.rstrip() if orphan is None else ""
            bare = _BARE_ORPHAN.match(trimmed) if trimmed[-1:] == ":" else None
            if orphan is not None or bare is not None:
                self._start(key, stream, lead="")
                tb = stream.open
                if tb is None:
                    return  # the cap is full: counted, not kept
                if orphan is not None:
                    tb.exc_type, tb.message_lines = orphan.group("type"), [orphan.group("msg")]
                else:  # the message is the next line, however it is indented
                    tb.exc_type, tb.message_lines, tb.awaiting_message = bare.group("type"), [], True  # type: ignore[union-attr]
                tb.state, tb.orphan = "message", True
                self._in_message[key] = None
                return

    def _start(self, key: str, stream: _Stream, *, lead: str) -> None:
        if len(self._open_keys) >= MAX_OPEN:
            oldest = next(iter(self._heard))
            self._finish(oldest, self._streams[oldest], truncated=True)
            if self._full:  # that one filled the cap: this one could only be dropped
                self._dropped += 1
                return
        self._order += 1
        preceding, rank_said = self._preceding(key)
        stream.open = _Open(
            lead=lead,
            rank=stream.rank,
            order=self._order,
            preceding=preceding,
            last_line=self._line_no(),
            rank_said=rank_said,
        )
        self._open_keys[key] = None
        self._open_of_pid.setdefault(_pid_of(key), {})[key] = None
        self._heard[key] = None

    def _preceding(self, key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The last few lines the same process printed before this traceback, and those of
        them that carried the rank's own prefix."""
        pid_key, _, rank = key.partition("|")
        # A journal line of this process names it ("python[123]"): a substring test skips
        # other processes' lines before the costlier split.
        needle = pid_key[4:].removesuffix("[]") if pid_key.startswith("pid:") else ""
        found: list[str] = []
        ranked: list[str] = []
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
            body = split.body.strip()
            found.append(body)
            # (a single-GPU server's lines carry SGLang's prefix with no rank: "" as well)
            if split.rank is not None and split.rank == rank:
                ranked.append(body)
        return tuple(reversed(found)), tuple(reversed(ranked))

    def _recent_lines_backwards(self) -> Iterator[str]:
        if self._block_index >= 0:
            for i in range(self._block_index - 1, max(-1, self._block_index - 1 - LOOKBACK_LINES), -1):
                yield self._block[i]
        yield from reversed(self._recent)

    def _traceback_line(self, key: str, stream: _Stream, tb: _Open, body: str) -> bool:
        """Consume a line of an open traceback; False if the line ends it (reprocess)."""
        if tb.state == "frames":
            # Substring tests first: most lines are none of these, and a regex call costs more.
            frame = _FRAME.match(body) if 'File "' in body else None
            if frame is not None:
                self._flush_source(tb)
                function, _, glued = frame.group("func").partition(" ")
                self._add_frame(tb, (frame.group("file"), int(frame.group("line")), function, ""))
                tb.expect_source = True
                return self._glued_to_frame(key, stream, tb, glued) if glued else True
            if ("^" in body or "~" in body) and body[:1] in ("^", "~", " ", "\t") and _CARETS.match(body):
                return True
            # Source lines are indented four; a quote's prefix ("> ") may have taken one.
            if body.startswith("   ") or body.startswith("\t"):
                if (tb.expect_source or tb.pending_source) and len(tb.pending_source) < 8:
                    tb.pending_source.append(body.strip())
                return True
            if ("[Previous" in body and _REPEATED.match(body)) or body.strip() == "...":
                return True
            indented = body.startswith(" ")
            exc = _INDENTED_EXCEPTION.match(body.rstrip()) if indented else _EXC_LINE.match(body.strip())
            if exc is not None and _FRAME_HEADER.startswith(body.strip()):
                exc = None  # "Fil": the paste cut inside the next frame's header
            if exc is None and tb.expect_source and not indented:
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
                self._signal(key, stream, body)
            return True
        if tb.state == "message":
            if tb.awaiting_message and _TB_START not in body:
                if _OPENING_FENCE.match(body):
                    return True  # the class as prose, its message in the fence below
                if not body.startswith("```"):
                    tb.message_lines, tb.awaiting_message = [body.strip()], False
                    return True
            if (
                _TB_START in body
                or (
                    tb.orphan
                    and body[:1] not in (" ", "\t")
                    and not _nccl_detail(tb, body)
                    and not _compile_error_detail(tb)
                    and not _detail_follows(tb)
                )
                or body.startswith("```")  # the fence closing the paste
            ):
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
                self._flush_source(tb)
                if tb.first is None:
                    tb.first = tb
                else:
                    tb.recent.append(tb)  # the oldest but the first falls out past MAX_CHAIN
                self._order += 1
                stream.open = _Open(
                    lead=tb.lead,
                    rank=tb.rank,
                    order=tb.order,
                    preceding=tb.preceding,
                    last_line=self._line_no(),
                    rank_said=tb.rank_said,
                    chain=tb.state.split(":", 1)[1],
                    first=tb.first,
                    recent=tb.recent,
                )
                return True
            self._finish(key, stream)
            return False
        return False

    def _glued_to_frame(self, key: str, stream: _Stream, tb: _Open, glued: str) -> bool:
        """What a paste that lost its newlines left on a frame's line after the function:
        the frame's code, then maybe the exception line that closes the traceback."""
        closing = _GLUED_EXCEPTION.search(glued)
        code = glued[: closing.start()] if closing is not None else glued
        if code.strip():
            tb.pending_source.append(code.strip())
        tb.expect_source = False
        return self._traceback_line(key, stream, tb, closing.group("line")) if closing is not None else True

    @staticmethod
    def _add_frame(tb: _Open, frame: _RawFrame) -> None:
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
                pool[-1] = (last[0], last[1], last[2], " ".join(tb.pending_source))
        tb.pending_source = []
        tb.expect_source = False

    def _build_link(self, tb: _Open, *, truncated: bool = False, stream: str = "") -> Traceback:
        """This link alone (its cause is put back in :meth:`_build`)."""
        self._flush_source(tb)
        message = "\n".join(tb.message_lines).strip()
        return Traceback(
            exc_type=tb.exc_type,
            message=message,
            frames=tuple(Frame(*f) for f in (*tb.frames, *(tb.inner or ()))),
            omitted_frames=tb.omitted,
            stream=stream,
            rank=tb.rank,
            order=tb.order,
            truncated=truncated or not tb.exc_type,
            chain=tb.chain,
            preceding=tb.preceding,
            rank_said=tb.rank_said,
            lead=tb.lead,
        )

    def _build(self, tb: _Open, *, truncated: bool = False, stream: str = "") -> Traceback:
        head = self._build_link(tb, truncated=truncated, stream=stream)
        if tb.first is None:
            return head
        cause = self._build_link(tb.first)
        for link in tb.recent:
            cause = replace(self._build_link(link), cause=cause)
        return replace(head, cause=cause)

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
        built = self._build(tb, truncated=truncated and tb.state == "frames", stream=key)
        self._tracebacks.append(built)
        self._explained = self._explained or any(link.exc_type for link in built.chain_list())
        if len(self._tracebacks) >= MAX_TRACEBACKS:
            self._abandon_open()

    def _abandon_open(self) -> None:
        """The cap is reached: what is still open would be dropped when it ends; drop it now
        (counted), so that the rest of the journal is read for failure lines only."""
        for key in self._open_keys:
            self._streams[key].open = None
            self._dropped += 1
        self._open_keys.clear()
        self._open_of_pid.clear()
        self._heard.clear()
        self._in_message.clear()

    def _signal(self, key: str, stream: _Stream, body: str) -> None:
        if len(self._signals) >= MAX_SIGNALS or not _ANY_SIGNAL.search(body):
            return
        for kind, pattern in _SIGNALS:
            found = pattern.search(body)
            if found is not None and (kind != "compile_error" or _names_source_file(body, found.start())):
                self._order += 1
                quoted = body[found.start() - 1 : found.start()] in _QUOTES
                # (a terminate glued onto the progress bar it cut short: from its own words)
                said = body[found.start() :] if kind == "cpp_terminate" else body
                titled = _ISSUE_TITLE.match(body) is not None
                self._signals.append(
                    Signal(
                        kind,
                        said.strip()[:SIGNAL_LINE],
                        rank=stream.rank,
                        order=self._order,
                        quoted=quoted,
                        titled=titled,
                    )
                )
                if kind in ("nccl_error", "cpp_terminate"):
                    # (a terminate's detail follows at once, on its "what():" line)
                    self._awaiting_detail[key] = (len(self._signals) - 1, kind == "cpp_terminate")
                return

    def _detail_of_signal(self, key: str, body: str) -> bool:
        """Whether ``body`` continues the NCCL error this stream logged last (NCCL's "Last
        error:", then what it saw fail, which joins the signal's line). A C++ terminate's
        "what():" line joins its signal too, but is read on as a line of its own (False)."""
        pending = self._awaiting_detail.pop(key, None)
        if pending is None:
            return False
        index, asked = pending
        text = body.strip()
        if not asked and text == _NCCL_LAST_ERROR:
            self._awaiting_detail[key] = (index, True)
            return True
        if not asked or not text:
            return False
        said = self._signals[index]
        if said.kind == "cpp_terminate":
            if text.startswith(_WHAT):
                self._signals[index] = replace(said, line=f"{said.line} {text}"[:SIGNAL_LINE])
            return False  # the detail is a line of its own too (a watchdog's timeout)
        self._signals[index] = replace(said, line=f"{said.line} {_NCCL_LAST_ERROR} {text}"[:SIGNAL_LINE])
        return True


def _blaming(lines: Iterable[str]) -> tuple[str, ...]:
    """The first MAX_BLAMING ``lines`` that blame options for the failure."""
    found = (line for line in lines if "--" in line and BLAMES_OPTION.search(line))
    return tuple(itertools.islice(found, MAX_BLAMING))


# -- the launch command a paste shows ------------------------------------------------------

# Literals searched in a block (C speed) before the command pattern is tried on a line.
_COMMAND_NEEDLES = ("launch_server", "sglang serve", "vllm serve", "vllm.entrypoints")
# The interpreter with -m and a server module, or the sglang / vllm script's serve: a
# frame ('File ".../sglang/launch_server.py"') names a file, never the module.
# (Each alternative starts at a literal; the path before the interpreter is walked back by
# hand: a pattern starting with a repeated class would be tried from every character.)
_COMMAND = re.compile(
    r"(?:python[\d.]*\s+(?:-[A-Za-z]\S*\s+)*-m\s+(?:sglang\.launch_server|vllm\.entrypoints\.[\w.]+)"
    r"|\b(?:sglang|vllm)\s+serve)(?=\s|$)"
)
_PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./~+-")
MAX_COMMAND_LINES = 100
_COMMAND_TRIES = 50  # lines with a needle looked at per block before giving up


def launch_command(line: str, following: Iterable[str] = ()) -> str:
    """The launch command ``line`` holds, from its interpreter on (a prompt, a journal's or
    container's prefix before it dropped), joined with the lines it continues onto (a
    trailing backslash); "" when the line holds none."""
    found = _COMMAND.search(line)
    if found is None:
        return ""
    start = found.start()
    while start > 0 and line[start - 1] in _PATH_CHARS:  # the interpreter's path (/venv/bin/)
        start -= 1
    part, goes_on = _command_part(line[start:])
    parts = [part]
    rest = iter(following)
    while goes_on and len(parts) < MAX_COMMAND_LINES:
        nxt = next(rest, None)
        if nxt is None:
            break
        part, goes_on = _command_part(nxt)
        parts.append(part)
    return " ".join(p for p in parts if p)


def _command_part(line: str) -> tuple[str, bool]:
    """One line of a pasted command, without backticks and its trailing backslash, and
    whether the command goes on onto the next line (that backslash)."""
    text = line.strip().strip("`").rstrip()
    goes_on = text.endswith("\\")
    return text.rstrip("\\").strip(), goes_on


def _first_command(text: str) -> str:
    """The first launch command in a block of text ("" if none)."""
    tries = 0
    for needle in _COMMAND_NEEDLES:
        at = text.find(needle)
        while at >= 0 and tries < _COMMAND_TRIES:
            tries += 1
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            following = text[end + 1 : end + 1 + MAX_LINE * 4].split("\n")[:MAX_COMMAND_LINES]
            command = launch_command(text[start:end][:MAX_LINE], following)
            if command:
                return command
            at = text.find(needle, end)
    return ""


_SOURCE_SUFFIX = re.compile(r"\.(?:cuh?|cc|cpp|cxx|c|hh|hpp|h|inc|inl)$")


# torch's NCCL error goes on over unindented lines: NCCL's error name and text, then
# "Last error:" and, on the next line, what NCCL last saw fail.
_NCCL_ERROR_NAME = re.compile(r"nccl[A-Z]\w*: ")
_NCCL_LAST_ERROR = "Last error:"
_WHAT = "what():"


def _nccl_detail(tb: _Open, body: str) -> bool:
    """Whether ``body`` continues the NCCL error an exception line quoted alone began."""
    text = body.strip()
    if _NCCL_ERROR_NAME.match(text) or text == _NCCL_LAST_ERROR:
        return "NCCL" in tb.message_lines[0] if tb.message_lines else False
    return bool(tb.message_lines) and tb.message_lines[-1].strip() == _NCCL_LAST_ERROR


# Triton's "CompilationError: at L:C:" goes on, unindented, with the kernel's source, a
# caret under the column, and then the error itself: the failure is the line after the caret.
_COMPILE_ERROR_AT = re.compile(r"at \d+:\d+:$")
MAX_KERNEL_SOURCE_LINES = 6


# A message that ends at a source location and a colon: "Error in function 'aligned_alloc' at
# /workspace/include/flashinfer/allocator.h:71:" (flashinfer's errors: the detail follows).
_ENDS_AT_LOCATION = re.compile(r"\bat \S+:\d+:\s*$")


def _detail_follows(tb: _Open) -> bool:
    """Whether the message so far ends at a source location and a colon: its detail is the
    next line ("... at .../allocator.h:71:" then "Buffer overflow when allocating ...")."""
    return bool(tb.message_lines) and _ENDS_AT_LOCATION.search(tb.message_lines[-1]) is not None


def _compile_error_detail(tb: _Open) -> bool:
    """Whether the next line still belongs to a Triton compile error an exception line
    quoted alone began (its source, its caret, the error under the caret)."""
    lines = [line.strip() for line in tb.message_lines]
    if not lines or not _COMPILE_ERROR_AT.fullmatch(lines[0]):
        return False
    carets = [i for i, line in enumerate(lines) if line and set(line) == {"^"}]
    if not carets:
        return len(lines) <= MAX_KERNEL_SOURCE_LINES
    return carets[-1] == len(lines) - 1


def _names_source_file(body: str, at: int) -> bool:
    """The text before a compiler's ``:line:col:`` / ``(line):`` is a C, C++ or CUDA file."""
    return _SOURCE_SUFFIX.search(body, max(0, at - 8), at) is not None


def _pid_of(key: str) -> str:
    """A stream key's process part ("pid:python[12]|TP3" -> "pid:python[12]"; "" for plain text)."""
    return key.rpartition("|")[0]


def _looks_like_journal(match: re.Match[str]) -> bool:
    # "May 25 19:34:29 host python[123]: msg" - identifier present; guards against
    # a plain log line that merely starts with a month name.
    return bool(match.group("ident"))


# Where a JSON log line keeps what the process printed: journald's MESSAGE, Docker's json-file
# driver and fluentd's "log", Google Cloud's "textPayload", Loki's "line"; a structured
# logger's "message" / "msg" only beside its level or time (else it is a payload's field).
_JSON_LINE_KEYS = ("MESSAGE", "log", "textPayload", "line")
_JSON_MESSAGE_KEYS = ("message", "msg")
_JSON_LOGGER_KEYS = frozenset({"level", "levelname", "severity", "time", "timestamp", "@timestamp", "ts"})


def _json_text_key(entry: dict[str, object]) -> str | None:
    for key in _JSON_LINE_KEYS:
        if key in entry:
            return key
    if _JSON_LOGGER_KEYS.isdisjoint(entry):
        return None
    return next((key for key in _JSON_MESSAGE_KEYS if isinstance(entry.get(key), str)), None)


def _json_entry(line: str) -> tuple[str, str] | None:
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    key = _json_text_key(entry) if isinstance(entry, dict) else None
    if key is None:
        return None
    message = entry[key]
    if isinstance(message, list):  # journald's form for a MESSAGE that is not UTF-8
        try:
            message = bytes(int(b) & 0xFF for b in message).decode("utf-8", errors="replace")
        except (TypeError, ValueError):
            message = ""
    elif message is None:
        message = ""
    elif isinstance(message, str) and message.endswith("\n"):
        message = message[:-1]  # Docker's json-file keeps each line's newline
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
