"""SIMULATOR -- not SGLang.

autofix's look-alike of SGLang 0.5.23 on a simulated host with 8 x NVIDIA RTX PRO 6000
Blackwell Server Edition GPUs (autofix/sim/README.md). Importable as ``sglang`` only when
autofix's sim site directory is on PYTHONPATH. It has the real command line, prints the real
log lines and tracebacks for the argument gates it models, and touches no GPU.
"""

import sys
import traceback

from sglang.version import __version__

SIMULATED = True


def _print_exception(exc_type, exc, tb):
    # The Python formatter reads source lines through linecache, which holds the lines of the
    # frames the simulator prints (sglang.srt._sim.frames); the C one would read the files.
    traceback.print_exception(exc_type, exc, tb, file=sys.stderr)


if sys.excepthook is sys.__excepthook__:
    sys.excepthook = _print_exception

__all__ = ["SIMULATED", "__version__"]
