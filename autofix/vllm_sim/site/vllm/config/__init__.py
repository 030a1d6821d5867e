"""Simulated vLLM: the config classes whose JSON keys the probe reads (fields from flags.json)."""

from vllm._sim.engine import FLAGS


def _config_class(name, flag):
    return type(name, (), {"model_fields": {k: None for k in FLAGS[flag].get("keys", [])}})


SpeculativeConfig = _config_class("SpeculativeConfig", "speculative-config")
CompilationConfig = _config_class("CompilationConfig", "compilation-config")
