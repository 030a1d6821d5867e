from sglang.srt.model_loader.loader import LoadConfig, get_model_loader


def get_model(*, model_config, load_config, device_config, tp_size, load_seconds, show_progress):
    loader = get_model_loader(load_config)
    return loader.load_model(
        model_config=model_config,
        device_config=device_config,
        tp_size=tp_size,
        load_seconds=load_seconds,
        show_progress=show_progress,
    )


__all__ = ["LoadConfig", "get_model"]
