"""Launch the inference server (SIMULATOR: autofix/sim). Its statements stand at the lines
SGLang 0.5.23's tracebacks and warnings print for this file (29, 67, 71, 84)."""

import os
import sys
import warnings

from sglang.srt._sim.procs import kill_tree
from sglang.srt._sim.rules import view_of
from sglang.srt.entrypoints.http_server import launch_server
from sglang.srt.server_args import prepare_server_args





def run_server(server_args):
    """Resolve, then serve HTTP: the simulated host runs the default mode only."""
    # The gRPC modes read the raw tokenizer path; the sim has none of them (below), so
    # nothing needs it before resolution. The lines up to the call keep the real numbering.








    server_args.resolve_once()
    view = view_of(server_args)
    if view.encoder_only or view.smg_grpc_mode or view.use_ray:
        raise NotImplementedError(
            "The SGLang simulator serves the default HTTP mode only "
            "(no --encoder-only, --smg-grpc-mode or --use-ray)."
        )
    # Default mode: HTTP mode.






























    launch_server(server_args)


if __name__ == "__main__":
    warnings.warn(
        "'python -m sglang.launch_server' is still supported, but "
        "'sglang serve' is the recommended entrypoint.\n"
        "  Example: sglang serve --model-path <model> [options]",
        UserWarning,
        stacklevel=1,
    )


    argv = sys.argv[1:]
    server_args = prepare_server_args(argv)

    try:
        run_server(server_args)
    finally:
        kill_tree(os.getpid(), include_parent=False)
