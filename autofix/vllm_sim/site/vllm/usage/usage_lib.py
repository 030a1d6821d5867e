"""Simulated vLLM: where a config is created from."""

import enum


class UsageContext(enum.Enum):
    UNKNOWN_CONTEXT = "UNKNOWN_CONTEXT"
    OPENAI_API_SERVER = "OPENAI_API_SERVER"
