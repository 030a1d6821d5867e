"""Parsed journal + catalogue -> a :class:`Diagnosis`: failure class (or none) and fingerprint.

Pure. The subject of classification is the root cause (the first failing rank's original
exception); when no Python exception explains the failure (an argparse error ending in
``SystemExit: 2``, a ``Killed`` line, an NCCL WARN) the strongest failure signal is the
subject instead. A bare ``AssertionError`` is told apart by the failing frame and its
source line, which the traceback shows.

Fingerprints are Sentry-style: exception type plus the target's own frames (module +
function) and the failing source line; stable across line-number shifts, install paths,
PIDs, ranks, timestamps and addresses; different for different assertion sites.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .catalog import Catalog, FailureClass, MatchRule
from .model import Failure, Frame, Gate
from .tracebacks import Journal, Signal, Traceback, failure_evidence

# Which signal explains a failure best when no exception does, strongest first.
_SIGNAL_STRENGTH = (
    "argparse_error",
    # A compiler's error line: a JIT build of a kernel failed (what the build's caller reports
    # later, if anything, only says that it did).
    "compile_error",
    # The build step that failed, where the compiler printed no error line (it crashed).
    "build_failed",
    # The loader could not start a process: nothing it would have printed follows.
    "loader_error",
    "oom",
    "nccl_error",
    # A kernel's own assertion comes before the "device-side assert" CUDA error reporting it.
    "device_assert",
    "cuda_error",
    "gpu_fault",
    # A part of the server that says it failed, and with what (its traceback often cut).
    "part_failed",
    # A watchdog reports that something hung; a CUDA or NCCL error above says what.
    "nccl_timeout",
    "sglang_watchdog",
    "nccl_warn",
    # A C library's checked status (NVSHMEM's "file.cpp:N: non-zero status: S what failed").
    "status_failed",
    # UCX's error-level line (a KV transfer's connection or device that failed).
    "ucx_error",
    # torch's C++ error-level lines (Gloo, NCCL process groups) that no pattern above names.
    "torch_error",
    # glog's error level from another C++ library (a transfer engine's failed write).
    "glog_error",
    # SGLang's warning that the profiled KV budget is negative (the failure line often cut).
    "kv_budget_negative",
    "bind_error",
    # glibc's allocator check that stopped a corrupt heap: the abort or crash below follows.
    "heap_check",
    "segfault",
    # A C++ exception that escaped: the abort reported below it follows from it.
    "cpp_terminate",
    "native_abort",
    "killed",
    "exit_status",
    # A shell that found no such program: a compiler a build needs, or only a diagnostic
    # tool run after another failure (py-spy after a watchdog): after every other line.
    "program_not_found",
    # An exception named in prose (a user's sentence, no traceback): the weakest evidence.
    "quoted_exception",
    # An error quoted in a sentence without its class: weaker still.
    "quoted_error",
)
_NOISE_TYPES = ("SystemExit", "KeyboardInterrupt")
_EVIDENCE_LIMIT = 6000
# The catalogue's patterns are data and may backtrack ("x.*y" is tried from every x of a
# line: quadratic in its length), so they see every line cut to this length: their cost
# per line is bounded whatever a journal holds. Failure lines (a CUDA OOM message, an
# NCCL WARN) are far shorter; a rank's 14 KB server_args dump is no evidence.
MATCH_LINE = 1000


@dataclass(frozen=True)
class Subject:
    """What the classifier looks at: one exception, or one failure line."""

    exception: str
    message: str
    frame: Frame | None
    traceback: Traceback | None = None
    signal: Signal | None = None
    # Lines of the log around the failure that tell the operator what to change ("To work
    # around this error, add --disable-piecewise-cuda-graph to your launch command").
    advice: tuple[str, ...] = ()
    # A failure line read where a traceback was cut before its exception line: that
    # traceback still says where the process died (its frames name the parts it ran in).
    cut: Traceback | None = None
    # Lines of the report that blame options for the failure ("--x is unsupported in ..."):
    # its own suspects, tried when nothing else is read (journal ``blaming``).
    blaming: tuple[str, ...] = ()

    @property
    def said(self) -> str:
        """What the exception said itself, for readers of its words (repair): ``message``
        states a bare assert by its statement, which names every operand it checks and
        refuses none of them by name."""
        return self.traceback.message if self.traceback is not None else self.message


@dataclass(frozen=True)
class Diagnosis:
    failure: Failure
    subject: Subject
    failure_class: FailureClass | None = None
    groups: Mapping[str, str] = field(default_factory=dict)


def target_frame(tb: Traceback, package: str = "sglang") -> Frame | None:
    """The innermost frame in the target's own code (else the innermost frame)."""
    marker = f"/{package}/"
    for frame in reversed(tb.frames):
        if marker in frame.file.replace("\\", "/") or frame.file.startswith(f"{package}/"):
            return frame
    return tb.innermost


