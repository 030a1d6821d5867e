"""Model architecture -> class (simulated registry)."""

import importlib

_MODELS = {
    "DeepseekV2ForCausalLM": ("deepseek_v2", "DeepseekV2ForCausalLM"),
    "DeepseekV3ForCausalLM": ("deepseek_v2", "DeepseekV3ForCausalLM"),
    "DeepseekV32ForCausalLM": ("deepseek_v2", "DeepseekV3ForCausalLM"),
    "KimiK25ForConditionalGeneration": ("deepseek_v2", "DeepseekV3ForCausalLM"),
    "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),
    "LlamaForCausalLMEagle3": ("llama_eagle3", "LlamaForCausalLMEagle3"),
    "LlamaForCausalLMEagle": ("llama_eagle3", "LlamaForCausalLMEagle"),
}


class _ModelRegistry:
    def resolve_model_cls(self, architectures):
        for arch in architectures:
            if arch in _MODELS:
                module, name = _MODELS[arch]
                mod = importlib.import_module(f"sglang.srt.models.{module}")
                return getattr(mod, name), arch
        # Any other decoder-only architecture: a dense stand-in under its own name.
        from sglang.srt.models.llama import LlamaForCausalLM

        arch = architectures[0]
        cls = type(arch, (LlamaForCausalLM,), {"__module__": "sglang.srt.models.generic"})
        return cls, arch


ModelRegistry = _ModelRegistry()
