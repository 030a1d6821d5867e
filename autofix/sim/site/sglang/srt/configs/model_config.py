"""Model configuration (simulated subset of sglang/srt/configs/model_config.py)."""

import enum
import logging
from functools import lru_cache
from typing import Optional

from sglang.srt._sim import models as sim_models
from sglang.srt._sim.hf import cached_file

logger = logging.getLogger(__name__)


class AttentionArch(enum.Enum):
    MLA = enum.auto()
    MHA = enum.auto()


class ModelImpl(str, enum.Enum):
    AUTO = "auto"
    SGLANG = "sglang"
    TRANSFORMERS = "transformers"
    MINDSPORE = "mindspore"


_POINTER_HEAD_DEFAULTS = {
    "base": None,
    "base_revision": None,
    "head_dim": 256,
    "option_isolation": False,
    "special_embeddings": False,
    "weights_dtype": "fp32",
    "temperature": 1.0,
}


@lru_cache
def load_pointer_head(model_path: str, revision: Optional[str]) -> Optional[dict]:
    """head.pt of a Kev checkpoint, whose pointer head answers /v1/systemone
    decisions from the backbone's hidden states."""
    path = cached_file(
        model_path,
        "head.pt",
        revision=revision,
        _raise_exceptions_for_missing_entries=False,
        _raise_exceptions_for_connection_errors=False,
    )
    if path is None:
        return None
    raise ValueError("head.pt checkpoints are not supported by the simulator")


@lru_cache
def load_pointer_adapter(model_path: str, revision: Optional[str]) -> Optional[dict]:
    """head.pt of a Kev LoRA checkpoint with its merge scale. Such a checkpoint has
    no model config and is served as the base backbone its head.pt pins, with the
    adapter merged into the base weights at load."""
    meta = load_pointer_head(model_path, revision)
    if meta is None:
        return None
    return dict(_POINTER_HEAD_DEFAULTS)


class ModelConfig:
    def __init__(self, model_path: str, hf_config, context_length=None, dtype="auto"):
        self.model_path = model_path
        self.hf_config = hf_config
        self.hf_text_config = hf_config
        cfg = hf_config.to_dict()
        self._raw = cfg
        if not getattr(self.hf_config, "architectures", None):
            self.hf_config.architectures = ["LlamaForCausalLM"]
        if not hasattr(self.hf_config, "model_type"):
            self.hf_config.model_type = "llama"
        self.attention_arch = (
            AttentionArch.MLA if cfg.get("kv_lora_rank") else AttentionArch.MHA
        )
        self.hidden_size = int(cfg.get("hidden_size", 4096))
        self.num_hidden_layers = int(cfg.get("num_hidden_layers", 32))
        self.num_attention_heads = int(cfg.get("num_attention_heads", 32))
        self.num_key_value_heads = int(
            cfg.get("num_key_value_heads", self.num_attention_heads)
            or self.num_attention_heads
        )
        self.head_dim = int(cfg.get("head_dim") or self.hidden_size // self.num_attention_heads)
        self.v_head_dim = int(cfg.get("v_head_dim") or self.head_dim)
        self.vocab_size = int(cfg.get("vocab_size", 32000))
        self.context_len = int(
            context_length or cfg.get("max_position_embeddings", 4096)
        )
        self.is_multimodal = False
        self.is_encoder_decoder = False
        self.is_generation = True
        self.is_hybrid_swa = False
        self.has_attention_sinks = False
        self.has_asymmetric_kv = False
        self.attention_chunk_size = None
        self.nvfp4_moe_meta = None
        self.dtype = cfg.get("torch_dtype", "bfloat16")
        self.is_moe = bool(cfg.get("n_routed_experts") or cfg.get("num_experts"))

    @classmethod
    def from_server_args(cls, server_args, model_path: str = None, **kwargs):
        from sglang.srt.arg_groups.overrides import resolving_view
        from sglang.srt.utils.hf_transformers.config import get_config

        cfg = resolving_view(server_args)
        model_path = model_path or cfg.model_path
        hf_config = get_config(
            model_path,
            trust_remote_code=cfg.trust_remote_code,
            revision=cfg.revision,
            model_config_parser=cfg.model_config_parser,
        )
        return cls(model_path, hf_config, context_length=cfg.context_length)

    def get_num_kv_heads(self, tensor_parallel_size, dcp_size=1) -> int:
        if self.attention_arch == AttentionArch.MLA:
            return 1
        return max(1, self.num_key_value_heads // tensor_parallel_size)

    def get_max_num_attention_heads(self):
        return self.num_attention_heads

    def get_quantization_config_log_str(self):
        quant = self._raw.get("quantization_config")
        if not quant:
            return None
        return f"quant={quant.get('quant_method')}"

    @property
    def weight_bytes(self):
        return sim_models.weight_bytes(self.model_path)

    def kv_bytes_per_token(self, tp_size, kv_dtype_bytes=2):
        return sim_models.kv_bytes_per_token(self._raw, tp_size, kv_dtype_bytes)
