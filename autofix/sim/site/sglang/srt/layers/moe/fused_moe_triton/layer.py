"""FusedMoE layer (simulated: allocates the expert weights of one rank)."""

from sglang.srt.layers.quantization.unquant import UnquantizedFusedMoEMethod


class FusedMoE:
    def __init__(
        self,
        num_experts: int,
        hidden_size: int,
        intermediate_size: int,
        layer_id: int,
        top_k: int = 8,
        tp_size: int = 1,
        params_dtype="bfloat16",
        bytes_per_param: float = 2.0,
        prefix: str = "",
    ):
        self.layer_id = layer_id
        self.num_experts = num_experts
        self.intermediate_size_per_partition = max(1, intermediate_size // tp_size)
        self.quant_method = UnquantizedFusedMoEMethod()
        self.quant_method.create_weights(
            layer=self,
            num_experts=num_experts,
            hidden_size=hidden_size,
            intermediate_size_per_partition=self.intermediate_size_per_partition,
            params_dtype=params_dtype,
            bytes_per_param=bytes_per_param,
        )
