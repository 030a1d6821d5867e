"""autofix: closes the crash-fix loop for LLM-serving launch configs.

It launches candidate configs of an SGLang server on a host, watches each through the
gates (preflight, start, ready, smoke, bench), reads the traceback when one dies, sorts
it into a failure class, applies repair moves searched over a graph, records every
attempt, and exports the winner as a systemd unit.

The public facade is small; everything else lives in modules named for what they do
(see DESIGN.md): :func:`load_base`, :func:`load_catalog`, :func:`classify_text`. Its names
are imported on first use, so ``import autofix`` costs nothing: the command line is ready
for Ctrl-C (a quiet exit) from its first instant (autofix/__main__.py).
"""

from __future__ import annotations

# Not typing.TYPE_CHECKING: importing typing is the window this module keeps short
# (mypy treats any TYPE_CHECKING as true).
TYPE_CHECKING = False

__version__ = "0.1.0"

_FACADE = {
    "Catalog": "catalog",
    "load_catalog": "catalog",
    "BaseConfig": "config",
    "load_base": "config",
    "parse_base": "config",
    "AutofixError": "errors",
    "Attempt": "model",
    "AttemptState": "model",
    "Candidate": "model",
    "Failure": "model",
    "Gate": "model",
    "Move": "model",
    "Run": "model",
    "RunStatus": "model",
}

if TYPE_CHECKING:
    from .catalog import Catalog, load_catalog
    from .config import BaseConfig, load_base, parse_base
    from .errors import AutofixError
    from .model import Attempt, AttemptState, Candidate, Failure, Gate, Move, Run, RunStatus


def __getattr__(name: str) -> object:
    module = _FACADE.get(name)
    if module is None:
        raise AttributeError(f"module 'autofix' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


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
