"""Config-time override declarations for deepseek_v2."""

import logging
from typing import Any, Dict

from sglang.srt._sim import host
from sglang.srt.arg_groups.model_override_base import (
    _register_for,
    resolving_view,
)
from sglang.srt.runtime_context import get_platform

logger = logging.getLogger(__name__)


def _sim_trtllm_mla_default():
    # SIMULATOR DEVIATION (documented in autofix/sim): real 0.5.23 fills trtllm_mla
    # for DeepseekV3 only on SM100 and falls back to triton on SM120 (RTX PRO 6000).
    # The simulated host models the deployment in the seed story, where K2.6 ran on
    # trtllm_mla with page size 64; AUTOFIX_SIM_STRICT_SM120=1 restores the real rule.
    return get_platform().is_sm100 or (
        get_platform().is_blackwell and not host.strict_sm120()
    )


@_register_for(
    "DeepseekV3ForCausalLM",
    "DeepseekV32ForCausalLM",
    "KimiK25ForConditionalGeneration",
    "MistralLarge3ForCausalLM",
    "PixtralForConditionalGeneration",
)
def _deepseek_family_overrides(server_args: Any, hf_config: Any) -> dict:
    """Declare DeepSeek/DSA defaults; ordered CP, KV-cache, and MoE passes run in model_hook."""
    cfg = resolving_view(server_args)

    overrides: Dict[str, Any] = {}
    # DeepSeek V3/R1/V3.1
    if _sim_trtllm_mla_default():
        if (
            cfg.attention_backend is None
            and cfg.prefill_attention_backend is None
            and cfg.decode_attention_backend is None
        ):
            overrides["attention_backend"] = "trtllm_mla"
            logger.info(
                "Use trtllm_mla as attention backend on sm100 for DeepseekV3ForCausalLM"
            )
    return overrides
