from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Optional

from sglang.srt.arg_groups.overrides import (
    _speculative_moe_runner_default,
    attention_backends_of,
    declare_resolution,
    model_config_of,
    resolved_view,
    resolving_view,
    run_post_process_pass,
)
from sglang.srt.runtime_context import attn_dp_enabled_of, get_platform

if TYPE_CHECKING:
    from sglang.srt.server_args import ServerArgs

logger = logging.getLogger(__name__)


class _OutOfTreePlatform:
    """The simulated host runs the in-tree CUDA platform."""

    @staticmethod
    def is_out_of_tree() -> bool:
        return False

    @staticmethod
    def supports_speculative_algorithm(algorithm: str) -> bool:
        return True


current_platform = _OutOfTreePlatform()


def _should_auto_enable_hip_rejection_sampling(
    *,
    is_hip: bool,
    use_rejection_sampling: bool,
    algorithm: Optional[str],
    token_map: Optional[str],
    eagle_topk: int,
    accept_threshold_single: float,
    accept_threshold_acc: float,
    enable_deterministic_inference: bool,
    simulate_acc_len: float = -1.0,
) -> bool:
    """Whether HIP may default ``speculative_use_rejection_sampling`` on."""
    return (
        is_hip
        and not use_rejection_sampling
        and algorithm == "EAGLE"
        and token_map is None
        and eagle_topk == 1
        and accept_threshold_single == 1.0
        and accept_threshold_acc == 1.0
        and not enable_deterministic_inference
        and simulate_acc_len <= 0
    )


def _disable_overlap_schedule_for_cpu(server_args: ServerArgs) -> None:
    cfg = resolving_view(server_args)
    if cfg.device != "cpu" or cfg.disable_overlap_schedule:
        return

    declare_resolution(
        server_args,
        "_disable_overlap_schedule_for_cpu",
        disable_overlap_schedule=True,
    )
    logger.warning(
        "Overlap schedule is not implemented for speculative decoding on CPU."
    )


def _resolve_speculative_algorithm_alias(
    speculative_algorithm: Optional[str],
    speculative_draft_model_path: Optional[str],
    trust_remote_code: bool = False,
    kwargs: Optional[dict] = {},
) -> Optional[str]:
    """Resolve CLI speculative algorithm; NEXTN/EAGLE may become FROZEN_KV_MTP for Gemma4 assistant drafts."""

    is_gemma4_draft = False
    if speculative_draft_model_path:
        from sglang.srt.utils.hf_transformers_utils import get_config

        cfg = get_config(
            speculative_draft_model_path, trust_remote_code=trust_remote_code, **kwargs
        )
        draft_archs = getattr(cfg, "architectures", None) or []
        is_gemma4_draft = any(
            arch in ("Gemma4AssistantForCausalLM", "Gemma4UnifiedAssistantForCausalLM")
            for arch in draft_archs
        )

    if speculative_algorithm == "EAGLE3" and is_gemma4_draft:
        raise ValueError(
            "Gemma4AssistantForCausalLM draft requires "
            "--speculative-algorithm NEXTN or EAGLE; EAGLE3 is "
            "not supported for this draft architecture."
        )

    if speculative_algorithm == "NEXTN" or speculative_algorithm == "EAGLE":
        if is_gemma4_draft:
            logger.info(
                "Detected Gemma4AssistantForCausalLM draft; "
                f"promoting --speculative-algorithm {speculative_algorithm} to FROZEN_KV_MTP."
            )
            return "FROZEN_KV_MTP"
        return "EAGLE"

    return speculative_algorithm


