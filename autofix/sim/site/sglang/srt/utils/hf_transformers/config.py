"""HF config loading (simulated subset of sglang/srt/utils/hf_transformers/config.py)."""

from types import SimpleNamespace
from typing import Optional

from sglang.srt._sim.hf import PretrainedConfig
from sglang.srt.utils.common import lru_cache_frozenset

_LONGCAT_ARCHITECTURES = ("LongcatFlashForCausalLM", "LongcatFlashNgramForCausalLM")


class HFConfig(SimpleNamespace):
    """An HF config: the config.json keys as attributes."""

    def to_dict(self):
        return dict(vars(self))


def _try_load_longcat_config(model: str, revision: Optional[str], **kwargs):
    """LongCat checkpoints ship a config the auto classes cannot read; read the dict."""
    config_dict, _ = PretrainedConfig.get_config_dict(
        model, revision=revision, **kwargs
    )
    return HFConfig(**config_dict)


class HFModelConfigParser:
    name = "hf"

    def parse(self, model, trust_remote_code=False, revision=None, **kwargs):
        kwargs.pop("model_config_parser", None)



        config = _try_load_longcat_config(model, revision, **kwargs)
        return config


class MistralModelConfigParser(HFModelConfigParser):
    name = "mistral"


def get_model_config_parser(name):
    if name == "mistral":
        return MistralModelConfigParser()
    return HFModelConfigParser()


def is_mistral_model(model) -> bool:
    return False


@lru_cache_frozenset(maxsize=32)
def get_config(
    model: str,
    trust_remote_code: bool,
    revision: Optional[str] = None,
    model_override_args: Optional[dict] = None,
    model_config_parser: str = "auto",
    **kwargs,
):
    if model_config_parser == "auto":
        # `model` is post-rewrite (gguf parent / runai uri / remote pull).
        model_config_parser = "mistral" if is_mistral_model(model) else "hf"

    parser = get_model_config_parser(model_config_parser)
    try:
        config = parser.parse(
            model, trust_remote_code=trust_remote_code, revision=revision, **kwargs
        )
    except (OSError, ValueError):
        # A Kev LoRA checkpoint has no model config. It serves the text backbone
        # of the base its head.pt pins.
        from sglang.srt.configs.model_config import load_pointer_adapter

        meta = load_pointer_adapter(model, revision)
        if meta is None:
            raise
        base = parser.parse(
            meta["base"],
            trust_remote_code=trust_remote_code,
            revision=meta["base_revision"],
            **kwargs,
        )
        config = base
    if model_override_args:
        for key, value in model_override_args.items():
            setattr(config, key, value)
    return config
