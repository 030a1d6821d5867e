"""Inference-only LLaMA model (simulated: builds one rank's weights)."""

from sglang.srt.layers.linear import (
    MergedColumnParallelLinear,
    ParallelLMHead,
    VocabParallelEmbedding,
)
from sglang.srt.utils.common import add_prefix, make_layers


class LlamaMLP:
    def __init__(self, hidden_size, intermediate_size, tp_size, prefix=""):
        self.gate_up_proj = MergedColumnParallelLinear(
            hidden_size,
            [intermediate_size] * 2,
            bias=False,
            tp_size=tp_size,
            prefix=add_prefix("gate_up_proj", prefix),
        )


class LlamaDecoderLayer:
    def __init__(self, config, layer_id, sim_budget, prefix=""):
        self.layer_id = layer_id
        self.mlp = LlamaMLP(
            hidden_size=config.hidden_size,
            intermediate_size=sim_budget.dense_intermediate_size,
            tp_size=sim_budget.tp_size,
            prefix=add_prefix("mlp", prefix),
        )


class LlamaModel:
    def __init__(self, config, sim_budget, prefix=""):
        self.embed_tokens = VocabParallelEmbedding(
            config.vocab_size,
            config.hidden_size,
            tp_size=sim_budget.tp_size,
        )
        self.layers = make_layers(
            config.num_hidden_layers,
            lambda idx, prefix: LlamaDecoderLayer(
                config=config, layer_id=idx, sim_budget=sim_budget, prefix=prefix
            ),
            prefix=add_prefix("layers", prefix),
        )


class LlamaForCausalLM:
    def __init__(self, config, quant_config=None, sim_budget=None, prefix=""):
        self.config = config
        self.model = LlamaModel(config, sim_budget, prefix=add_prefix("model", prefix))
        self.lm_head = ParallelLMHead(
            config.vocab_size,
            config.hidden_size,
            tp_size=sim_budget.tp_size,
            prefix=add_prefix("lm_head", prefix),
        )


EntryClass = LlamaForCausalLM
