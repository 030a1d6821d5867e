"""Unquantized linear / MoE weight creation (simulated)."""

from sglang.srt._sim import torch_sim as torch


class UnquantizedLinearMethod:
    """Linear method without quantization."""

    def create_weights(
        self,
        layer,
        input_size_per_partition: int,
        output_partition_sizes,
        input_size: int,
        output_size: int,
        params_dtype,
        **extra_weight_attrs,
    ):
        weight = torch.empty(
            sum(output_partition_sizes),
            input_size_per_partition,
            dtype=params_dtype,
        )
        layer.weight = weight


class UnquantizedFusedMoEMethod:
    """MoE method without quantization."""

    def create_weights(
        self,
        layer,
        num_experts: int,
        hidden_size: int,
        intermediate_size_per_partition: int,
        params_dtype,
        bytes_per_param: float = 2.0,
        **extra_weight_attrs,
    ):
        # Fused gate_up_proj (column parallel)
        w13_weight = torch.empty(
            num_experts,
            2 * intermediate_size_per_partition,
            int(hidden_size * bytes_per_param / 2),
            dtype=params_dtype,
        )
        layer.w13_weight = w13_weight

        # down_proj (row parallel)
        w2_weight = torch.empty(
            num_experts,
            hidden_size,
            int(intermediate_size_per_partition * bytes_per_param / 2),
            dtype=params_dtype,
        )
        layer.w2_weight = w2_weight
