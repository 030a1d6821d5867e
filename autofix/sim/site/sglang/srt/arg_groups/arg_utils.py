"""Field helpers for ServerArgs records (simulated subset)."""

from typing import Any

# Fields whose effective value, when unset, is a declared fallback.
_FALLBACKS = {
    "swa_full_tokens_ratio": 0.8,
}


class _Field:
    __slots__ = ("name", "default")

    def __init__(self, name, default):
        self.name = name
        self.default = default


def is_record(obj: Any) -> bool:
    return hasattr(type(obj), "_FIELDS")


def record_fields(cls):
    return [_Field(name, default) for name, default in cls._FIELDS.items()]


def field_names(cls):
    return set(cls._FIELDS)


def with_fallback(cls, field: str, value: Any) -> Any:
    if value is None and field in _FALLBACKS:
        return _FALLBACKS[field]
    return value
