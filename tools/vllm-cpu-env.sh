#!/usr/bin/env bash
# Builds (once) a CPU-only Python environment in which vLLM's REAL argument parsing and
# engine-config creation run: the `vllm serve` parser, then
# EngineArgs.from_cli_args(args).create_engine_config(). No GPU, no kernels, no weights:
# a model directory holding only config.json is enough. VLLM_TARGET_DEVICE=cpu must be
# in the environment of whatever runs it (without it vLLM finds no platform and every
# config fails with "Device string must not be empty").
#
#   usage: vllm-cpu-env.sh [VENV_DIR]          prints the venv's python path last
#   default VENV_DIR: ${XDG_CACHE_HOME:-$HOME/.cache}/autofix/vllm-$VLLM_VERSION-cpu
#
# vLLM from PyPI with all its requirements is about 9.5 GB here, most of it CUDA
# libraries. This env takes the CPU build of torch that lies on this machine's disk
# (torch==2.13.0+cpu; vLLM 0.33.0 asks for 2.14.0, whose wheel is a CUDA build), vLLM
# itself with --no-deps, and the pure-Python part of its requirements: enough to import
# vLLM and run its argument validation. Its compiled kernels (vllm._C) do not load
# against this torch; the argument validation does not need them. About 2.5 GB and
# 2 minutes the first time; a no-op when the venv is ready.
set -euo pipefail
VLLM_VERSION=${VLLM_VERSION:-0.33.0}
VENV=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/autofix/vllm-$VLLM_VERSION-cpu}
PY="$VENV/bin/python"
check() { VLLM_TARGET_DEVICE=cpu "$PY" -c "import vllm.engine.arg_utils, vllm.entrypoints.common.cli_args, vllm.v1.engine.async_llm" ; }
if [ -x "$PY" ] && check >/dev/null 2>&1; then
  echo "$PY"; exit 0
fi
mkdir -p "$(dirname "$VENV")"
python3 -m venv "$VENV"
PIP=("$VENV/bin/pip" install -q --disable-pip-version-check)
{
  "${PIP[@]}" torch==2.13.0
  "${PIP[@]}" --no-deps "vllm==$VLLM_VERSION"
  # Requirements that pull CUDA or compiler stacks (xgrammar -> triton) without need for
  # argument validation: themselves only.
  "${PIP[@]}" --no-deps "xgrammar==0.2.8" "compressed-tensors==0.17.0" "depyf==0.20.0" "apache-tvm-ffi==0.1.11"
  "${PIP[@]}" regex cachetools psutil sentencepiece numpy "requests>=2.33.0" tqdm blake3 py-cpuinfo \
    "transformers<5.21.0,>=5.16.1" "huggingface_hub>=1.31.0" "tokenizers>=0.23.2" safetensors protobuf \
    "fastapi[standard]<0.137.0,>=0.133.0" "starlette>=1.0.1" "aiohttp>=3.14.4" "openai>=2.25.0" \
    "pydantic>=2.12.0" orjson "prometheus_client>=0.18.0" pillow prometheus-fastapi-instrumentator \
    "tiktoken>=0.6.0" "lm-format-enforcer==0.11.3" "llguidance<1.8.0,>=1.7.0" "outlines_core==0.2.14" \
    "lark==1.2.2" typing_extensions filelock partial-json-parser jsonschema "pyzmq>=25.0.0" msgspec \
    "mistral_common>=1.11.6" pyyaml einops cloudpickle watchfiles python-json-logger ninja pybase64 \
    cbor2 ijson setproctitle "oss-harmony>=0.0.11" "anthropic>=0.71.0" loguru \
    "model-hosting-container-standards<1.0.0,>=0.1.14" "mcp<3.0.0,>=2.2.0" uvloop astor dill
} 2>&1 | grep -vE "^WARNING: Location|requires .* which is not installed|but you have .* which is incompatible|dependency resolver|dependency conflicts" || true
check >&2
echo "$PY"
