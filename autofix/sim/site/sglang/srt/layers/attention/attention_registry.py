"""Attention backend registry (simulated subset)."""

import logging

from sglang.srt._sim import host

logger = logging.getLogger(__name__)

ATTENTION_BACKENDS = {}

_is_musa = False


def get_device_capability():
    return host.COMPUTE_CAPABILITY


def register_attention_backend(name):
    def decorator(fn):
        ATTENTION_BACKENDS[name] = fn
        return fn

    return decorator


class _SimAttnBackend:
    def __init__(self, runner, name):
        self.name = name
        self.runner = runner


for _name in (
    "triton",
    "torch_native",
    "flex_attention",
    "flashinfer",
    "trtllm_mla",
    "trtllm_mha",
    "cutedsl_mla",
    "fa4",
    "flashmla",
    "intel_amx",
    "aiter",
):
    ATTENTION_BACKENDS[_name] = (lambda n: (lambda runner: _SimAttnBackend(runner, n)))(_name)


@register_attention_backend("fa3")
def create_flashattention_v3_backend(runner):

    major, minor = get_device_capability()
    if not _is_musa:
        assert (major == 8 and not runner.use_mla_backend) or major == 9, (
            "FlashAttention v3 Backend requires SM>=80 and SM<=90. "
            "Please use `--attention-backend flashinfer`."
        )
        return _SimAttnBackend(runner, "fa3")
    else:
        assert major == 3 and minor >= 1, (
            "FlashAttention v3 Backend requires MP>=31. "
            "Please use `--attention-backend triton`."
        )
        return _SimAttnBackend(runner, "fa3")
