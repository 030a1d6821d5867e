"""Simulated vLLM: the serve parser's class."""

from vllm._sim.engine import FlexibleArgumentParser

__all__ = ["FlexibleArgumentParser"]
