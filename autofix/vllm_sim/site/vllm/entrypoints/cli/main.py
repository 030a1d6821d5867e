"""Simulated vLLM: `vllm serve MODEL [flags]` (python -m vllm.entrypoints.cli.main serve ...)."""

import sys


def main():
    argv = sys.argv[1:]
    if not argv or argv[0] != "serve":
        sys.stderr.write("usage: vllm serve [model_tag] [options] (the simulated vLLM knows only serve)\n")
        sys.exit(2)
    from vllm._sim.server import serve

    serve(argv[1:])


if __name__ == "__main__":
    main()
