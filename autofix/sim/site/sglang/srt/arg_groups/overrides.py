"""The resolved configuration view (SIMULATOR): what resolution decided over the raw record."""

from sglang.srt._sim.rules import view_of as resolved_view

__all__ = ["resolved_view"]
