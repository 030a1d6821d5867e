"""SGLang 0.5.23's argument resolution as data, and the engine that runs it.

``data/rules.json`` was written from what the real 0.5.23 prints, raises and resolves for
each argv (tests/data/sim/tools/capture_facts.py). Its sections:

    functions   short name -> "file:function" of every function a printed frame stands in
    exceptions  foreign exception types and the builtin each derives from
    entries     the frames of prepare_server_args, resolve_once and check_server_args
    stacks      named runs of frames several failures share, outermost first
    defs        named conditions, spliced into the expressions that mention them
    resolve     the steps of resolve_once, in SGLang's order
    check       the steps of check_server_args, in SGLang's order

A step is ``{"id", "when", "let", "set", "log", "level", "raise", "message", "at"}``, all but
the id optional. ``when`` is a Python expression over the fields decided so far (names as
the record's fields), the model (``arch``, ``model``, ``draft_arch``, ``draft``), the GPU
(``gpu.sm``, ``gpu.mem_mib`` ...), ``strict`` (AUTOFIX_SIM_STRICT_SM120), ``env`` and
``argv``. ``let`` names intermediate values, ``set`` decides fields, ``log`` prints a line
(``{expression}`` templates: values before the step by name, its decisions as ``{new.field}``),
and ``raise`` ends resolution with an exception (a type, or a chain of them, innermost
first, each linked to the one before by ``"link": "cause" | "context"``) whose traceback
prints the frames listed in ``at``. A frame is ``[function, line, "printed line",
"carets"]``; ``"@name"`` splices a stack.
"""

import io
import json
import logging
import os
import random
import re
import string
import tokenize
from types import SimpleNamespace

from sglang.srt._sim import frames, host, models

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
logger = logging.getLogger("sglang.srt.arg_groups")
_SAFE = {
    name: __builtins__[name] if isinstance(__builtins__, dict) else getattr(__builtins__, name)
    for name in (
        "abs all any bool dict enumerate float int isinstance len list max min range repr round set sorted str sum tuple"
    ).split()
}


class RuleError(RuntimeError):
    """A rule that cannot be evaluated: a bug in rules.json, not a simulated failure."""


def _expand(expr, defs):
    """``expr`` with every name of ``defs`` replaced by its (parenthesised) condition."""
    if not defs or not isinstance(expr, str):
        return expr
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(expr).readline):
        text = tok.string
        if tok.type == tokenize.NAME and text in defs and (not out or out[-1] != "."):
            text = f"({defs[text]})"
        out.append(text)
    return " ".join(t for t in out if t)


class Rules:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        self.functions = data["functions"]
        self.exceptions = data.get("exceptions", {})
        defs = {}
        for name, expr in data.get("defs", {}).items():
            defs[name] = _expand(expr, defs)
        self.defs = defs
        self.stacks = {}
        for name, rows in data.get("stacks", {}).items():
            self.stacks[name] = self.frames_of(rows)
        self.entries = {name: self.frame(row) for name, row in data["entries"].items()}
        self.tables = data.get("tables", {})
        self.steps = {stage: [self._step(s) for s in data[stage]] for stage in ("resolve", "check")}
        self.runtime = {name: self._step(dict(spec, id=name)) for name, spec in data.get("runtime", {}).items()}
        frames.install()

    def frame(self, row):
        function, line, code, *marks = row
        file, _, func = self.functions[function].rpartition(":")
        return frames.Frame(file, line, func, code, marks[0] if marks else "")

    def frames_of(self, rows):
        out = []
        for row in rows:
            if isinstance(row, str):
                if row[1:] not in self.stacks:
                    raise RuleError(f"unknown stack {row!r}")
                out.extend(self.stacks[row[1:]])
            else:
                out.append(self.frame(row))
        frames.learn(out)
        return out

    def _step(self, spec):
        step = dict(spec)
        where = step["id"]

        def compiled(expr):
            try:
                return compile(_expand(expr, self.defs), f"<rule {where}>", "eval") if isinstance(expr, str) else expr
            except SyntaxError as exc:
                raise RuleError(f"rule {where}: {exc}") from None

        step["when"] = compiled(step.get("when", "True"))
        step["let"] = [(k, compiled(v)) for k, v in step.get("let", {}).items()]
        step["set"] = [(k, compiled(v)) for k, v in step.get("set", {}).items()]
        step["env"] = [(k, compiled(v)) for k, v in step.get("env", {}).items()]
        if "raise" in step:
            chain = step["raise"]
            if isinstance(chain, str):
                chain = [{"type": chain, "message": step.get("message"), "at": step["at"]}]
            step["raise"] = [dict(link, at=self.frames_of(link["at"])) for link in chain]
        return step


