"""Tensor-parallel linear layers (simulated: allocate one rank's shard)."""

from sglang.srt.layers.quantization.unquant import UnquantizedLinearMethod


class MergedColumnParallelLinear:
    def __init__(
        self,
        input_size: int,
        output_sizes,
        bias: bool = False,
        tp_size: int = 1,
        params_dtype="bfloat16",
        prefix: str = "",
    ):
        self.input_size = input_size
        self.output_partition_sizes = [max(1, s // tp_size) for s in output_sizes]
        self.quant_method = UnquantizedLinearMethod()
        self.quant_method.create_weights(
            self,
            self.input_size,
            self.output_partition_sizes,
            self.input_size,
            sum(output_sizes),
            params_dtype,
        )


class VocabParallelEmbedding:
    def __init__(self, num_embeddings: int, embedding_dim: int, tp_size: int = 1, prefix: str = ""):
        from sglang.srt._sim import torch_sim as torch

        self.weight = torch.empty(
            max(1, num_embeddings // tp_size), embedding_dim, dtype="bfloat16"
        )


ParallelLMHead = VocabParallelEmbedding