def handle_speculative_decoding(server_args: ServerArgs) -> None:
    cfg = resolving_view(server_args)
    if (
        cfg.speculative_draft_model_path is not None
        and cfg.speculative_draft_model_revision is None
    ):
        declare_resolution(
            server_args,
            "handle_speculative_decoding",
            speculative_draft_model_revision="main",
        )

    # Moved to the resolution pipeline (arg_groups/overrides.py:
    # _speculative_moe_runner_default), invoked here at its legacy slot.

    run_post_process_pass(server_args, _speculative_moe_runner_default)

    if cfg.speculative_algorithm is not None:
        declare_resolution(
            server_args,
            "handle_speculative_decoding",
            speculative_algorithm=cfg.speculative_algorithm.upper(),
        )

    kwargs = {}

    override_config_file = cfg.decrypted_draft_config_file
    if override_config_file and override_config_file.strip():
        kwargs["_configuration_file"] = override_config_file.strip()

    declare_resolution(
        server_args,
        "handle_speculative_decoding",
        speculative_algorithm=_resolve_speculative_algorithm_alias(
            cfg.speculative_algorithm,
            cfg.speculative_draft_model_path,
            trust_remote_code=cfg.trust_remote_code,
            kwargs=kwargs,
        ),
    )

    # Check the final algorithm: NEXTN aliases EAGLE, while Gemma4 drafts promote
    # EAGLE/NEXTN to FROZEN_KV_MTP.
    if (
        cfg.disaggregation_mode == "decode"
        and cfg.disaggregation_decode_enable_radix_cache
        and cfg.speculative_algorithm not in (None, "DSPARK", "EAGLE", "EAGLE3")
    ):
        raise ValueError(
            "--disaggregation-decode-enable-radix-cache is incompatible "
            "with speculative decoding "
            f"(--speculative-algorithm {cfg.speculative_algorithm})"
        )

    if cfg.speculative_use_block_verification:
        if cfg.speculative_algorithm not in ("EAGLE", "EAGLE3", "DFLASH", "DSPARK"):
            raise ValueError(
                "--speculative-use-block-verification only supports EAGLE / EAGLE3 / "
                "NEXTN / DFLASH / DSPARK."
            )
        if cfg.device != "cuda":
            raise ValueError(
                "--speculative-use-block-verification only supports CUDA or ROCm."
            )
        # Block verification needs sampled proposals and their full distributions.
        # The DFLASH family's sampled drafts always carry them.
        if (
            cfg.speculative_algorithm in ("EAGLE", "EAGLE3")
            and not cfg.speculative_use_rejection_sampling
        ):
            declare_resolution(
                server_args,
                "handle_speculative_decoding",
                speculative_use_rejection_sampling=True,
            )

    # Validate --speculative-draft-window-size / --speculative-draft-sink-size once,
    # regardless of algorithm. Consumed by DFLASH (compact draft KV cache), Llama
    # EAGLE-3 (drafter attention SWA), and the built-in MTP/NEXTN + EAGLE draft-decode
    # path on the Triton and FlashInfer draft attention backends (StreamingLLM sink +
    # recent window).
    if cfg.speculative_draft_window_size is not None:
        window_size = int(cfg.speculative_draft_window_size)
        if window_size <= 0:
            raise ValueError(
                f"--speculative-draft-window-size must be positive, got {window_size}."
            )
        declare_resolution(
            server_args,
            "handle_speculative_decoding",
            speculative_draft_window_size=window_size,
        )
        if cfg.speculative_algorithm not in ("EAGLE", "EAGLE3", "DFLASH"):
            logger.warning(
                "--speculative-draft-window-size has no effect with "
                "speculative_algorithm=%s (honored by DFLASH, Llama EAGLE-3, and the "
                "EAGLE/MTP/NEXTN draft-decode path on the Triton/FlashInfer draft backends).",
                cfg.speculative_algorithm,
            )

    if cfg.speculative_draft_sink_size is not None:
        sink_size = int(cfg.speculative_draft_sink_size)
        if sink_size < 0:
            raise ValueError(
                f"--speculative-draft-sink-size must be non-negative, got {sink_size}."
            )
        if cfg.speculative_draft_window_size is None:
            raise ValueError(
                "--speculative-draft-sink-size requires --speculative-draft-window-size."
            )
        declare_resolution(
            server_args,
            "handle_speculative_decoding",
            speculative_draft_sink_size=sink_size,
        )

    algo = None
    if cfg.speculative_algorithm is not None:
        from sglang.srt.speculative.spec_info import SpeculativeAlgorithm

        algo = SpeculativeAlgorithm.from_string(cfg.speculative_algorithm)

    if cfg.speculative_adaptive:
        _maybe_disable_adaptive(server_args)
        if cfg.speculative_adaptive:
            _init_adaptive_speculative_params(server_args)

    if algo is not None:
        # The in-tree dispatcher, which declares. It needs the record
        # itself: handed the stand-in, its `declare_resolution` calls would
        # stash on that instead.
        algo.handle_server_args(server_args)