_RULES = []


def loaded():
    if not _RULES:
        _RULES.append(Rules(os.path.join(_DATA, "rules.json")))
    return _RULES[0]


def entry(name):
    return loaded().entries[name]


def render(template, scope, where):
    """``template`` with each ``{expression!conversion:spec}`` evaluated in ``scope``."""
    out = []
    try:
        for literal, expr, spec, conversion in string.Formatter().parse(template):
            out.append(literal)
            if expr is not None:
                value = eval(_expand(expr, loaded().defs), scope)
                value = {"r": repr, "s": str, "a": ascii}.get(conversion or "", lambda v: v)(value)
                out.append(format(value, spec or ""))
    except Exception as exc:
        raise RuleError(f"rule {where}: message {template!r}: {exc}") from exc
    return "".join(out)


class _Run:
    """One resolution (or check) of one record: a namespace the steps read and write."""

    def __init__(self, record, values):
        gpu = host.gpu_facts()
        model = models.read_config(values["model_path"]) if values.get("model_path") else None
        draft_path = values.get("speculative_draft_model_path")
        draft = models.read_config(draft_path) if draft_path else None
        self.ns = dict(values)
        self.ns.update(
            __builtins__=_SAFE,
            model=model,
            arch=((model or {}).get("architectures") or [None])[0],
            draft=draft,
            draft_arch=((draft or {}).get("architectures") or [None])[0],
            gpu=gpu,
            strict=host.strict_sm120(),
            env=dict(os.environ),
            argv=list(getattr(record, "_argv", [])),
            raw=dict(values),
            isfile=os.path.isfile,
            isdir=os.path.isdir,
            hub_id=hub_id,
            randint=random.randint,
            graphs=CudaGraphConfig,
            ladder=ladder,
        )
        self.ns.update(loaded().tables)
        self.decided = {}

    def value(self, code, step):
        try:
            return eval(code, self.ns) if hasattr(code, "co_code") else code
        except Exception as exc:
            raise RuleError(f"rule {step['id']}: {type(exc).__name__}: {exc}") from exc

    def text(self, template, step, new=None):
        return render(template, dict(self.ns, new=SimpleNamespace(**(new or {}))), step["id"])

    def run(self, steps):
        """None when every step passed, else the function that raises the failure."""
        for step in steps:
            if not self.value(step["when"], step):
                continue
            for name, code in step["let"]:
                self.ns[name] = self.value(code, step)
            new = {name: self.value(code, step) for name, code in step["set"]}
            if "log" in step:
                level = logging.WARNING if step.get("level") == "warning" else logging.INFO
                logger.log(level, self.text(step["log"], step, new))
            self.ns.update(new)
            self.decided.update(new)
            for name, code in step["env"]:
                os.environ[name] = str(self.value(code, step))
            if "raise" in step:
                return self.failure(step)
            if step.get("stop"):
                return None
        return None

    def failure(self, step):
        links = step["raise"]
        return Failure([(link, None if link.get("message") is None else self.text(link["message"], step)) for link in links])


