"""The HTTP server entry point (SIMULATOR): ``launch_server`` shows as SGLang's own frame."""

from sglang.srt._sim import frames, launch, rules

launch_server = frames.function(rules.entry("launch"), launch.start, launch.serve)

__all__ = ["launch_server"]