def _handle_dflash(server_args: ServerArgs) -> None:
    cfg = resolving_view(server_args)

    if cfg.pp_size != 1:
        raise ValueError(
            "Currently DFLASH speculative decoding only supports pp_size == 1."
        )

    if cfg.speculative_draft_model_path is None:
        raise ValueError(
            "DFLASH speculative decoding requires setting --speculative-draft-model-path."
        )

    if cfg.speculative_num_steps is None or int(cfg.speculative_num_steps) != 1:
        declare_resolution(server_args, "_handle_dflash", speculative_num_steps=1)
    if cfg.speculative_eagle_topk is None or int(cfg.speculative_eagle_topk) != 1:
        declare_resolution(server_args, "_handle_dflash", speculative_eagle_topk=1)
    if cfg.speculative_num_draft_tokens is None:
        declare_resolution(
            server_args,
            "_handle_dflash",
            speculative_num_draft_tokens=int(cfg.speculative_dflash_block_size or 16),
        )
    if cfg.max_running_requests is None:
        declare_resolution(server_args, "_handle_dflash", max_running_requests=48)
        logger.warning(
            "Max running requests is reset to 48 for speculative decoding. You can override this by explicitly setting --max-running-requests."
        )


def _handle_uno(server_args: ServerArgs) -> None:
    cfg = resolving_view(server_args)
    if cfg.device != "cuda":
        raise ValueError("UNO only supports CUDA.")
    if cfg.uno_lora_path is None:
        raise ValueError("UNO requires --uno-lora-path.")
    if cfg.tp_size != 1 or cfg.pp_size != 1:
        raise ValueError("UNO requires TP=PP=1.")


def _handle_dspark(server_args: ServerArgs) -> None:
    _handle_dflash(server_args)


def _handle_frozen_kv_mtp(server_args: ServerArgs) -> None:
    _handle_eagle_family(server_args)


def _handle_iquest_q1_mtp_draft(server_args: ServerArgs) -> bool:
    target = model_config_of(server_args).hf_config
    if target.architectures[0] != "IQuestQ1ForCausalLM":
        return False
    raise ValueError("IQuest Q1 requires an independent MTP draft checkpoint.")


def _check_oot_speculative_algorithm(algorithm: str, device: str) -> None:
    if current_platform.is_out_of_tree() and not (
        current_platform.supports_speculative_algorithm(algorithm)
    ):
        raise ValueError(
            f"{algorithm} speculative decoding is not supported by "
            f"{type(current_platform).__name__} on device {device!r}."
        )