class Failure:
    """An exception chain decided by a rule: its links (innermost first), each with the frames
    its traceback prints. ``raiser`` gives the function that raises it through those frames."""

    def __init__(self, links):
        rules = loaded()
        self.frames = []
        self.chain = []
        for link, message in links:
            kind = link["type"]
            cls = frames.exception_class(kind, frames.exception_class(rules.exceptions.get(kind, "Exception")))
            self.chain.append((cls() if message is None else cls(message), link.get("link")))
            self.frames.append(link["at"])
        self._linked = False

    def _link(self):
        if self._linked:
            return
        self._linked = True
        for i in range(1, len(self.chain)):
            before, (exc, how) = self.chain[i - 1][0], self.chain[i]
            frames.materialize(self.frames[i - 1], before)
            exc.__context__ = before
            if how == "cause":
                exc.__cause__ = before

    @property
    def exc(self):
        return self.chain[-1][0]

    def raiser(self, prefix=()):
        self._link()
        return frames.raiser([*prefix, *self.frames[-1]], self.exc)

    def exception(self, prefix=()):
        """The outermost exception, its traceback as if caught above the first frame."""
        self._link()
        return frames.materialize([*prefix, *self.frames[-1]], self.exc)


def runtime(name, **values):
    """The failure ``name`` of the runtime section (a rank's OOM, NCCL error ...)."""
    scope = dict(values, __builtins__=_SAFE)
    links = loaded().runtime[name]["raise"]
    return Failure([(link, None if link.get("message") is None else render(link["message"], scope, name)) for link in links])


def _nothing(*args):
    return None


def resolve(record):
    """Run resolve_once's steps once; returns what the entry frame calls next."""
    if record._state != "raw":
        return _nothing
    values = {name: getattr(record, name) for name in type(record).__struct_fields__}
    run = _Run(record, values)
    failed = run.run(loaded().steps["resolve"])
    record._decided = run.decided
    record._state = "failed" if failed else "resolved"
    return failed.raiser() if failed else _nothing


def check_failure(record):
    """Run check_server_args' steps; the Failure, or None."""
    values = {name: getattr(view_of(record), name) for name in type(record).__struct_fields__}
    run = _Run(record, values)
    failed = run.run(loaded().steps["check"])
    if record._decided is not None:
        record._decided.update(run.decided)
    return failed


def check(record):
    failed = check_failure(record)
    return failed.raiser() if failed else _nothing


class View:
    """The resolved configuration: the record's fields with resolution's decisions over them."""

    def __init__(self, record):
        object.__setattr__(self, "_record", record)

    def __getattr__(self, name):
        decided = object.__getattribute__(self, "_record")._decided or {}
        if name in decided:
            return decided[name]
        return getattr(object.__getattribute__(self, "_record"), name)

    def __setattr__(self, name, value):
        raise AttributeError("the resolved view is read-only")


def view_of(record):
    return View(record)


def hub_id(path):
    """Whether ``path`` reads as a Hugging Face repo id ("org/name"), which the Hub is asked for."""
    return bool(re.fullmatch(r"(?:[\w\-.]+/)?[\w\-.]{1,96}", path)) and "--" not in path and ".." not in path


def ladder(parts, limit, with_limit):
    """Batch sizes up to ``limit`` from ``parts``: "1 2 4" lists sizes, "16:257:8" is a range."""
    sizes = []
    for part in parts:
        if isinstance(part, int):
            sizes.append(part)
        elif ":" in part:
            sizes.extend(range(*map(int, part.split(":"))))
        else:
            sizes.extend(map(int, part.split()))
    sizes = [size for size in sizes if size <= limit]
    if with_limit and limit not in sizes:
        sizes.append(limit)
    return sizes


class _Phase(SimpleNamespace):
    _ORDER = ("backend", "max_bs", "bs", "tc_compiler", "max_context_size", "full_prefill_max_req")
    _ORDER += ("full_prefill_prefix_chunk_tokens", "max_seq_len")

    def __repr__(self):
        return "PhaseConfig(" + ", ".join(f"{k}={getattr(self, k, None)!r}" for k in self._ORDER) + ")"


class CudaGraphConfig:
    """The resolved ``cuda_graph_config``: one phase config each for decode and prefill."""

    def __init__(self, decode, prefill):
        self.decode = _Phase(**{"tc_compiler": "eager", **decode})
        self.prefill = _Phase(**{"tc_compiler": "eager", **prefill})

    def __repr__(self):
        return f"CudaGraphConfig(decode={self.decode!r}, prefill={self.prefill!r})"

    def __eq__(self, other):
        return isinstance(other, CudaGraphConfig) and repr(self) == repr(other)

    def to_dict(self):
        return {"decode": vars(self.decode), "prefill": vars(self.prefill)}
