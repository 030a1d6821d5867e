"""Compatibility re-exports of the HF config helpers."""

from sglang.srt.utils.hf_transformers.config import get_config  # noqa: F401
