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


def _place(node, frame):
    """Give ``node`` and everything under it the frame's line and caret columns."""
    start, end, multiline = _span(frame)
    where = {
        "lineno": frame.line,
        "col_offset": len((_INDENT + frame.code[:start]).encode()),
        "end_lineno": frame.line + 1 if multiline else frame.line,
        "end_col_offset": 0 if multiline else len((_INDENT + frame.code[:end]).encode()),
    }
    for child in ast.walk(node):
        for name, value in where.items():
            setattr(child, name, value)
    return node


def _compiled(frame, body):
    """The code object of ``def <frame.func>(*a): <body>`` compiled under the frame's file."""
    args = ast.arguments(
        posonlyargs=[], args=[], vararg=ast.arg("a"), kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
    )
    func = ast.FunctionDef(name="frame", args=args, body=body, decorator_list=[], returns=None)
    func.lineno, func.col_offset, func.end_lineno, func.end_col_offset = frame.line, 0, frame.line, 1
    module = ast.fix_missing_locations(ast.Module(body=[func], type_ignores=[]))
    namespace = {}
    exec(compile(module, frame.path, "exec"), namespace)
    return namespace["frame"].__code__.replace(co_name=frame.func, co_qualname=frame.func)


def _code(frame, raising):
    key = (frame, raising)
    if key not in _codes:
        if raising:
            body = ast.Raise(exc=ast.Name("_exc", ast.Load()), cause=None)
        else:
            inner = ast.Call(func=_plain_call("_hop"), args=_plain_call("_hop").args, keywords=[])
            body = ast.Return(ast.Call(func=ast.Name("_done", ast.Load()), args=[_place(inner, frame)], keywords=[]))
        _codes[key] = _compiled(frame, [_place(body, frame) if raising else _place_outer(body, frame)])
    return _codes[key]


def _place_outer(node, frame):
    # The return and the _done call stand on the frame's line too; the inner call keeps the
    # caret columns (it is what runs while a deeper frame does).
    inner = node.value.args[0]
    for child in (node, node.value, node.value.func):
        child.lineno, child.col_offset = inner.lineno, inner.col_offset
        child.end_lineno, child.end_col_offset = inner.end_lineno, inner.end_col_offset
    return node


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


def guard(sites, check):
    """A function that shows as the first frame of each site in ``sites`` (name -> frames,
    outermost first, all starting in the same function) when it fails there, and returns a
    value otherwise. ``check(*args)`` answers ``(None, value)`` or ``fail(name, exc)``."""
    first = [rows[0] for rows in sites.values()]
    learn([f for rows in sites.values() for f in rows])
    head = first[0]
    body = [ast.Assign(targets=[ast.Name("_r", ast.Store())], value=_plain_call("_check"), lineno=head.line)]
    for index, (name, rows) in enumerate(sites.items()):
        test = ast.Compare(ast.Subscript(ast.Name("_r", ast.Load()), ast.Constant(0), ast.Load()), [ast.Eq()], [ast.Constant(name)])
        payload = ast.Subscript(ast.Name("_r", ast.Load()), ast.Constant(1), ast.Load())
        if len(rows) == 1:
            statement = ast.Raise(exc=payload, cause=None)
        else:  # the failure goes on in a deeper frame: call it from this one
            statement = ast.Return(ast.Call(func=payload, args=[], keywords=[]))
        _place(statement, rows[0])
        body.append(ast.If(test=test, body=[statement], orelse=[], lineno=head.line))
    body.append(ast.Return(ast.Subscript(ast.Name("_r", ast.Load()), ast.Constant(1), ast.Load()), lineno=head.line))
    code = _compiled(head, body)
    function = types.FunctionType(code, {"_check": check}, head.func)

    def fail(name, exc):
        rows = sites[name]
        install()
        return name, exc if len(rows) == 1 else raiser(rows[1:], exc)

    return function, fail


def _plain_call(name):
    star = ast.Starred(ast.Name("a", ast.Load()), ast.Load())
    return ast.Call(func=ast.Name(name, ast.Load()), args=[star], keywords=[])


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
