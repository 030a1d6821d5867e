"""Simulated vLLM: EngineArgs.from_cli_args(args).create_engine_config(), as the probe calls it."""

from vllm._sim.engine import resolve


class _Section:
    def __init__(self, values):
        self.__dict__.update(values)


class _EngineConfig:
    """What a created config answers: every resolved value, under each section's name."""

    def __init__(self, names):
        spec = names.get("speculative_config") or None
        plain = {k: v for k, v in names.items() if not isinstance(v, dict)}
        for section in ("model_config", "cache_config", "parallel_config", "scheduler_config"):
            setattr(self, section, _Section(plain))
        self.speculative_config = _Section(spec) if spec else None
        self.names = names


class EngineArgs:
    def __init__(self, namespace):
        self.namespace = namespace

    @classmethod
    def from_cli_args(cls, args):
        return cls(args)

    def create_engine_config(self, usage_context=None):
        return _EngineConfig(resolve(self.namespace))


class AsyncEngineArgs(EngineArgs):
    pass
