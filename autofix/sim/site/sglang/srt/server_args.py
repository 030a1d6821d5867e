"""Server arguments (SIMULATOR): the real entry points, backed by autofix's rules engine."""

from sglang.srt._sim.args import ServerArgs, prepare_server_args

__all__ = ["ServerArgs", "prepare_server_args"]
