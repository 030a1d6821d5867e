"""Plugin overrides for named resolution steps.

Overrides receive ``(server_args, previous)`` and may call ``previous`` to
wrap the existing step. Only whitelisted names are accepted. Registration
changes the implementation at that step's existing pipeline position.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, FrozenSet, List

# Names must match run_hook call sites in pipeline.py.
_OVERRIDABLE_HOOKS: FrozenSet[str] = frozenset(
    {
        "handle_deprecated_dp_attention",
        "handle_return_hidden_states_mode",
        "handle_offload_compatibility",
        "validate_prefill_decode_interval",
        "validate_sampling_mask_max_tokens",
        "handle_aux_hidden_state_capture",
        "handle_hardware_runtime_validation",
        "handle_model_source_paths",
        "handle_multimodal",
        "handle_ssl_validation",
        "handle_deprecated_args",
        "handle_missing_default_values",
        "handle_pd_disaggregation",
        "handle_cuda_graph_config",
        "handle_platform_defaults",
        "handle_gpu_memory_settings",
        "handle_model_specific_adjustments",
        "handle_deterministic_inference",
        "handle_attention_backend_compatibility",
        "handle_kv4_compatibility",
        "handle_mxfp8_kv_cache_compatibility",
        "handle_data_parallelism",
        "handle_context_parallelism",
        "handle_moe_kernel_config",
        "handle_eplb_and_dispatch",
        "handle_shared_experts_tp",
        "handle_speculative_decoding",
        "handle_cache_compatibility",
        "handle_other_validations",
    }
)

# Step name -> wrappers in registration order.
_HOOKS: Dict[str, List[Callable[[Any, Callable[[Any], None]], None]]] = {}


def register_resolution_hook(name: str):
    """Register ``fn(server_args, previous)`` for a pipeline step."""
    if name not in _OVERRIDABLE_HOOKS:
        raise ValueError(
            f"{name!r} is not an overridable resolution hook; the "
            f"overridable set is {sorted(_OVERRIDABLE_HOOKS)}. A new entry "
            "needs a matching `run_hook(...)` call at the step's site in "
            "pipeline.py, not just a name here."
        )

    def decorator(fn):
        _HOOKS.setdefault(name, []).append(fn)
        return fn

    return decorator


def run_hook(builtin: Callable[[Any], None], server_args: Any) -> None:
    """Run registered wrappers for ``builtin.__name__``, or the built-in step.

    ``builtin`` must be a named function. Wrappers receive the same server
    arguments as the built-in step.
    """
    step = builtin
    for fn in _HOOKS.get(builtin.__name__, ()):
        step = _bind(fn, step)
    step(server_args)


def _bind(fn, previous):
    def wrapped(server_args):
        fn(server_args, previous)

    return wrapped
