"""Simulated vLLM: the `vllm serve` parser and its quick checks (rules.json serve_checks run
later, with the engine config, so that their frames read as vLLM's)."""

from vllm._sim.engine import add_flags


def make_arg_parser(parser):
    parser.add_argument("model_tag", nargs="?", default=None)
    return add_flags(parser)


def validate_parsed_serve_args(args):
    from vllm._sim.engine import RULES, holds, raise_at

    for check in RULES["serve_checks"]:
        if holds(check["when"], dict(vars(args))):
            raise_at(check["frame"], TypeError(check["message"]))