def _handle_eagle_family(server_args: ServerArgs) -> None:
    cfg = resolving_view(server_args)
    _check_oot_speculative_algorithm(
        algorithm=cfg.speculative_algorithm, device=cfg.device
    )

    if cfg.speculative_algorithm == "STANDALONE" and attn_dp_enabled_of(
        resolved_view(server_args)
    ):
        # TODO: support dp attention for standalone speculative decoding
        raise ValueError(
            "Currently standalone speculative decoding does not support dp attention."
        )

    if cfg.max_running_requests is None:
        declare_resolution(
            server_args,
            "_handle_eagle_family",
            max_running_requests=48,
        )
        logger.warning(
            "Max running requests is reset to 48 for speculative decoding. You can override this by explicitly setting --max-running-requests."
        )

    _disable_overlap_schedule_for_cpu(server_args)

    if resolved_view(server_args).disable_overlap_schedule:
        logger.warning(
            "Non-overlap (synchronous) spec v2 is used for eagle/eagle3/standalone "
            "speculative decoding."
        )

    # Mixed steps degrade running requests to a plain 1-token decode.
    from sglang.srt.speculative.spec_info import SpeculativeAlgorithm

    algo = SpeculativeAlgorithm.from_string(cfg.speculative_algorithm)
    if cfg.enable_mixed_chunk and not algo.supports_mixed_chunk():
        declare_resolution(
            server_args,
            "_handle_eagle_family",
            enable_mixed_chunk=False,
        )
        logger.warning(
            "Mixed chunked prefill is disabled: %s speculative decoding does "
            "not support it.",
            cfg.speculative_algorithm,
        )

    model_arch = model_config_of(server_args).hf_config.architectures[0]
    if model_arch in [
        "DeepseekV32ForCausalLM",
        "DeepseekV3ForCausalLM",
        "DeepseekV4ForCausalLM",
        "Glm4MoeForCausalLM",
        "Glm4MoeLiteForCausalLM",
        "GlmMoeDsaForCausalLM",
        "BailingMoeForCausalLM",
        "BailingMoeV2ForCausalLM",
        "BailingMoeV2_5ForCausalLM",
        "MistralLarge3ForCausalLM",
        "PixtralForConditionalGeneration",
        "HYV3ForCausalLM",
        "HYV4ForCausalLM",
        # Qwen4-Exp ships its NEXTN draft layer inside the target checkpoint.
        "Qwen4ExpForConditionalGeneration",
    ]:
        if cfg.speculative_draft_model_path is None:
            declare_resolution(
                server_args,
                "_handle_eagle_family",
                speculative_draft_model_path=cfg.model_path,
            )
            declare_resolution(
                server_args,
                "_handle_eagle_family",
                speculative_draft_model_revision=cfg.revision,
            )
        else:
            if model_arch not in [
                "MistralLarge3ForCausalLM",
                "PixtralForConditionalGeneration",
            ]:
                logger.warning(
                    "DeepSeek MTP does not require setting speculative_draft_model_path."
                )

    _handle_iquest_q1_mtp_draft(server_args)
    if not cfg.speculative_adaptive and cfg.speculative_num_steps is None:
        assert (
            cfg.speculative_eagle_topk is None
            and cfg.speculative_num_draft_tokens is None
        )

        steps, topk, draft_tokens = _auto_choose_speculative_params(
            server_args, model_arch
        )
        declare_resolution(
            server_args,
            "_handle_eagle_family.auto_params",
            speculative_num_steps=steps,
            speculative_eagle_topk=topk,
            speculative_num_draft_tokens=draft_tokens,
        )

    if "trtllm_mha" in attention_backends_of(resolved_view(server_args)):
        if cfg.speculative_eagle_topk > 1:
            raise ValueError(
                "trtllm_mha backend only supports topk = 1 for speculative decoding."
            )

    # ROCm/HIP has no CUDA/MUSA sampling-verify kernels, so EAGLE verify would
    # otherwise fall back to greedy (argmax) and silently ignore temperature and
    # top_p. Default rejection sampling on -- it routes verify through the Triton
    # chain sampler -- for configs that support it. See
    # _should_auto_enable_hip_rejection_sampling for the cases we must not flip.
    if _should_auto_enable_hip_rejection_sampling(
        is_hip=get_platform().is_hip,
        use_rejection_sampling=cfg.speculative_use_rejection_sampling,
        algorithm=cfg.speculative_algorithm,
        token_map=cfg.speculative_token_map,
        eagle_topk=cfg.speculative_eagle_topk,
        accept_threshold_single=cfg.speculative_accept_threshold_single,
        accept_threshold_acc=cfg.speculative_accept_threshold_acc,
        enable_deterministic_inference=cfg.enable_deterministic_inference,
    ):
        declare_resolution(
            server_args,
            "_handle_eagle_family",
            speculative_use_rejection_sampling=True,
        )

    # resolved_view, not cfg: the block above may have just decided this field,
    # and declare_resolution writes to the stash rather than the dataclass.
    if resolved_view(server_args).speculative_use_rejection_sampling:
        # Resolved alias by now: NEXTN -> EAGLE, Gemma4 draft -> FROZEN_KV_MTP.
        # Only the EAGLE/EAGLE3 draft workers emit a target-vocab proposal that
        # the rejection-sampling kernel consumes; everything else (STANDALONE,
        # FROZEN_KV_MTP, NGRAM, DFLASH) is unsupported.
        if cfg.speculative_algorithm not in ("EAGLE", "EAGLE3"):
            raise NotImplementedError(
                "--speculative-use-rejection-sampling is only supported for "
                "EAGLE / EAGLE3 / NEXTN, not "
                f"speculative_algorithm={cfg.speculative_algorithm}."
            )
        if cfg.speculative_eagle_topk != 1:
            raise ValueError(
                "--speculative-use-rejection-sampling requires --speculative-eagle-topk=1."
            )
        if cfg.enable_deterministic_inference and not cfg.device.startswith("cuda"):
            raise ValueError(
                "Deterministic rejection sampling is currently supported only on "
                "CUDA-compatible devices because draft proposal sampling uses a "
                "Triton hash kernel."
            )
        if (
            cfg.speculative_accept_threshold_single != 1.0
            or cfg.speculative_accept_threshold_acc != 1.0
        ):
            raise ValueError(
                "--speculative-use-rejection-sampling is incompatible with "
                "--speculative-accept-threshold-single / "
                "--speculative-accept-threshold-acc; rejection sampling ignores "
                "the accept thresholds."
            )
        if (
            resolved_view(server_args).enable_multi_layer_eagle
            and cfg.speculative_eagle_topk != 1
        ):
            raise ValueError(
                "--speculative-use-rejection-sampling with multi-layer EAGLE "
                "(--enable-multi-layer-eagle) requires --speculative-eagle-topk 1; "
                "rejection sampling is only implemented for the linear (topk=1) chain."
            )
        logger.info(
            "Rejection sampling is enabled for speculative decoding "
            "(speculative_use_rejection_sampling=True)."
        )

    if (
        cfg.speculative_eagle_topk == 1
        and cfg.speculative_num_draft_tokens != cfg.speculative_num_steps + 1
    ):
        logger.warning(
            "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 when speculative_eagle_topk == 1"
        )
        declare_resolution(
            server_args,
            "_handle_eagle_family",
            speculative_num_draft_tokens=cfg.speculative_num_steps + 1,
        )

    # topk > 1 + page_size > 1 needs the two-pass cascade draft-decode (shared prefix
    # pass + per-branch expand pass with prefix-tail dup). Only these backends implement
    # it; flashmla / trtllm_mla can't express the per-branch tree, so reject.
    _PAGE_TREE_SPEC_BACKENDS = ("flashinfer", "fa3", "triton")
    view = resolved_view(server_args)
    if (
        cfg.speculative_eagle_topk > 1
        and view.page_size > 1
        and view.attention_backend not in _PAGE_TREE_SPEC_BACKENDS
    ):
        raise ValueError(
            f"speculative_eagle_topk > 1 with page_size > 1 is only supported on "
            f"{_PAGE_TREE_SPEC_BACKENDS}; got attention_backend="
            f"{view.attention_backend!r}. Use page_size == 1 or one of those backends."
        )


