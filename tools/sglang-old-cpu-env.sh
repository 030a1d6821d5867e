#!/usr/bin/env bash
# Builds (once) a CPU-only env for an OLDER SGLang release, where its real argument
# validation runs (prepare_server_args; 0.4.x and early 0.5.x validate in
# ServerArgs.__post_init__). Same recipe as tools/sglang-cpu-env.sh (torch from this
# machine's wheel cache, SGLang without deps, the pure-Python part of its dependency
# list), with the pins of the release, and for releases that import what a CPU-only
# install lacks, two import shims written by us into the venv (see below).
#
#   usage: SGLANG_VERSION=0.4.10.post2 sglang-old-cpu-env.sh [VENV_DIR]   prints the python path last
#   default VENV_DIR: ${XDG_CACHE_HOME:-$HOME/.cache}/autofix/sglang-$SGLANG_VERSION-cpu
#
# Known pins (PINS overrides them):
#   0.5.11        the pins in ../shared/tools/sglang-cpu-env.sh's comment
#   0.4.10.post2  transformers 4.54.1, xgrammar 0.1.22, llguidance 0.7.30, outlines 0.1.11
set -euo pipefail
SGLANG_VERSION=${SGLANG_VERSION:?set SGLANG_VERSION, e.g. 0.4.10.post2}
VENV=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/autofix/sglang-$SGLANG_VERSION-cpu}
PY="$VENV/bin/python"
if [ -x "$PY" ] && "$PY" -c "import sglang.srt.server_args" >/dev/null 2>&1; then
  echo "$PY"; exit 0
fi
case "$SGLANG_VERSION" in
  0.5.11*) DEFAULT_PINS="apache-tvm-ffi==0.1.11 compressed-tensors==0.20.1 llguidance==0.7.30 openai==2.6.1 openai-harmony==0.0.4 outlines==0.1.11 uvicorn>=0.51 xgrammar==0.1.32 transformers==5.6.0" ;;
  0.4.*) DEFAULT_PINS="compressed-tensors==0.10.2 llguidance==0.7.30 openai==1.99.1 openai-harmony==0.0.4 outlines==0.1.11 uvicorn xgrammar==0.1.22 transformers==4.54.1 timm==1.0.16 soundfile==0.13.1" ;;
  *) DEFAULT_PINS="" ;;
esac
PINS=${PINS:-$DEFAULT_PINS}
read -r -a PINARR <<< "$PINS"
mkdir -p "$(dirname "$VENV")"
python3 -m venv "$VENV"
PIP=("$VENV/bin/pip" install -q --disable-pip-version-check)
{
  "${PIP[@]}" torch==2.14.1 torchvision==0.29.1
  "${PIP[@]}" --no-deps "sglang==$SGLANG_VERSION"
  "${PIP[@]}" "${PINARR[@]}" anthropic blobfile==3.0.0 \
    datasets distro easydict einops fastapi gguf interegular mistral_common \
    modelscope msgspec ninja nvidia-ml-py pynvml orjson \
    partial_json_parser prometheus-client python-multipart pyzmq regex scipy sentencepiece setproctitle \
    tiktoken uvloop watchfiles xxhash zstandard pybase64 dill \
    pillow starlette IPython aiohttp psutil requests packaging pydantic numpy triton
} 2>&1 | grep -vE "^WARNING: Location|requires .* which is not installed|but you have .* which is incompatible|dependency resolver|dependency conflicts" || true
SITE=$("$PY" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
# Shims for what a CPU-only install of an old release imports but cannot have: the
# newer torch dropped torch._C._cpu._is_amx_tile_supported (0.4.x asks it at import),
# and 0.4.x imports vllm._custom_ops unconditionally. Neither is used by validation.
cat > "$SITE/autofix_old_sglang_shims.py" <<'PY'
"""Import shims for running an old SGLang's argument validation on CPU (written by autofix)."""
import sys
import types

try:
    import torch

    cpu = getattr(torch._C, "_cpu", None)
    if cpu is not None and not hasattr(cpu, "_is_amx_tile_supported"):
        cpu._is_amx_tile_supported = lambda: False
except Exception:
    pass
try:
    import vllm._custom_ops  # noqa: F401
except Exception:
    vllm = sys.modules.get("vllm") or types.ModuleType("vllm")
    vllm.__path__ = []
    sys.modules["vllm"] = vllm
    sys.modules["vllm._custom_ops"] = types.ModuleType("vllm._custom_ops")
PY
case "$SGLANG_VERSION" in
  0.4.*) echo "import autofix_old_sglang_shims" > "$SITE/autofix_old_sglang_shims.pth" ;;
esac
"$PY" -c "import sglang.srt.server_args" >&2
echo "$PY"
