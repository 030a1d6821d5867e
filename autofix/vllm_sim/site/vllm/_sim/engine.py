"""The simulated vLLM's argument validation: a small engine over rules.json (autofix's own).

Not vLLM's code. The flags come from flags.json (the real 0.33.0 parser's names, kinds,
choices and defaults, as facts), the checks from rules.json. Errors are raised the way
vLLM's pydantic config classes report them (class, field, constraint) and from frames
named like vLLM's (file, function, the printed source line): a raise site is a tiny
function compiled under that file name, with only its printed line in linecache.
"""

from __future__ import annotations

import argparse
import ast
import json
import linecache
import os
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
SITE = os.path.dirname(os.path.dirname(HERE))  # the directory holding the vllm package
PYDANTIC_URL = "https://errors.pydantic.dev/2.14/v/"


def _load(name: str) -> Any:
    with open(os.path.join(HERE, name), encoding="utf-8") as fh:
        return json.load(fh)


RULES: dict[str, Any] = _load("rules.json")
FLAGS: dict[str, Any] = _load("flags.json")["flags"]


class ValidationError(ValueError):
    """Printed as pydantic prints its own: ``pydantic_core._pydantic_core.ValidationError``."""


ValidationError.__module__ = "pydantic_core._pydantic_core"


def raise_at(frame: list[Any], exc: BaseException) -> None:
    """Raise ``exc`` from a frame that reads as vLLM's: [file, line, function, source]."""
    rel, line, function, source = frame
    filename = os.path.join(SITE, rel)
    padding = "\n" * (int(line) - 2)
    code = compile(f"{padding}def {function}(exc):\n    raise exc\n", filename, "exec")
    lines = [""] * (int(line) - 1) + [f"    {source}\n"]
    linecache.cache[filename] = (len("".join(lines)), None, lines, filename)
    scope: dict[str, Any] = {}
    exec(code, scope)
    scope[function](exc)


# --- parsing --------------------------------------------------------------------------------


def human_int(text: str) -> int:
    """8k, 1M, 2g (vLLM's human-readable sizes: k=1000, K=1024)."""
    units = {"k": 10**3, "m": 10**6, "g": 10**9, "K": 2**10, "M": 2**20, "G": 2**30}
    text = str(text).strip()
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


_TYPES = {"int": int, "float": float, "human_int": human_int, "json": json.loads, "str": str}


class FlexibleArgumentParser(argparse.ArgumentParser):
    """argparse that also takes --flag_name for --flag-name (as vLLM's does)."""

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        fixed = []
        for arg in list(args or []):
            if arg.startswith("--") and "_" in arg.split("=", 1)[0]:
                head, eq, tail = arg.partition("=")
                arg = head.replace("_", "-") + eq + tail
            fixed.append(arg)
        return super().parse_args(fixed, namespace)


