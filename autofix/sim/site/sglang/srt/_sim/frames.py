"""The frames SGLang's tracebacks print, reproduced from their facts.

A frame is what a traceback shows: file, line, function, the one source line and the carets
under it. Python prints those from the positions of the code object that was running and
from ``linecache``. So each frame here is a tiny function compiled under the real file name
(as it would sit in site-packages, next to ``sglang``) whose one statement stands at the real
line and columns, and ``linecache`` holds, for each such file, the printed lines and nothing
else. Calling a chain of those functions raises an exception whose traceback reads like the
real one: same files, lines, functions, source lines and carets (anchors included, since
Python computes them from the same columns).

Every frame function has one of two bodies:

    return _done(_hop(*a)(*a))    # _hop decides what runs next (the next frame, or real work)
    raise _exc                    # the innermost frame of a failure

The inner call is the one placed at the frame's columns, so it is what the traceback points
at while the next frame runs.
"""

import ast
import builtins
import linecache
import os
import types
from typing import NamedTuple

SITE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
_INDENT = "    "
_printed = {}  # absolute file name -> {line number: printed source line}
_codes = {}  # (frame, body kind) -> code object


class Frame(NamedTuple):
    file: str  # relative to site-packages ("sglang/srt/server_args.py") or absolute
    line: int
    func: str
    code: str = ""  # the printed source line, stripped
    marks: str = ""  # the caret line under it, aligned with ``code``

    @property
    def path(self):
        if os.path.isabs(self.file) or self.file.startswith("<"):  # "<string>": a generated __init__
            return self.file
        return os.path.join(SITE, self.file)


def learn(frames):
    """Remember the printed lines of ``frames`` (one text per file and line)."""
    for frame in frames:
        lines = _printed.setdefault(frame.path, {})
        known = lines.setdefault(frame.line, frame.code)
        if known != frame.code:
            raise ValueError(f"{frame.file}:{frame.line} printed as {known!r} and as {frame.code!r}")


def install():
    """Put the learned lines into linecache (again: someone may have cleared it)."""
    for path, lines in _printed.items():
        text = ["\n"] * max(lines)
        for number, code in lines.items():
            text[number - 1] = _INDENT + code + "\n" if code else "\n"
        linecache.cache[path] = (sum(map(len, text)), None, text, path)


def _span(frame):
    """(start, end, spans_lines) of the carets, in characters of the stripped line."""
    if not frame.marks.strip():
        return 0, len(frame.code), True  # no carets: the instruction covers the whole line
    start = len(frame.marks) - len(frame.marks.lstrip())
    end = len(frame.marks.rstrip())
    # Plain carets to the end of the line: a statement that goes on below (no anchors).
    return start, end, "~" not in frame.marks and end >= len(frame.code)


def _code(frame, raising):
    key = (frame, raising)
    if key in _codes:
        return _codes[key]
    start, end, multiline = _span(frame)
    col = len((_INDENT + frame.code[:start]).encode())
    end_col = len((_INDENT + frame.code[:end]).encode())
    where = {
        "lineno": frame.line,
        "col_offset": col,
        "end_lineno": frame.line + 1 if multiline else frame.line,
        "end_col_offset": 0 if multiline else end_col,
    }

    def at(node):
        for name, value in where.items():
            setattr(node, name, value)
        return node

    def name(ident):
        return at(ast.Name(ident, ast.Load()))

    def call(func, arg, star=True):
        return at(ast.Call(func=func, args=[at(ast.Starred(arg, ast.Load())) if star else arg], keywords=[]))

    if raising:
        body = at(ast.Raise(exc=name("_exc"), cause=None))
    else:
        body = at(ast.Return(call(name("_done"), call(call(name("_hop"), name("a")), name("a")), star=False)))
    args = ast.arguments(
        posonlyargs=[], args=[], vararg=ast.arg("a"), kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
    )
    func = ast.FunctionDef(name="frame", args=args, body=[body], decorator_list=[], returns=None)
    func.lineno, func.col_offset, func.end_lineno, func.end_col_offset = frame.line, 0, frame.line, 1
    module = ast.fix_missing_locations(ast.Module(body=[func], type_ignores=[]))
    namespace = {}
    exec(compile(module, frame.path, "exec"), namespace)
    code = namespace["frame"].__code__.replace(co_name=frame.func, co_qualname=frame.func)
    _codes[key] = code
    return code


def _same(value):
    return value


def function(frame, hop, done=_same):
    """A function that shows as ``frame`` while ``hop(*args)(*args)`` runs."""
    learn([frame])
    scope = {"_hop": hop, "_done": done, "__builtins__": __builtins__}
    return types.FunctionType(_code(frame, False), scope, frame.func)


def raiser(frames, exc):
    """The outermost function of a chain through ``frames`` whose innermost raises ``exc``."""
    frames = list(frames)
    learn(frames)
    install()
    fn = types.FunctionType(_code(frames[-1], True), {"_exc": exc}, frames[-1].func)
    for frame in reversed(frames[:-1]):
        fn = function(frame, lambda *a, _next=fn: _next)
    return fn


def materialize(frames, exc, *args):
    """``exc`` with the traceback of ``frames`` (outermost first), as if it had been raised
    there and caught above the first one."""
    links = exc.__context__, exc.__cause__, exc.__suppress_context__
    try:
        raiser(frames, exc)(*args)
    except BaseException as caught:
        if caught is not exc:
            raise
        exc.__traceback__ = exc.__traceback__.tb_next  # this function's own frame
    # Raised while the caller handles another exception, Python would chain that one in.
    exc.__context__, exc.__cause__, exc.__suppress_context__ = links
    return exc


class _Marker(Exception):
    pass


def graft(frames, exc):
    """Put ``frames`` where ``exc`` was caught: its traceback then runs through them into the
    frames it was really raised in (a real EOFError out of multiprocessing, say)."""
    marker = materialize(frames, _Marker())
    ours = []
    tb = marker.__traceback__
    while tb is not None:
        ours.append(tb)
        tb = tb.tb_next
    tail = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
    for tb in reversed(ours):
        tail = types.TracebackType(tail, tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
    exc.__traceback__ = tail
    return exc


_classes = {}


def exception_class(qualified, base=Exception):
    """The exception class that prints as ``qualified``: a builtin ("ValueError") or one made
    here under a foreign module's name ("torch.OutOfMemoryError"), once per name."""
    if "." not in qualified:
        return getattr(builtins, qualified)
    if qualified not in _classes:
        module, name = qualified.rsplit(".", 1)
        _classes[qualified] = type(name, (base,), {"__module__": module, "__qualname__": name})
    return _classes[qualified]
