"""SIMULATOR -- not SGLang.

This package is autofix's look-alike of SGLang 0.5.23 on a simulated host with
8 x NVIDIA RTX PRO 6000 Blackwell Server Edition GPUs (see autofix/sim). It is
importable as ``sglang`` only when autofix's sim site directory is on
PYTHONPATH. Module paths, CLI flags, log format, resolution order and the
source lines of the modelled gates follow the real 0.5.23 code; nothing here
touches a GPU.
"""

import sys
import traceback

from sglang.version import __version__

SIMULATED = True


def _print_exception(exc_type, exc, tb):
    # The pure-Python formatter reads source lines through linecache, which is
    # where the simulator registers the text of frames it synthesises for
    # third-party files (transformers, torch ...). Output is identical to the
    # C formatter otherwise.
    try:
        from sglang.srt._sim.foreign import prune

        prune(exc)
        tb = exc.__traceback__
    except Exception:
        pass
    traceback.print_exception(exc_type, exc, tb, file=sys.stderr)


if sys.excepthook is sys.__excepthook__:
    sys.excepthook = _print_exception

__all__ = ["SIMULATED", "__version__"]