MAX_CALLERS = 2  # callers read outward past the failing frame


def caller_frames(subject: Subject, package: str = "sglang") -> tuple[Frame, ...]:
    """The frames in the target's own code that called the failing frame, innermost first
    (at most MAX_CALLERS): where a helper that raised was called from."""
    tb = subject.traceback or subject.cut
    if tb is None or subject.frame is None or subject.frame not in tb.frames:
        return ()
    marker = f"/{package}/"
    inside = tb.frames[: tb.frames.index(subject.frame)]
    mine = [f for f in reversed(inside) if marker in f.file.replace("\\", "/") or f.file.startswith(f"{package}/")]
    return tuple(mine[:MAX_CALLERS])


def module_of(path: str, package: str = "sglang") -> str:
    """``/opt/x/site-packages/sglang/srt/server_args.py`` -> ``sglang.srt.server_args``."""
    norm = path.replace("\\", "/")
    marker = f"/{package}/"
    idx = norm.rfind(marker)
    if idx >= 0:
        rel = norm[idx + 1 :]
    elif norm.startswith(f"{package}/"):
        rel = norm
    else:
        idx = norm.rfind("site-packages/")
        rel = norm[idx + len("site-packages/") :] if idx >= 0 else norm.rsplit("/", 1)[-1]
    return rel.removesuffix(".py").replace("/", ".")


def engine_of(journal: Journal) -> str:
    """Which engine wrote a journal, by its tracebacks' frames: ``vllm`` or ``sglang``."""
    counts = {"vllm": 0, "sglang": 0}
    for tb in journal.tracebacks:
        for link in tb.chain_list():
            for frame in link.frames:
                path = frame.file.replace("\\", "/")
                for engine in counts:
                    if f"/{engine}/" in path or path.startswith(f"{engine}/"):
                        counts[engine] += 1
    return "vllm" if counts["vllm"] > counts["sglang"] else "sglang"


# Exceptions that only report a failure line printed before them: the line is the root.
# (Exit code 127: the child could not be run, and the loader said why.)
_REPORTS_LINE = (
    # (a kernel that trapped on its own assert: the driver reports a launch failure, 719)
    (re.compile(r"device-side assert triggered|CUDA_ERROR_LAUNCH_FAILED|unspecified launch failure"), "device_assert"),
    (re.compile(r"exit code:? 127\b"), "loader_error"),
)


def choose_subject(journal: Journal, package: str = "sglang") -> Subject | None:
    root = journal.root_cause()
    reported = _reported_line(journal, root)
    if reported is not None:
        return Subject(reported.kind, reported.line, None, signal=reported)
    if root is not None and root.exc_type not in _NOISE_TYPES and not root.is_wrapper:
        return _exception_subject(root, package)
    # A wrapper that says how a rank died (exit code -9: the OOM killer) still beats a
    # bare failure line; a wrapper saying only "a child failed" does not.
    if root is not None and root.is_wrapper and "exit code" in root.message:
        return _exception_subject(root, package)
    for kind in _SIGNAL_STRENGTH:
        signal = _telling_signal(journal, kind)
        if signal is not None and kind == "quoted_error":
            return Subject("quoted_error", signal.line, None, signal=signal)
        if signal is not None and kind == "quoted_exception":
            exc, _, msg = signal.line.partition(": ")
            return Subject(exc, msg, None, signal=signal)
        if signal is not None:
            signal = _first_to_say(journal, signal)
            return Subject(signal.kind, signal.line, None, signal=signal)
    if root is not None:
        return _exception_subject(root, package)
    return None


# The error a failure line ends with ("...: NO_AVAILABLE_HANDLE"): a word, not a number.
_ERROR_TAIL = re.compile(r": (?P<tail>[A-Za-z][\w .'-]{5,}?)\.?\s*$")


