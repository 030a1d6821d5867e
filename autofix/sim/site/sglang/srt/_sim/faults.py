"""Host faults the simulated server can be told to suffer (``AUTOFIX_SIM_FAULT``).

SIMULATOR: each fault is one an operator meets on a real GPU host, placed where it
strikes there, so the watcher, the gates and the classifier see what they would see:

    hang            loads, binds HTTP, then the first forward (the server warmup) never
                    returns: /health stays 503, /v1/models answers, generation blocks
    hang-load       every rank stops halfway through the checkpoint shards; no HTTP ever
    crash-load      every rank raises halfway through the shards (a truncated safetensors
                    file: SafetensorError), the real "Scheduler hit an exception" path
    flap-health     once ready, /health answers 200, 503, then drops the connection, in turn
    oom-under-load  client requests run for AUTOFIX_SIM_FAULT_AFTER_S seconds (default 0:
                    the first one), then rank 0's forward raises torch.OutOfMemoryError
                    and the server dies as SGLang does (SIGQUIT to the launcher)
    oom-killer      the launcher is SIGKILLed halfway through loading, as the kernel's
                    OOM killer does: no traceback, exit status 137
    segfault        the launcher segfaults after the ranks are ready; faulthandler prints
                    "Fatal Python error: Segmentation fault" and the process dies of SIGSEGV
    torn-traceback  the launcher starts printing a traceback and is SIGKILLed two frames in
    torn-traceback-hang   the same half traceback, then the launcher hangs

Unset or empty: no fault. Any other value stops the launch with a ValueError, so a typo
never passes for a healthy run.
"""

import faulthandler
import os
import signal
import sys
import threading
import time
import traceback

FAULTS = (
    "hang",
    "hang-load",
    "crash-load",
    "flap-health",
    "oom-under-load",
    "oom-killer",
    "segfault",
    "torn-traceback",
    "torn-traceback-hang",
)


def current():
    """The fault this process was launched with ("" for none)."""
    return os.environ.get("AUTOFIX_SIM_FAULT", "").strip().lower()


def active(name):
    return current() == name


def check():
    """Refuse an unknown fault name (called once by the launcher)."""
    name = current()
    if name and name not in FAULTS:
        raise ValueError(f"AUTOFIX_SIM_FAULT={name!r} is not one of: {', '.join(FAULTS)}")


def after_seconds():
    """``AUTOFIX_SIM_FAULT_AFTER_S``: seconds of client load before oom-under-load strikes."""
    try:
        return max(0.0, float(os.environ.get("AUTOFIX_SIM_FAULT_AFTER_S", "0")))
    except ValueError:
        return 0.0


def stall():
    """Never return (a deadlocked collective, a stuck read): only a signal ends it."""
    while True:
        time.sleep(3600)


def kill_self_later(seconds, sig=signal.SIGKILL):
    """Deliver ``sig`` to this process after ``seconds``, whatever its main thread does."""

    def fire():
        time.sleep(seconds)
        sys.stderr.flush()
        os.kill(os.getpid(), sig)

    threading.Thread(target=fire, name="sim-fault", daemon=True).start()


def segfault():
    """Crash the way native code does: faulthandler's report, then death by SIGSEGV.

    SGLang's launcher imports torch, which enables faulthandler; here it is enabled just
    in time, and the real handler writes the real report before re-raising the signal.
    """
    sys.stderr.flush()
    faulthandler.enable(file=sys.stderr, all_threads=True)
    os.kill(os.getpid(), signal.SIGSEGV)
    stall()  # the signal is delivered before os.kill returns; never reached


def torn_traceback(exc, *, hang):
    """Write the head of ``exc``'s traceback (two frames, the third frame's line cut in
    half), then die by SIGKILL mid-write (or hang): what a log holds when the writer went
    before its traceback was out."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    head, frames = [], 0
    for line in text.splitlines(True):
        if line.startswith("  File "):
            frames += 1
            if frames == 3:
                head.append(line[: len(line) // 2])
                break
        head.append(line)
    os.write(2, "".join(head).encode("utf-8", "replace"))
    if hang:
        stall()
    os.kill(os.getpid(), signal.SIGKILL)
    stall()
