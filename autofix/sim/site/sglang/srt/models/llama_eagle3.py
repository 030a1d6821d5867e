"""EAGLE-3 draft model on a LLaMA layer (simulated)."""

from sglang.srt.models.llama import LlamaForCausalLM


class LlamaForCausalLMEagle3(LlamaForCausalLM):
    pass


class LlamaForCausalLMEagle(LlamaForCausalLM):
    pass


EntryClass = [LlamaForCausalLMEagle3, LlamaForCausalLMEagle]
