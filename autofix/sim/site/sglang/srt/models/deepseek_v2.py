"""Inference-only DeepseekV2/V3 model (simulated: builds one rank's weights)."""

from sglang.srt.layers.linear import (
    MergedColumnParallelLinear,
    ParallelLMHead,
    VocabParallelEmbedding,
)
from sglang.srt.layers.moe.fused_moe_triton.layer import FusedMoE
from sglang.srt.utils.common import add_prefix, make_layers


class DeepseekV2MLP:
    def __init__(self, hidden_size, intermediate_size, tp_size, prefix=""):
        self.gate_up_proj = MergedColumnParallelLinear(
            hidden_size,
            [intermediate_size] * 2,
            bias=False,
            tp_size=tp_size,
            prefix=add_prefix("gate_up_proj", prefix),
        )


class DeepseekV2MoE:
    def __init__(self, config, layer_id, sim_budget, prefix=""):
        self.experts = FusedMoE(
            num_experts=sim_budget.num_experts,
            hidden_size=config.hidden_size,
            intermediate_size=sim_budget.moe_intermediate_size,
            layer_id=layer_id,
            top_k=getattr(config, "num_experts_per_tok", 8),
            tp_size=sim_budget.tp_size,
            bytes_per_param=sim_budget.bytes_per_param,
            prefix=add_prefix("experts", prefix),
        )


class DeepseekV2DecoderLayer:
    def __init__(self, config, layer_id, sim_budget, prefix=""):
        self.layer_id = layer_id
        if sim_budget.is_moe_layer(layer_id):
            self.mlp = DeepseekV2MoE(
                config=config,
                layer_id=layer_id,
                sim_budget=sim_budget,
                prefix=add_prefix("mlp", prefix),
            )
        else:
            self.mlp = DeepseekV2MLP(
                hidden_size=config.hidden_size,
                intermediate_size=sim_budget.dense_intermediate_size,
                tp_size=sim_budget.tp_size,
                prefix=add_prefix("mlp", prefix),
            )


class DeepseekV2Model:
    def __init__(self, config, sim_budget, prefix=""):
        self.embed_tokens = VocabParallelEmbedding(
            config.vocab_size,
            config.hidden_size,
            tp_size=sim_budget.tp_size,
        )
        self.layers = make_layers(
            config.num_hidden_layers,
            lambda idx, prefix: DeepseekV2DecoderLayer(
                config=config,
                layer_id=idx,
                sim_budget=sim_budget,
                prefix=prefix,
            ),
            prefix=add_prefix("layers", prefix),
        )


class DeepseekV2ForCausalLM:
    def __init__(self, config, quant_config=None, sim_budget=None, prefix=""):
        self.config = config
        self.model = DeepseekV2Model(
            config, sim_budget, prefix=add_prefix("model", prefix)
        )
        self.lm_head = ParallelLMHead(
            config.vocab_size,
            config.hidden_size,
            tp_size=sim_budget.tp_size,
            prefix=add_prefix("lm_head", prefix),
        )


class DeepseekV3ForCausalLM(DeepseekV2ForCausalLM):
    pass


EntryClass = [DeepseekV2ForCausalLM, DeepseekV3ForCausalLM]