def _first_to_say(journal: Journal, signal: Signal) -> Signal:
    """The earliest printed line ending with the error ``signal`` ends with: a caller that
    passes its callee's failure on prints it after the callee did."""
    tail = _ERROR_TAIL.search(signal.line)
    if tail is None:
        return signal
    for earlier in journal.signals:
        if earlier is signal:
            break
        same = _ERROR_TAIL.search(earlier.line)
        if not earlier.quoted and same is not None and same.group("tail") == tail.group("tail"):
            return earlier
    return signal


def _exception_subject(root: Traceback, package: str) -> Subject:
    return Subject(root.exc_type, _stated_message(root), target_frame(root, package), traceback=root)


def _stated_message(tb: Traceback) -> str:
    """The exception's message; a bare one is stated by the statement its failing frame
    shows (what an operator reads above the exception line): an ``AssertionError`` by its
    assert, any other by the raise that names it (``raise NotImplementedError()``)."""
    frame = tb.innermost
    if tb.message.strip() or frame is None:
        return tb.message
    source = frame.source.strip()
    if tb.exc_type.endswith("AssertionError"):
        return source if source.startswith("assert ") else tb.message
    raised = tb.exc_type.rsplit(".", 1)[-1]
    return source if re.match(rf"raise\s+(?:[\w.]+\.)?{re.escape(raised)}\b", source) else tb.message


def _reported_line(journal: Journal, root: Traceback | None) -> Signal | None:
    """The failure line the root exception only reports, when the journal holds it."""
    if root is None:
        return None
    for says, kind in _REPORTS_LINE:
        if says.search(root.message[:MATCH_LINE]):
            return journal.first_signal(kind)
    return None


# Advice: a verb an operator is told to act by, then (within a short clause) a flag.
# A flag a report says avoids the failure, the verb after it: "--disable-x reliably avoids the
# hang", "with `--disable-x` it works fine", "`--x` works around it" (advice; repair reads its flag).
AVOIDED_BY = re.compile(
    r"--(?P<flag>[a-z][a-z0-9-]*)[`'\"*]*(?:\s+\w+){0,2}\s+(?i:avoids|fixes|resolves|solves|prevents"
    r"|works around|works (?:fine|correctly|well))\b"
    # ... or the failure said to go away by it: "suppressed by X=1 and --disable-x", "avoided by --x"
    r"|(?i:suppressed|avoided|fixed|resolved|mitigated|worked around|goes away) (?:by|with)\b"
    r"[^\n.;]{0,60}?--(?P<flag2>[a-z][a-z0-9-]*)"
    # ... or the launch said to succeed with it: "runs successfully with `--disable-x`", "if I
    # use --disable-x, it works okay", "I successfully launch the service with --disable-x"
    r"|(?i:works?|worked|working|succeed(?:s|ed)?|success(?:ful(?:ly)?)?|(?:runs?|ran|starts?|started|launch(?:es|ed)?)"
    r" (?:fine|okay|ok|well|normally|correctly|successfully)|is (?:ok|okay|fine))\b"
    r"(?:\s+[\w-]+){0,3}?\s+(?i:with|after (?:adding|setting|using))\s+[`'\"*]*--(?P<flag3>[a-z][a-z0-9-]*)"
    r"|(?i:with|use|using|add|adding|set|setting)\s+[`'\"*]*--(?P<flag4>[a-z][a-z0-9-]*)[^\n.;]{0,40}?"
    r"\b(?i:it|this|that|everything|the server|then it)\s+(?i:works|runs fine|is (?:ok|okay|fine)|goes away|succeeds)\b"
)
_ADVICE = re.compile(
    r"(?i)\b(?:work ?around|try|trying|please|you (?:can|may|could|should|need to)|consider|to (?:avoid|fix)|add|pass"
    r"|recommend(?:ed|s)?|suggest(?:ed|s)?|unless)\b"
    # a flag, or a server argument by its field name given a value (an engine's keyword
    # argument, a framework's config key: "setting `chunked_prefill_size = -1`")
    r"[^\n]{0,80}?(?:[`'\"]?--[a-z]|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+[`'\"]?\s*=)"
)
MAX_ADVICE = 6
# A notice that a flag is deprecated tells how to spell it, not how to avoid a failure: the
# old spelling still works, so following it fixes nothing.
_DEPRECATION = re.compile(r"(?i)\bdeprecated\b")