def _handle_ngram(server_args: ServerArgs) -> None:
    cfg = resolving_view(server_args)
    if cfg.device not in ("cuda", "cpu", "xpu"):
        raise ValueError(
            "Ngram speculative decoding only supports CUDA, CPU, or XPU devices."
        )

    _disable_overlap_schedule_for_cpu(server_args)

    if cfg.max_running_requests is None:
        declare_resolution(
            server_args,
            "_handle_ngram",
            max_running_requests=48,
        )
        logger.warning(
            "Max running requests is reset to 48 for speculative decoding. You can override this by explicitly setting --max-running-requests."
        )

    declare_resolution(
        server_args,
        "_handle_ngram",
        enable_mixed_chunk=False,
    )
    declare_resolution(
        server_args,
        "_handle_ngram",
        speculative_eagle_topk=cfg.speculative_ngram_max_bfs_breadth,
    )
    if cfg.speculative_num_draft_tokens is None:
        declare_resolution(
            server_args,
            "_handle_ngram",
            speculative_num_draft_tokens=12,
        )
        logger.warning(
            "speculative_num_draft_tokens is set to 12 by default for ngram speculative decoding. "
            "You can override this by explicitly setting --speculative-num-draft-tokens."
        )
    if cfg.speculative_num_steps is None:
        declare_resolution(
            server_args,
            "_handle_ngram",
            speculative_num_steps=cfg.speculative_num_draft_tokens
            // cfg.speculative_eagle_topk,
        )
    if cfg.speculative_ngram_external_corpus_path is not None:
        if cfg.speculative_ngram_external_sam_budget <= 0:
            raise ValueError(
                "--speculative-ngram-external-sam-budget must be positive when "
                "--speculative-ngram-external-corpus-path is set."
            )
        if cfg.speculative_ngram_external_corpus_max_tokens <= 0:
            raise ValueError(
                "--speculative-ngram-external-corpus-max-tokens must be positive when "
                "--speculative-ngram-external-corpus-path is set."
            )
        if (
            cfg.speculative_ngram_external_sam_budget
            > cfg.speculative_num_draft_tokens - 1
        ):
            raise ValueError(
                "speculative_ngram_external_sam_budget must be less than or equal to "
                f"speculative_num_draft_tokens - 1 ({cfg.speculative_num_draft_tokens - 1})."
            )
    logger.warning(
        "The mixed chunked prefill are disabled because of "
        "using ngram speculative decoding."
    )

    view = resolved_view(server_args)
    if (
        cfg.speculative_eagle_topk > 1
        and view.page_size > 1
        and view.attention_backend != "flashinfer"
    ):
        raise ValueError(
            f"speculative_eagle_topk({cfg.speculative_eagle_topk}) > 1 "
            f"with page_size({view.page_size}) > 1 is unstable "
            "and produces incorrect results for paged attention backends. "
            "This combination is only supported for the 'flashinfer' backend."
        )
    if attn_dp_enabled_of(view):
        # TODO: support dp attention for ngram speculative decoding
        raise ValueError(
            "Currently ngram speculative decoding does not support dp attention."
        )


