"""The ``autofix`` command (and ``python -m autofix``): Ctrl-C is a quiet exit 130 from
the first instant, also while the command line's modules are still being imported (a
KeyboardInterrupt there would print a traceback); once a command runs, cli.py handles it."""

from __future__ import annotations

import signal
import sys
from types import FrameType


def _interrupted_while_starting(_signum: int, _frame: FrameType | None) -> None:
    sys.stderr.write("autofix: interrupted\n")
    raise SystemExit(130)


def run() -> None:
    signal.signal(signal.SIGINT, _interrupted_while_starting)
    from autofix.cli import main

    main()


if __name__ == "__main__":
    run()
