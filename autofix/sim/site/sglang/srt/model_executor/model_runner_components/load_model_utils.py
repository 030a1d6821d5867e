"""Model loading helpers of the model runner (simulated subset)."""

from dataclasses import dataclass
from typing import Any

from sglang.srt.model_loader import get_model


@dataclass
class LoadedModel:
    model: Any
    loader: Any = None
    startup_weight_load: Any = None


def load_model_with_memory_saver(
    *,
    model_config,
    load_config,
    device: str,
    gpu_id: int,
    tp_size: int,
    load_seconds: float,
    show_progress: bool,
    is_draft_worker: bool = False,
) -> LoadedModel:
    model = get_model(
        model_config=model_config,
        load_config=load_config,
        device_config=f"{device}:{gpu_id}",
        tp_size=tp_size,
        load_seconds=load_seconds,
        show_progress=show_progress,
    )
    return LoadedModel(model=model)
