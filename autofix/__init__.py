"""autofix: closes the crash-fix loop for LLM-serving launch configs.

It launches candidate configs of an SGLang server on a host, watches each through the
gates (preflight, start, ready, smoke, bench), reads the traceback when one dies, sorts
it into a failure class, applies repair moves searched over a graph, records every
attempt, and exports the winner as a systemd unit.

The public facade is small; everything else lives in modules named for what they do
(see DESIGN.md): :func:`load_base`, :func:`load_catalog`, :func:`classify_text`.
"""

from __future__ import annotations

from .catalog import Catalog, load_catalog
from .config import BaseConfig, load_base, parse_base
from .errors import AutofixError
from .model import Attempt, AttemptState, Candidate, Failure, Gate, Move, Run, RunStatus

__version__ = "0.1.0"

__all__ = [
    "Attempt",
    "AttemptState",
    "AutofixError",
    "BaseConfig",
    "Candidate",
    "Catalog",
    "Failure",
    "Gate",
    "Move",
    "Run",
    "RunStatus",
    "__version__",
    "load_base",
    "load_catalog",
    "parse_base",
]
