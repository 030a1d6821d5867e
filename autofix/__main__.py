"""The ``autofix`` command (and ``python -m autofix``): Ctrl-C is a quiet exit 130 from
the first instant, also while the command line's modules are still being imported (a
KeyboardInterrupt there would print a traceback); once a command runs, cli.py handles it."""

from __future__ import annotations

import signal
import sys
from types import FrameType, TracebackType


def _interrupted_while_starting(_signum: int, _frame: FrameType | None) -> None:
    sys.stderr.write("autofix: interrupted\n")
    raise SystemExit(130)


def _unraisable(hook: sys.UnraisableHookArgs) -> None:
    # A Ctrl-C that lands after the command returned, while Python waits for threads at
    # exit, is reported as "Exception ignored" with a traceback: the work is done, so the
    # interrupt has nothing left to stop and is not worth a traceback.
    if hook.exc_type is KeyboardInterrupt:
        return
    sys.__unraisablehook__(hook)


def _uncaught(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    # A Ctrl-C after a command's own handler let go (click's exit, a finally) reaches the
    # top level; Python still ends the process by the interrupt, as a shell expects.
    if issubclass(kind, KeyboardInterrupt):
        sys.stderr.write("autofix: interrupted\n")
        return
    sys.__excepthook__(kind, exc, tb)


def quiet_interrupts() -> None:
    """From the first instant: Ctrl-C while starting is a quiet exit 130, one that escapes
    to the top level is one line, and one that lands while the interpreter shuts down is
    silent."""
    signal.signal(signal.SIGINT, _interrupted_while_starting)
    sys.unraisablehook = _unraisable
    sys.excepthook = _uncaught


def run() -> None:
    quiet_interrupts()
    from autofix.cli import main

    main()


if __name__ == "__main__":
    run()