def _said_before_the_cut(journal: Journal) -> Subject | None:
    """A traceback cut before its exception line says where a process died, not what
    killed it: the newest line its rank printed before it that states a failure."""
    for tb in journal.tracebacks:
        failed = _assert_cut_at(tb)
        if failed is not None:
            # Cut right after an assert statement: that assert failed (a line printed before
            # the traceback, a loader's warning, did not kill the process).
            return Subject("AssertionError", failed.source.strip(), failed, cut=tb)
        said = None if tb.exc_type else next((ln for ln in reversed(tb.rank_said) if failure_evidence(ln) > 0), None)
        if said is None and not tb.exc_type and tb.frames and tb.preceding:
            # A logger's line right before it (another library's "WARNING 05-02 10:00:00
            # ext.py:12] Failed to import ..."), pasted as prose: the process said it too.
            last = tb.preceding[-1]
            said = last if _LOGGER_LINE.match(last) and failure_evidence(last) > 0 else None
        if said is not None:
            return Subject("error_line", said, None, cut=tb)
    return None


def _assert_cut_at(tb: Traceback) -> Frame | None:
    """The innermost frame of a traceback cut before its exception line, when its line is
    an ``assert`` statement."""
    frame = tb.innermost
    if tb.exc_type or frame is None or not frame.source.strip().startswith("assert "):
        return None
    return frame


# A logger's line: its level and time then where it was logged ("WARNING 05-02 10:00:00
# ext.py:12] ...", "E0521 10:00:00.123 file.cc:42] ..."), maybe in a pasted backtick.
_LOGGER_LINE = re.compile(
    r"^\W{0,3}(?:(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+\d\d-\d\d\s+\d\d:\d\d:\d\d|[IWEF]\d{4}\s+\d\d:\d\d:\d\d)"
    r"[^\]]{0,60}\]\s"
)


def _cut_traceback(journal: Journal) -> Traceback | None:
    """The newest traceback cut before its exception line that shows frames (a paste that
    stops mid-path): where a process died when nothing says what killed it."""
    return next((tb for tb in reversed(journal.tracebacks) if not tb.exc_type and tb.frames), None)


def advice_lines(journal: Journal, subject: Subject) -> tuple[str, ...]:
    """The log's own advice near the failure: lines the failing process printed before its
    traceback, and the journal's last lines (a failure line's advice follows it)."""
    before = subject.traceback.preceding if subject.traceback is not None else ()
    found: list[str] = []
    for line in (*before, *journal.tail):
        text = line[:MATCH_LINE].strip()
        if text in found or text == subject.message.strip() or _DEPRECATION.search(text):
            continue
        # (a flag said to avoid it, in any case: the advice reading ignores case throughout)
        if text and (_ADVICE.search(text) or AVOIDED_BY.search(text.lower())):
            found.append(text)
    return tuple(found[-MAX_ADVICE:])


# Error-level log lines also announce what follows ("preparing to dump debug info"): the
# first that names a failure says more than the first printed.
_LEVEL_KINDS = ("torch_error", "glog_error")
_FAILURE_WORDS = re.compile(r"(?i)timeout|timed out|error|fail|exception|abort|refused|cannot|unable")


# A client library's exception reports the server's answer to a request (openai's
# BadRequestError for a 400): the server's own exception, quoted beside it, is the failure.
_CLIENT_EXCEPTION = re.compile(r"^(?:openai|httpx|requests|aiohttp|urllib3)\.[\w.]*(?:Error|Exception)\b")


def _telling_signal(journal: Journal, kind: str) -> Signal | None:
    # The line the program printed, before a sentence that quotes the same failure or an
    # issue's title that names it.
    printed = (s for s in journal.signals if s.kind == kind and not s.quoted and not s.titled)
    first = next(printed, None) or journal.first_signal(kind)
    if first is not None and kind == "quoted_exception" and _CLIENT_EXCEPTION.match(first.line):
        servers = (s for s in journal.signals if s.kind == kind and not _CLIENT_EXCEPTION.match(s.line))
        first = next(servers, first)
    if first is None or kind not in _LEVEL_KINDS or _FAILURE_WORDS.search(_detail(first.line)):
        return first
    telling = (s for s in journal.signals if s.kind == kind and _FAILURE_WORDS.search(_detail(s.line)))
    return next(telling, first)