DEFAULT_ADAPTIVE_CONFIG: dict[str, dict] = {
    "1": {"candidate_steps": [1, 3, 5, 7]},
    "8": {"candidate_steps": [0, 1, 3]},
    "32": {"candidate_steps": [0, 1]},
    "128": {"candidate_steps": [0]},
}


def adaptive_unsupported_reason(server_args: ServerArgs) -> str | None:
    """Return why adaptive spec cannot run under the given server args, or None if supported."""

    cfg = resolving_view(server_args)

    if cfg.speculative_algorithm not in ("EAGLE", "EAGLE3"):
        return (
            f"speculative_algorithm={cfg.speculative_algorithm} "
            "(only EAGLE/EAGLE3 are supported)"
        )
    if cfg.speculative_eagle_topk is not None and cfg.speculative_eagle_topk != 1:
        return (
            f"speculative_eagle_topk={cfg.speculative_eagle_topk} "
            "(only topk=1 is supported)"
        )
    if attn_dp_enabled_of(resolved_view(server_args)):
        return (
            "attention DP is not supported "
            "(adaptive tier decisions are not synchronized across DP ranks)"
        )
    return None


def resolve_candidate_steps_from_config(cfg_path: str | None = None) -> list[int]:
    """Union of every BS slot's candidate steps; sizes the runtime buffers."""
    if cfg_path is None:
        bs_entries = DEFAULT_ADAPTIVE_CONFIG
    else:
        with open(cfg_path) as f:
            bs_entries = json.load(f)
    all_steps: set[int] = set()
    for entry in bs_entries.values():
        all_steps.update(entry["candidate_steps"])
    return sorted(all_steps)


def _maybe_disable_adaptive(server_args: ServerArgs) -> None:
    reason = adaptive_unsupported_reason(server_args)
    if reason is not None:
        logger.warning(
            f"speculative_adaptive disabled: {reason}. "
            "Falling back to static speculative params."
        )
        declare_resolution(
            server_args,
            "_maybe_disable_adaptive",
            speculative_adaptive=False,
        )


def _init_adaptive_speculative_params(server_args: ServerArgs) -> None:
    cfg = resolving_view(server_args)

    candidate_steps = resolve_candidate_steps_from_config(
        cfg_path=cfg.speculative_adaptive_config,
    )

    if cfg.speculative_eagle_topk is None:
        declare_resolution(
            server_args,
            "_init_adaptive_speculative_params",
            speculative_eagle_topk=1,
        )

    if cfg.speculative_num_steps is None:
        declare_resolution(
            server_args,
            "_init_adaptive_speculative_params",
            speculative_num_steps=candidate_steps[len(candidate_steps) // 2],
        )

    if cfg.speculative_num_steps not in candidate_steps:
        raise ValueError(
            f"--speculative-num-steps={cfg.speculative_num_steps} "
            f"is not in the adaptive config candidate_steps {candidate_steps}. "
            "Pass one of those values."
        )

    declare_resolution(
        server_args,
        "_init_adaptive_speculative_params",
        speculative_num_draft_tokens=cfg.speculative_num_steps + 1,
    )


def _auto_choose_speculative_params(server_args: ServerArgs, model_arch: str) -> tuple:
    """
    Automatically choose the parameters for speculative decoding.

    You can tune them on your own models and prompts with scripts/playground/bench_speculative.py
    """
    cfg = resolving_view(server_args)
    if cfg.speculative_algorithm == "STANDALONE":
        return (3, 1, 4)
    if model_arch in ["LlamaForCausalLM"]:
        return (5, 4, 8)
    elif model_arch in [
        "DeepseekV32ForCausalLM",
        "DeepseekV3ForCausalLM",
        "DeepseekV2ForCausalLM",
        "GptOssForCausalLM",
        "Glm4MoeForCausalLM",
        "Glm4MoeLiteForCausalLM",
        "GlmMoeDsaForCausalLM",
        "BailingMoeForCausalLM",
        "BailingMoeV2ForCausalLM",
        "BailingMoeV2_5ForCausalLM",
        "MistralLarge3ForCausalLM",
        "PixtralForConditionalGeneration",
        "MiMoV2ForCausalLM",
        "MiMoV2FlashForCausalLM",
    ]:
        return (3, 1, 4)
    elif model_arch in ["Grok1ForCausalLM", "Grok1VForCausalLM"]:
        return (5, 4, 8)
    else:
        return (3, 1, 4)
