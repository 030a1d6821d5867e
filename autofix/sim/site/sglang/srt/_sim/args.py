"""The command line and the record: ``prepare_server_args`` and ``ServerArgs``.

The parser is rebuilt from ``data/flags.json`` (the facts of the real 0.5.23 command line:
option strings, dests, kinds, types, choices, defaults), so flags parse, fail and print
``usage:`` as the real ones do. The record keeps what the operator asked for; resolution
(``rules.py``) decides the rest and keeps its decisions next to it, as 0.5.23 does.
"""

import argparse
import json
import logging
import os
import re
import sys
from decimal import Decimal

from sglang.srt._sim import frames, rules

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
with open(os.path.join(_DATA, "flags.json"), encoding="utf-8") as _f:
    FLAGS = json.load(_f)
FIELDS = {name: default for name, default in FLAGS["fields"]}
logger = logging.getLogger("sglang.srt.server_args")


# --- value types of the real flags (behaviour observed on 0.5.23, see tests/data/sim) -----
# Each is a frames.guard: it shows as SGLang's own function, at the line its error comes from.

_SI = {"k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
_IEC = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}
_SUFFIXED = re.compile(r"(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)")


def _sites(*names):
    return {name: rules.loaded().stacks[name] for name in names}


def _type_error(message, context=None):
    error = argparse.ArgumentTypeError(message)
    error.__context__ = context
    return error


def _check_int(text):
    found = _SUFFIXED.fullmatch(text.strip())
    if found:
        number, suffix = found.groups()
        if suffix not in _IEC:
            return None, int(Decimal(number) * _SI[suffix])
        if "." not in number:
            return None, int(number) * _IEC[suffix]
        whole = number.split(".")[0]
        return _int_fail("int_iec_decimal", _type_error(
            f"Decimals are not allowed with IEC suffixes like '{suffix}'. Use an integer IEC value "
            f"such as '{int(whole)}{suffix}', or an SI value such as '{number}{suffix[0]}'."
        ))
    try:
        return None, int(text)
    except ValueError as exc:
        context = frames.materialize(rules.loaded().stacks["int_plain"], ValueError(str(exc)))
    return _int_fail("int_invalid", _type_error(
        f"Invalid integer value: {text!r}. Use a plain integer, SI suffixes (1k, 1M), or IEC suffixes "
        "(1Ki, 1Mi). Suffixes are case-sensitive.", context
    ))


human_readable_int, _int_fail = frames.guard(_sites("int_iec_decimal", "int_invalid"), _check_int)


def _check_json_list(text):
    try:
        return None, json.loads(text)
    except ValueError as exc:  # SGLang decodes with orjson; the sim has Python's words for it
        decode = frames.exception_class("orjson.JSONDecodeError", ValueError)(str(exc))
        context = frames.materialize(rules.loaded().stacks["json_list_decode"], decode)
    return _list_fail("json_list_invalid", _type_error(
        f"Invalid JSON list: {text}. Please provide a valid JSON list.", context
    ))


json_list_type, _list_fail = frames.guard(_sites("json_list_invalid"), _check_json_list)


def nullable_str(text):
    return None if text in ("None", "") else text


_REMOVED = "tc_piecewise was removed; select breakable, full, or disabled"


def _check_backend(text):
    return _backend_fail("graph_backend_removed", _type_error(_REMOVED)) if text == "tc_piecewise" else (None, text)


parse_cuda_graph_backend_arg, _backend_fail = frames.guard(_sites("graph_backend_removed"), _check_backend)
_PHASE_KEYS = {
    "decode": ("backend", "max_bs", "bs"),
    "prefill": (
        "backend",
        "max_bs",
        "bs",
        "max_context_size",
        "full_prefill_max_req",
        "full_prefill_prefix_chunk_tokens",
        "max_seq_len",
    ),
}