def add_flags(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    types = RULES["types"]
    for name, info in sorted(FLAGS.items()):
        if name in ("help",):
            continue
        kwargs: dict[str, Any] = {"default": info.get("default")}
        if info["kind"] == "bool":
            kwargs["action"] = argparse.BooleanOptionalAction
        elif info["kind"] == "bool_false":
            kwargs["action"] = "store_false"
            kwargs["default"] = True
        else:
            kind = types.get(name) or info.get("type")
            kwargs["type"] = _TYPES.get(str(kind), str)
            if info["kind"] == "list":
                kwargs["nargs"] = "+"
            if info.get("choices"):
                kwargs["choices"] = info["choices"]
        try:
            parser.add_argument(f"--{name}", **kwargs)
        except (argparse.ArgumentError, ValueError):
            continue
    return parser


# --- the model ----------------------------------------------------------------------------------


def model_facts(model: str | None) -> dict[str, Any]:
    """config.json of a model directory, or one of the sim host's built-in models."""
    if model in RULES["models"]:
        return dict(RULES["models"][model])
    path = os.path.join(str(model), "config.json")
    try:
        with open(path, encoding="utf-8") as fh:
            data: dict[str, Any] = json.load(fh)
    except OSError:
        raise OSError(
            f"Can't load the configuration of '{model}'. If you were trying to load it from "
            f"'https://huggingface.co/models', make sure you don't have a local directory with the same name."
        ) from None
    heads = int(data.get("num_attention_heads", 32))
    data.setdefault("head_dim", int(data.get("hidden_size", heads * 128)) // heads)
    layers, kv = int(data.get("num_hidden_layers", 32)), int(data.get("num_key_value_heads", heads))
    data.setdefault("weights_gb", round(layers * int(data.get("hidden_size", 4096)) ** 2 * 24 / 1e9, 1))
    data.setdefault("num_key_value_heads", kv)
    return data


# --- conditions -------------------------------------------------------------------------------

_SAFE = (ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Name, ast.Load, ast.Constant,
         ast.And, ast.Or, ast.Not, ast.Mod, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Eq, ast.NotEq, ast.Lt,
         ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn, ast.List, ast.Tuple)


def holds(expression: str, names: dict[str, Any]) -> bool:
    tree = ast.parse(expression, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _SAFE):
            raise ValueError(f"rules.json: {type(node).__name__} not allowed in {expression!r}")
    try:
        return bool(eval(compile(tree, "<rule>", "eval"), {"__builtins__": {}}, names))  # noqa: S307
    except TypeError:  # a None compared with a number: the rule does not apply
        return False


# --- pydantic-shaped errors ---------------------------------------------------------------------------


def field_error(config: str, field: str, text: str, kind: str, value: Any) -> ValidationError:
    return ValidationError(
        f"1 validation error for {config}\n{field}\n  {text} [type={kind}, input_value={value!r}, "
        f"input_type={type(value).__name__}]\n    For further information visit {PYDANTIC_URL}{kind}"
    )


def model_error(config: str, message: str) -> ValidationError:
    return ValidationError(
        f"1 validation error for {config}\n  Value error, {message} [type=value_error, "
        f"input_value=ArgsKwargs((), {{...}}), input_type=ArgsKwargs]\n    For further information visit "
        f"{PYDANTIC_URL}value_error"
    )


_CONFIG_FRAME = {
    "SpeculativeConfig": ["vllm/engine/arg_utils.py", 2139, "create_speculative_config",
                          "return SpeculativeConfig(**self.speculative_config)"],
    "CompilationConfig": ["vllm/engine/arg_utils.py", 2905, "create_engine_config",
                          "compilation_config = CompilationConfig(**self.compilation_config)"],
}
_DEFAULT_FRAME = ["vllm/engine/arg_utils.py", 2883, "create_engine_config", "config = VllmConfig("]


def _bound_error(rule: dict[str, Any], value: Any) -> ValidationError | None:
    for key, word in (("gt", "greater than"), ("ge", "greater than or equal to"), ("lt", "less than"),
                      ("le", "less than or equal to")):
        bound = rule.get(key)
        if bound is None:
            continue
        ok = {"gt": value > bound, "ge": value >= bound, "lt": value < bound, "le": value <= bound}[key]
        if not ok:
            kind = {"gt": "greater_than", "ge": "greater_than_equal", "lt": "less_than", "le": "less_than_equal"}[key]
            shown = rule.get("shown", rule["field"])
            return field_error(rule["config"], shown, f"Input should be {word} {bound}", kind, value)
    return None


def _json_object(config: str, value: Any, keys: list[str]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise_at(_CONFIG_FRAME.get(config, _DEFAULT_FRAME),
                 field_error(config, "__root__", "Input should be a valid dictionary", "dict_type", value))
    unknown = [k for k in value if k not in keys]
    if unknown:
        raise_at(_CONFIG_FRAME.get(config, _DEFAULT_FRAME),
                 field_error(config, unknown[0], "Unexpected keyword argument", "unexpected_keyword_argument",
                             value[unknown[0]]))
    return dict(value)


def resolve(ns: argparse.Namespace) -> dict[str, Any]:
    """What the engine config would hold, after the checks vLLM runs while creating it (raises the
    first failing one)."""
    names: dict[str, Any] = dict(vars(ns))
    for check in RULES["serve_checks"]:
        if holds(check["when"], names):
            raise_at(check["frame"], TypeError(check["message"]))
    model = model_facts(names.get("model"))
    names.update(
        heads=int(model["num_attention_heads"]), kv_heads=int(model["num_key_value_heads"]),
        layers=int(model["num_hidden_layers"]), head_dim=int(model["head_dim"]),
        derived_max_len=int(model["max_position_embeddings"]), weights_gb=float(model["weights_gb"]),
        spec_needs_model=RULES["spec_needs_model"],
    )
    spec = _json_object("SpeculativeConfig", names.get("speculative_config"), FLAGS["speculative-config"]["keys"])
    _json_object("CompilationConfig", names.get("compilation_config"), FLAGS["compilation-config"]["keys"])
    names["spec"] = bool(spec)
    for key in ("method", "model", "num_speculative_tokens"):
        names[f"spec_{key}"] = spec.get(key)
    if spec and names["spec_method"] is not None and names["spec_method"] not in RULES["spec_methods"]:
        allowed = ", ".join(repr(m) for m in RULES["spec_methods"][:-1]) + f" or {RULES['spec_methods'][-1]!r}"
        raise_at(_CONFIG_FRAME["SpeculativeConfig"],
                 field_error("SpeculativeConfig", "method", f"Input should be {allowed}", "literal_error",
                             names["spec_method"]))
    if names.get("max_model_len") is None:
        names["max_model_len"] = names["derived_max_len"]
        ask_len = None
    else:
        ask_len = names["max_model_len"]
    names["max_num_batched_tokens"] = names.get("max_num_batched_tokens") or 8192
    names["max_num_seqs"] = names.get("max_num_seqs") or 256
    names["gpu_memory_utilization"] = 0.92 if names.get("gpu_memory_utilization") is None else \
        names["gpu_memory_utilization"]
    for rule in RULES["fields"]:
        value = names.get(rule["field"])
        if value is None:
            continue
        error = _bound_error(rule, value)
        if error is not None:
            raise_at(_CONFIG_FRAME.get(rule["config"], _DEFAULT_FRAME), error)
    for check in RULES["checks"]:
        shown = {**names, "max_model_len": ask_len if ask_len is not None else names["max_model_len"]}
        if check["config"] == "ModelConfig" and ask_len is None:
            continue
        if holds(check["when"], shown):
            raise_at(check["frame"], model_error(check["config"], check["message"].format(**shown)))
    return names
