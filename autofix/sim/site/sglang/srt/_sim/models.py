"""Which model directories the simulated host has, and how big their weights are.

Built in (matched by path, they need not exist on this machine):
    /models/Kimi-K2.6          DeepseekV3ForCausalLM (MLA, 61 layers, hidden 7168), ~595 GB
    /models/Kimi-K2.6-EAGLE3   LlamaForCausalLMEagle3 (1 layer, hidden 7168), ~6 GB
Any real directory with a config.json is a model too; its size is estimated from the config
(a config identical to a built-in one takes the built-in size). Anything else does not exist.
"""

import json
import os

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

BUILTIN = {
    "/models/Kimi-K2.6": {"config": "kimi-k2.6.config.json", "weight_bytes": 595e9},
    "/models/Kimi-K2.6-EAGLE3": {"config": "kimi-k2.6-eagle3.config.json", "weight_bytes": 6.0e9},
}

_cache = {}


def _norm(path):
    path = str(path)
    return path.rstrip("/") if len(path) > 1 else path


def _load_builtin_config(name):
    with open(os.path.join(_DATA, name)) as f:
        return json.load(f)


def builtin(path):
    return BUILTIN.get(_norm(path))


def virtual_files(path):
    """Files of a built-in model directory (name -> text), or None."""
    entry = builtin(path)
    if entry is None:
        return None
    with open(os.path.join(_DATA, entry["config"])) as f:
        return {"config.json": f.read()}


def exists_dir(path):
    return builtin(path) is not None or os.path.isdir(str(path))


def read_config(path):
    """The config.json of a model path as a dict, or None if there is none."""
    files = virtual_files(path)
    if files is not None:
        return json.loads(files["config.json"])
    cfg_path = os.path.join(str(path), "config.json")
    if os.path.isfile(cfg_path):
        with open(cfg_path) as f:
            return json.load(f)
    return None


def _bytes_per_param(cfg):
    quant = cfg.get("quantization_config") or {}
    method = str(quant.get("quant_method", "")).lower()
    if method in ("fp8", "modelopt", "modelopt_fp8", "w8a8_fp8", "fbgemm_fp8"):
        return 1.0
    if method in ("awq", "gptq", "compressed-tensors", "mxfp4", "modelopt_fp4", "nvfp4"):
        return 0.55
    dtype = str(cfg.get("torch_dtype") or cfg.get("dtype") or "bfloat16")
    return 4.0 if dtype in ("float32", "float") else 2.0


def estimate_params(cfg):
    h = int(cfg.get("hidden_size", 4096))
    layers = int(cfg.get("num_hidden_layers", 32))
    vocab = int(cfg.get("vocab_size", 32000))
    heads = int(cfg.get("num_attention_heads", max(1, h // 128)))
    kv_heads = int(cfg.get("num_key_value_heads", heads) or heads)
    head_dim = int(cfg.get("head_dim") or (h // heads))
    inter = int(cfg.get("intermediate_size", 4 * h))
    params = vocab * h * (1 if cfg.get("tie_word_embeddings") else 2)
    if cfg.get("kv_lora_rank"):
        q_lora = int(cfg.get("q_lora_rank") or 0)
        kv_lora = int(cfg["kv_lora_rank"])
        nope = int(cfg.get("qk_nope_head_dim", 128))
        rope = int(cfg.get("qk_rope_head_dim", 64))
        v = int(cfg.get("v_head_dim", 128))
        q = (h * q_lora + q_lora * heads * (nope + rope)) if q_lora else h * heads * (nope + rope)
        attn = q + h * (kv_lora + rope) + kv_lora * heads * (nope + v) + heads * v * h
    else:
        attn = h * heads * head_dim + 2 * h * kv_heads * head_dim + heads * head_dim * h
    experts = int(cfg.get("n_routed_experts") or cfg.get("num_experts") or 0)
    if experts:
        moe_inter = int(cfg.get("moe_intermediate_size", inter))
        shared = int(cfg.get("n_shared_experts") or 0)
        shared_inter = int(cfg.get("shared_expert_intermediate_size") or 0)
        dense_layers = int(cfg.get("first_k_dense_replace") or 0)
        moe = experts * 3 * h * moe_inter + shared * 3 * h * moe_inter + 3 * h * shared_inter
        mlp_total = dense_layers * 3 * h * inter + (layers - dense_layers) * moe
    else:
        mlp_total = layers * 3 * h * inter
    return params + layers * attn + mlp_total


def weight_bytes(path):
    key = _norm(path)
    if key in _cache:
        return _cache[key]
    entry = builtin(key)
    if entry is not None:
        size = entry["weight_bytes"]
    else:
        cfg = read_config(key) or {}
        size = None
        for b in BUILTIN.values():
            if cfg and cfg == _load_builtin_config(b["config"]):
                size = b["weight_bytes"]
        if size is None:
            size = estimate_params(cfg) * _bytes_per_param(cfg)
    _cache[key] = size
    return size


def kv_bytes_per_token(cfg, tp_size, kv_dtype_bytes=2):
    """KV cache bytes per token on one rank."""
    layers = int(cfg.get("num_hidden_layers", 32))
    if cfg.get("kv_lora_rank"):
        per_layer = (int(cfg["kv_lora_rank"]) + int(cfg.get("qk_rope_head_dim", 64))) * kv_dtype_bytes
    else:
        h = int(cfg.get("hidden_size", 4096))
        heads = int(cfg.get("num_attention_heads", max(1, h // 128)))
        kv_heads = int(cfg.get("num_key_value_heads", heads) or heads)
        head_dim = int(cfg.get("head_dim") or (h // heads))
        kv_per_rank = max(1, kv_heads // max(1, tp_size))
        per_layer = 2 * kv_per_rank * head_dim * kv_dtype_bytes
    return per_layer * layers