def _detail(line: str) -> str:
    """A log line without its level prefix ("[rank1]:[E1201 ... ProcessGroupNCCL.cpp:1500] ")."""
    return line.split("] ", 2)[-1] if line.startswith("[rank") else line.split("] ", 1)[-1]


def fingerprint(subject: Subject, package: str = "sglang") -> str:
    if subject.traceback is not None:
        tb = subject.traceback
        marker = f"/{package}/"
        own = [f for f in tb.frames if marker in f.file.replace("\\", "/") or f.file.startswith(f"{package}/")]
        frames = own or list(tb.frames)
        parts = [tb.exc_type.rsplit(".", 1)[-1]]
        parts += [f"{module_of(f.file, package)}:{f.function}" for f in frames]
        if subject.frame is not None:
            parts.append(_normalize_source(subject.frame.source))
        # Two raise sites in one function can share a source line (`raise ValueError(`);
        # the stem of the message, with values taken out, tells them apart.
        parts.append(_message_stem(tb.message))
        basis = "py|" + "|".join(parts)
    else:
        basis = f"line|{subject.exception}|{_normalize_text(subject.message)}"
    return hashlib.sha256(basis.encode()).hexdigest()[:16]


def _message_stem(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else ""
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "<v>", first)
    return _normalize_text(first.split(": ")[0])[:60]


def _normalize_source(source: str) -> str:
    return " ".join(source.split())


_VOLATILE = (
    (re.compile(r"0x[0-9a-fA-F]+"), "0x?"),
    (re.compile(r"(?:/[\w.+-]+)+/?"), "<path>"),
    (re.compile(r"\d+(?:\.\d+)?"), "N"),
    (re.compile(r"\s+"), " "),
)


def _normalize_text(text: str) -> str:
    out = text
    for pattern, repl in _VOLATILE:
        out = pattern.sub(repl, out)
    return out.strip()[:300]


def _evidence_text(journal: Journal, subject: Subject) -> str:
    """Lines the classifier's ``evidence`` regexes search: signals, message, the tail."""
    lines = [s.line for s in journal.signals]
    lines.append(f"{subject.exception}: {subject.message}")
    lines.extend(journal.tail)
    return "\n".join(lines)


def _bounded(text: str | None, limit: int = MATCH_LINE) -> str | None:
    """``text`` with each line cut to ``limit`` characters (see MATCH_LINE)."""
    if text is None or len(text) <= limit:
        return text
    return "\n".join(line[:limit] for line in text.split("\n"))


@dataclass(frozen=True)
class _Seen:
    """What the catalogue's patterns are matched against, each line bounded, cut once
    for all the classes."""

    exception: str
    message: str
    function: str | None
    file: str | None
    source: str | None
    evidence: str

    @classmethod
    def of(cls, subject: Subject, evidence: str) -> _Seen:
        frame = subject.frame
        return cls(
            exception=_bounded(subject.exception) or "",
            message=_bounded(subject.message) or "",
            function=_bounded(frame.function) if frame else None,
            file=_bounded(frame.file) if frame else None,
            source=_bounded(frame.source) if frame else None,
            evidence=_bounded(evidence) or "",
        )


def _rule_matches(rule: MatchRule, seen: _Seen, gate: Gate, journal: Journal) -> dict[str, str] | None:
    """The named groups captured when ``rule`` matches the subject, else None."""
    groups: dict[str, str] = {}

    def check(pattern: re.Pattern[str] | None, text: str | None, *, full: bool = False) -> bool:
        if pattern is None:
            return True
        if text is None:
            return False
        found = pattern.fullmatch(text) if full else pattern.search(text)
        if found is None:
            return False
        groups.update({k: v for k, v in found.groupdict().items() if v is not None})
        return True

    if rule.gate is not None and rule.gate != gate.value:
        return None
    if rule.signal is not None and journal.first_signal(rule.signal) is None:
        return None
    exc = seen.exception
    if rule.exception is not None and not (
        check(rule.exception, exc, full=True) or check(rule.exception, exc.rsplit(".", 1)[-1], full=True)
    ):
        return None
    if not check(rule.function, seen.function, full=True):
        return None
    if not check(rule.file, seen.file):
        return None
    if not check(rule.source, seen.source):
        return None
    if not check(rule.message, seen.message):
        return None
    if not check(rule.evidence, seen.evidence):
        return None
    return groups


