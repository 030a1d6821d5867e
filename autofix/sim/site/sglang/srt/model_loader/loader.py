"""Model loaders (simulated: allocate one rank's weights, then 'read' the shards)."""

import logging
import math
import sys
import time

from sglang.srt._sim import faults
from sglang.srt._sim import models as sim_models
from sglang.srt._sim import torch_sim as torch
from sglang.srt._sim.foreign import exception_class, hidden
from sglang.srt.models.registry import ModelRegistry

logger = logging.getLogger(__name__)

SafetensorError = exception_class("safetensors_rust", "SafetensorError", Exception)


class SimBudget:
    """Tensor shapes of one rank, chosen so the weights add up to the model's size."""

    def __init__(self, model_config, tp_size):
        cfg = model_config._raw
        self.tp_size = max(1, tp_size)
        self.hidden = int(cfg.get("hidden_size", 4096))
        self.vocab = int(cfg.get("vocab_size", 32000))
        self.num_layers = max(1, int(cfg.get("num_hidden_layers", 1)))
        self.num_experts = int(cfg.get("n_routed_experts") or cfg.get("num_experts") or 0)
        self.first_dense = int(cfg.get("first_k_dense_replace") or 0)
        self.moe_intermediate_size = int(cfg.get("moe_intermediate_size") or cfg.get("intermediate_size", 4096))
        total = sim_models.weight_bytes(model_config.model_path)
        self.rank_bytes = total / self.tp_size
        embed_bytes = 2 * (self.vocab // self.tp_size) * self.hidden * 2
        self.layer_bytes = max(1.0, (self.rank_bytes - embed_bytes) / self.num_layers)
        natural_moe = max(1, self.num_experts) * 3 * self.hidden * (self.moe_intermediate_size // self.tp_size or 1) * 2
        self.bytes_per_param = 2.0 * self.layer_bytes / natural_moe
        self.dense_intermediate_size = max(1, int(self.layer_bytes * self.tp_size / (4 * self.hidden)))

    def is_moe_layer(self, layer_id):
        return self.num_experts > 0 and layer_id >= self.first_dense


class LoadConfig:
    def __init__(self, load_format="auto", download_dir=None):
        self.load_format = load_format
        self.download_dir = download_dir


def _initialize_model(model_config, load_config, sim_budget):
    """Initialize a model with the given configurations."""
    model_class, _ = ModelRegistry.resolve_model_cls(model_config.hf_config.architectures)
    return model_class(
        config=model_config.hf_config,
        quant_config=None,
        sim_budget=sim_budget,
    )


class DefaultModelLoader:
    """Model loader that can load different file types from disk."""

    def __init__(self, load_config):
        self.load_config = load_config

    def load_model(self, *, model_config, device_config, tp_size, load_seconds, show_progress):
        target_device = device_config
        sim_budget = SimBudget(model_config, tp_size)
        with torch.device(target_device):
            model = _initialize_model(
                model_config,
                self.load_config,
                sim_budget,
            )

        self.load_weights_and_postprocess(
            model, model_config, load_seconds, show_progress
        )
        return model

    @staticmethod
    def load_weights_and_postprocess(model, model_config, load_seconds, show_progress):
        total = sim_models.weight_bytes(model_config.model_path)
        shards = max(1, math.ceil(total / 9.3e9))
        marks = sorted({0, shards // 4, shards // 2, (3 * shards) // 4, shards})
        start = time.perf_counter()
        done = 0
        halfway = False
        for mark in marks:
            if mark > done:
                time.sleep(load_seconds * (mark - done) / shards)
                done = mark
            if show_progress:
                elapsed = time.perf_counter() - start
                rate = done / elapsed if elapsed > 0 and done else 0.0
                remaining = (shards - done) / rate if rate else 0.0
                rate_s = f"{rate:5.2f}it/s" if done else "?it/s"
                eta = (
                    f"{int(elapsed // 60):02d}:{int(elapsed % 60):02d}<"
                    f"{int(remaining // 60):02d}:{int(remaining % 60):02d}"
                    if done
                    else "00:00<?"
                )
                sys.stderr.write(
                    f"\rLoading safetensors checkpoint shards: {100 * done // shards:3d}% Completed | "
                    f"{done}/{shards} [{eta}, {rate_s}]\n"
                )
                sys.stderr.flush()
            if done >= shards // 2 and not halfway:
                halfway = True
                _fault_halfway(model_config, done + 1, shards)


def _fault_halfway(model_config, shard, shards):
    """AUTOFIX_SIM_FAULT: hang-load stops here for good, crash-load meets a torn shard."""
    if faults.active("hang-load"):
        faults.stall()
    if faults.active("crash-load"):
        name = f"model-{shard:05d}-of-{shards:05d}.safetensors"
        for _ in _safetensors_weights_iterator([f"{model_config.model_path}/{name}"]):
            pass


def _safetensors_weights_iterator(hf_weights_files):
    """Iterate over the weights in the model safetensor files."""
    for st_file in hf_weights_files:
        with _safe_open(st_file, framework="pt") as f:
            for name in f.keys():  # noqa: SIM118
                yield name, f.get_tensor(name)


@hidden
def _safe_open(filename, framework="pt"):
    # SIMULATOR: a shard cut short (an interrupted download): its header does not parse.
    raise SafetensorError("Error while deserializing header: MetadataIncompleteBuffer")


def get_model_loader(load_config):
    return DefaultModelLoader(load_config)
