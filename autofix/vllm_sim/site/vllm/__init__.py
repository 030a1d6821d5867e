"""A simulated vLLM (autofix's own, for the sim host): not vLLM. See autofix/vllm_sim/README.md."""

__version__ = "0.33.0"
SIMULATED = True