_UNSUPPORTED_ARCH = re.compile(r"[Aa]rchitectures? \[(?P<archs>[^\]]*)\] (?:are|is) not supported")


def _import_behind(subject: Subject, journal: Journal) -> Subject:
    """The model module SGLang skipped when it failed to import, where the failure is that
    the module's architecture is unsupported: why the import failed is the root cause. The
    module is the one whose name's first word the architecture's name holds (toy_v2 for
    ToyV3ForCausalLM)."""
    found = _UNSUPPORTED_ARCH.search(subject.message)
    if found is None:
        return subject
    archs = [a.strip(" '\"").lower() for a in found.group("archs").split(",")]
    for module, said in journal.ignored_imports:
        stem = re.split(r"[_\d]", module)[0]
        if len(stem) >= 3 and any(stem in arch for arch in archs):
            return Subject("ImportError", said, None)
    return subject


def classify(
    journal: Journal,
    catalog: Catalog,
    gate: Gate,
    *,
    package: str = "sglang",
    fallback: tuple[str, str] | None = None,
) -> Diagnosis:
    """Sort one failure into the catalogue.

    ``fallback`` (exception, message) describes the failure when the journal holds
    nothing that does (a timeout, an exit without output).
    """
    subject = choose_subject(journal, package)
    if subject is None and fallback is None:
        subject = _said_before_the_cut(journal)
    if subject is None and fallback is None and journal.likely_error:
        # A paste no reading explains: the line that states the most failure. (A search
        # knows what its process did, a timeout or an exit, and says so instead.)
        subject = Subject("error_line", journal.likely_error, None, cut=_cut_traceback(journal))
    if subject is None:
        exc, msg = fallback or ("UnknownFailure", "the process failed and left no traceback")
        subject = Subject(exc, msg, None)
    subject = _import_behind(subject, journal)
    subject = replace(subject, advice=advice_lines(journal, subject), blaming=journal.blaming)
    seen = _Seen.of(subject, _evidence_text(journal, subject))
    best: tuple[FailureClass, dict[str, str]] | None = None
    for cls in catalog.classes:
        groups = _rule_matches(cls.match, seen, gate, journal)
        if groups is None:
            continue
        if best is None or cls.match.specificity > best[0].match.specificity:
            best = (cls, groups)
    failure = Failure(
        gate=gate,
        class_id=best[0].id if best else None,
        fingerprint=fingerprint(subject, package),
        exception=subject.exception,
        message=subject.message,
        frame=subject.frame,
        evidence=render_evidence(journal, subject),
    )
    return Diagnosis(failure, subject, best[0] if best else None, best[1] if best else {})


def render_evidence(journal: Journal, subject: Subject) -> str:
    """The excerpt kept with an attempt: log lines before it, then the traceback itself."""
    parts: list[str] = []
    if subject.traceback is not None:
        parts.extend(subject.traceback.preceding)
        parts.append(subject.traceback.render())
    else:
        signals = [s.line for s in journal.signals][:12]
        parts.extend(signals or list(journal.tail)[-15:])
    parts.extend(journal.notes)
    text = "\n".join(parts)
    if len(text) > _EVIDENCE_LIMIT:
        text = "…\n" + text[-_EVIDENCE_LIMIT:]
    return text


@dataclass(frozen=True)
class CaptureCheck:
    """How a set of captures with expected classes fares against a catalogue."""

    checked: int
    mismatches: tuple[tuple[str, str | None, str | None], ...]  # (capture, expected, got)
    unexercised: tuple[str, ...]  # class ids no capture expects


def check_captures(catalog: Catalog, captures: list[tuple[str, Journal, Gate, str | None]]) -> CaptureCheck:
    """Classify each (name, journal, gate, expected class) and report what disagrees."""
    mismatches = []
    exercised: set[str] = set()
    for name, journal, gate, expected in captures:
        got = classify(journal, catalog, gate).failure.class_id
        if expected is not None:
            exercised.add(expected)
        if got != expected:
            mismatches.append((name, expected, got))
    unexercised = tuple(c.id for c in catalog.classes if c.id not in exercised)
    return CaptureCheck(len(captures), tuple(mismatches), unexercised)
