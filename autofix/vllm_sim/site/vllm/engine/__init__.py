"""Simulated vLLM (autofix): module path kept so the probe and the launch command run unchanged."""
