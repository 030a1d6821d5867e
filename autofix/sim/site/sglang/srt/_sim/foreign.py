"""Frames of third-party files (transformers, huggingface_hub, torch) for the simulator.

The simulated host has no transformers or torch, yet the real tracebacks pass through
them. ``virtual_module`` compiles a small stand-in with the real file name (as it would
sit next to ``sglang`` in site-packages) and registers its text with ``linecache`` so that
``traceback`` prints the source lines; ``place`` puts each block at the line number the real
file has, so the frames read ``line 595, in cached_files`` like the real ones. Nothing is
written to disk and nothing is importable under those names.
"""

import linecache
import os
import sys
import types

SITE_DIR = os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
)

_MODULES = {}


def place(blocks):
    """Join (first_line, text) blocks, padding with blank lines so each starts on its line."""
    out = []
    line = 1
    for target, text in blocks:
        if target < line:
            raise ValueError(f"block for line {target} overlaps (at line {line})")
        out.append("\n" * (target - line))
        line = target
        text = text.strip("\n") + "\n"
        out.append(text)
        line += text.count("\n")
    return "".join(out)


def virtual_module(relpath, module_name, source, namespace=None):
    """Execute ``source`` as if it were ``<site-packages>/<relpath>``; returns a module object."""
    key = (relpath, module_name)
    if key in _MODULES:
        _register(_MODULES[key].__file__, source)
        return _MODULES[key]
    filename = os.path.join(SITE_DIR, relpath)
    _register(filename, source)
    module = types.ModuleType(module_name)
    module.__file__ = filename
    if namespace:
        module.__dict__.update(namespace)
    exec(compile(source, filename, "exec"), module.__dict__)
    _MODULES[key] = module
    return module


def _register(filename, source):
    lines = source.splitlines(True)
    linecache.cache[filename] = (len(source), None, lines, filename)


def exception_class(module_name, name, base, doc=None):
    """An exception class that prints as ``module_name.name`` in tracebacks."""
    cls = type(name, (base,), {"__module__": module_name, "__doc__": doc})
    cls.__qualname__ = name
    return cls


def _ensure_excepthook():
    # Keep the Python-level formatter in place even if someone reset the hook.
    import traceback

    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = lambda t, v, tb: traceback.print_exception(t, v, tb)


_ensure_excepthook()


# ---------------------------------------------------------------------------
# Frames that stand for native code (torch's C++ ops, NCCL) are hidden from the
# printed traceback, exactly as native frames are absent from real tracebacks.
# ---------------------------------------------------------------------------

_HIDDEN_CODES = set()


def hidden(fn):
    """Mark a simulator function as native: its frame never shows in tracebacks."""
    _HIDDEN_CODES.add(fn.__code__)
    return fn


def prune(exc):
    """Drop hidden frames from ``exc`` and the exceptions chained to it (in place)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        tbs = []
        tb = exc.__traceback__
        while tb is not None:
            tbs.append(tb)
            tb = tb.tb_next
        kept = [t for t in tbs if t.tb_frame.f_code not in _HIDDEN_CODES]
        if len(kept) != len(tbs):
            for a, b in zip(kept, kept[1:]):
                a.tb_next = b
            if kept:
                kept[-1].tb_next = None
                exc.__traceback__ = kept[0]
            else:
                exc.__traceback__ = None
        exc = exc.__cause__ or exc.__context__
    return exc
