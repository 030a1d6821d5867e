# SPDX-License-Identifier: Apache-2.0
"""Muse Spark environment defaults."""

from typing import Any

from sglang.srt.arg_groups.overrides import resolving_view
from sglang.srt.utils.common import ConnectorType, parse_connector_type
from sglang.srt.utils.hf_transformers_utils import get_config

MUSE_SPARK_ARCHITECTURES = ("MuseSparkForConditionalGeneration",)


def _muse_spark_arch_of(hf_config: Any):
    architectures = getattr(hf_config, "architectures", None) or []
    arch = architectures[0] if architectures else ""
    return arch if arch in MUSE_SPARK_ARCHITECTURES else None


def apply_muse_spark_env_defaults(server_args: Any) -> None:
    """Muse Spark environment defaults; an explicit value in the environment wins.

    Runs before handle_gpu_memory_settings, whose mem-fraction heuristic reads
    the post-capture switch.
    """
    cfg = resolving_view(server_args)
    if parse_connector_type(cfg.model_path) == ConnectorType.INSTANCE:
        return
    hf_config = get_config(
        cfg.model_path,
        trust_remote_code=cfg.trust_remote_code,
        revision=cfg.revision,
        model_config_parser=cfg.model_config_parser,
    )
    arch = _muse_spark_arch_of(hf_config)
    if arch is None:
        return