def _check_graphs(text):
    try:
        phases = json.loads(text)
    except ValueError as exc:
        decode = frames.graft(rules.loaded().stacks["graph_config_decode"], exc)
        return _graphs_fail("graph_config_json", _type_error(f"--cuda-graph-config must be JSON: {exc}", decode))
    if not isinstance(phases, dict):
        kind = type(phases).__name__
        return _graphs_fail("graph_config_object", _type_error(f"--cuda-graph-config must be a JSON object, got {kind}"))
    for phase, settings in phases.items():
        if phase not in _PHASE_KEYS:
            message = f"--cuda-graph-config: unknown phase '{phase}', expected one of {tuple(_PHASE_KEYS)}"
            return _graphs_fail("graph_config_phase", _type_error(message))
        if not isinstance(settings, dict):
            message = f"--cuda-graph-config['{phase}'] must be a JSON object, got {type(settings).__name__}"
            return _graphs_fail("graph_config_settings", _type_error(message))
        if settings.get("backend") == "tc_piecewise":
            return _graphs_fail("graph_config_backend", _type_error(_REMOVED))
        for key in settings:
            if key not in _PHASE_KEYS[phase]:
                message = f"--cuda-graph-config['{phase}']: unknown key '{key}', expected one of {_PHASE_KEYS[phase]}"
                return _graphs_fail("graph_config_key", _type_error(message))
    return None, phases


_GRAPH_SITES = ("graph_config_json", "graph_config_object", "graph_config_phase", "graph_config_settings")
parse_cuda_graph_config_arg, _graphs_fail = frames.guard(
    _sites(*_GRAPH_SITES, "graph_config_backend", "graph_config_key"), _check_graphs
)


_TYPES = {
    "str": str,
    "int": int,
    "float": float,
    "loads": json.loads,
    "human_readable_int": human_readable_int,
    "json_list_type": json_list_type,
    "nullable_str": nullable_str,
    "parse_cuda_graph_backend_arg": parse_cuda_graph_backend_arg,
    "parse_cuda_graph_config_arg": parse_cuda_graph_config_arg,
}


# --- SGLang's custom actions, as they behave -------------------------------------------------


def _deprecated(option, new_flag):
    hint = f" Use '{new_flag}' instead." if new_flag else ""
    logger.warning(f"\033[1;33m'{option}' is deprecated and will be removed in a future release.{hint}\033[0m")


class _DeprecatedTrue(argparse.Action):
    def __init__(self, option_strings, dest, new_flag=None, **options):
        self.new_flag = new_flag
        super().__init__(option_strings, dest, **options)

    def __call__(self, parser, namespace, values, option_string=None):
        _deprecated(option_string, self.new_flag)
        setattr(namespace, self.dest, True)


class _DeprecatedConst(argparse.Action):
    def __init__(self, option_strings, dest, new_flag=None, const_value=None, **options):
        self.new_flag, self.stored = new_flag, const_value
        super().__init__(option_strings, dest, **options)

    def __call__(self, parser, namespace, values, option_string=None):
        _deprecated(option_string, self.new_flag)
        setattr(namespace, self.dest, self.stored)


def _check_lora_paths(action, parser, namespace, values, option_string=None):
    """Each value a path, or a JSON object naming one (``{"lora_name": .., "lora_path": ..}``)."""
    paths = []
    for value in values or []:
        value = value.strip()
        if not (value.startswith("{") and value.endswith("}")):
            paths.append(value)
            continue
        named = json.loads(value)
        if "lora_path" not in named or "lora_name" not in named:
            message = f"{value!r} looks like a JSON str, but it does not contain 'lora_name' and 'lora_path' keys."
            return _lora_fail("lora_json_keys", AssertionError(message))
        paths.append(named)
    setattr(namespace, action.dest, paths)
    return None, None


class _LoraPaths(argparse.Action):
    pass


_LoraPaths.__call__, _lora_fail = frames.guard(_sites("lora_json_keys"), _check_lora_paths)


_ACTIONS = {
    "store": "store",
    "store_true": "store_true",
    "store_false": "store_false",
    "store_const": "store_const",
    "append": "append",
    "count": "count",
    "boolean_optional": argparse.BooleanOptionalAction,
    "deprecated_true": _DeprecatedTrue,
    "deprecated_const": _DeprecatedConst,
    "lora_paths": _LoraPaths,
}
_KEYWORDS = ("nargs", "const", "choices", "metavar", "required")


def _suppress(value):
    return argparse.SUPPRESS if value == argparse.SUPPRESS else value  # argparse tests identity


def build_parser():
    parser = argparse.ArgumentParser(prog=FLAGS["prog"])
    add_flags(parser)
    return parser


def add_flags(parser):
    """The real parser's flags (data/flags.json) added to ``parser``."""
    for spec in FLAGS["actions"]:
        if spec["kind"] == "help":
            continue
        kwargs = {"dest": spec["dest"], "default": _suppress(spec["default"]), "action": _ACTIONS[spec["kind"]]}
        if "help" in spec:
            kwargs["help"] = _suppress(spec["help"])
        flags = spec["flags"]
        if spec["kind"] == "boolean_optional":
            flags = flags[: len(flags) // 2]  # argparse adds the --no- spellings itself
        elif spec["kind"] not in ("store_true", "store_false"):
            kwargs.update({k: spec[k] for k in _KEYWORDS if k in spec})
            if "type" in spec:
                kwargs["type"] = _TYPES[spec["type"]]
            if spec.get("choices_are_a_set"):
                kwargs["choices"] = set(spec["choices"])  # as in 0.5.23: printed in hash order
        if spec["kind"] in ("store_const",):
            kwargs["const"] = spec.get("const")
        kwargs.update(spec.get("extra") or {})
        parser.add_argument(*flags, **kwargs)


_PARSER = []


def parser():
    if not _PARSER:
        _PARSER.append(build_parser())
    return _PARSER[0]


# --- the record ------------------------------------------------------------------------------


class ServerArgs:
    """What the operator asked for, one attribute per field of the real record. Resolution
    leaves it as it is and keeps its decisions in ``_decided``; ``resolved_view`` shows both."""

    __struct_fields__ = tuple(FIELDS)

    def __init__(self, **values):
        unknown = set(values) - set(FIELDS)
        if unknown:
            raise TypeError(f"Unexpected keyword arguments: {sorted(unknown)}")
        for name, default in FIELDS.items():
            object.__setattr__(self, name, values.get(name, json.loads(json.dumps(default))))
        self._decided = None  # field -> value, once resolution ran
        self._state = "raw"  # raw | resolved | failed
        self._launch_command = None
        self._argv = []

    @property
    def launch_command(self):
        return self._launch_command

    def resolved_dict(self):
        view = rules.view_of(self)
        return {name: getattr(view, name) for name in FIELDS if not name.startswith("_")}

    def __repr__(self):
        view = rules.view_of(self)
        hidden = {"watermark_key", "watermark_key_b"}
        shown = ", ".join(f"{n}={getattr(view, n)!r}" for n in FIELDS if not n.startswith("_") and n not in hidden)
        return f"ServerArgs({shown})"

    @staticmethod
    def add_cli_args(parser):
        """As in every release: the server's flags added to a parser the caller made."""
        add_flags(parser)

    def url(self, port=None):
        host = self.host if self.host not in (None, "", "0.0.0.0") else "127.0.0.1"
        return f"{'https' if self.ssl_certfile else 'http'}://{host}:{port or self.port}"


def _record_invocation(argv):
    """AUTOFIX_SIM_RECORD=<file>: append what this process was asked to run (sim only)."""
    path = os.environ.get("AUTOFIX_SIM_RECORD")
    if not path:
        return
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    entry = getattr(spec, "name", None) or os.path.basename(getattr(main, "__file__", "") or "")
    line = json.dumps({"argv": list(argv), "pid": os.getpid(), "entry": entry}) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def _before_parse(argv):
    _record_invocation(argv)
    _PENDING[:] = [list(argv)]
    return parser().parse_args


_PENDING = []


def _after_parse(namespace):
    logging.basicConfig(
        level=getattr(logging, namespace.log_level.upper()),
        format="[%(asctime)s] %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
        force=True,
    )
    argv = _PENDING.pop() if _PENDING else []
    given = {name: getattr(namespace, name) for name in FIELDS if hasattr(namespace, name)}
    given["_radix_eviction_policy_explicitly_set"] = any(
        a == "--radix-eviction-policy" or a.startswith("--radix-eviction-policy=") for a in argv
    )
    record = ServerArgs(**given)
    record._launch_command = " ".join(argv)
    record._argv = argv
    return record


def _resolve_step(record):
    return rules.resolve(record)


def _check_step(record):
    return rules.check(record)


prepare_server_args = frames.function(rules.entry("prepare"), _before_parse, _after_parse)
ServerArgs.resolve_once = frames.function(rules.entry("resolve"), _resolve_step)
ServerArgs.check_server_args = frames.function(rules.entry("check"), _check_step)
frames.install()
