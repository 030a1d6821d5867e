"""Deterministic decode-speed model of the simulated host.

Autoregressive baseline: Kimi K2.6 at TP8 on the 8 x RTX PRO 6000 host decodes one stream
at 26.3 tok/s (the figure measured in the seed story). Other models/TP scale with the
weight bytes a GPU reads per token.

Speculative decoding (EAGLE family), per verify step:
    accept length  L = 1 + sum_{i=1..s_eff} prod_{j<=i} a_j      (bonus token included)
    a_j            = 1 - (1 - alpha) ** b_j   with b_j drafts kept at depth j (tree of topk)
    cost           C = 1 + 0.08 * steps + 0.04 * (draft_tokens - 1) + 0.05 * (topk - 1)
    tok/s          = baseline * L / C
alpha is the drafter's per-token acceptance (EAGLE-3 drafter for K2.6: 0.70). With it
steps 2 / topk 1 / draft 3 gives 46.4 tok/s, steps 3 / topk 1 / draft 4 49.0 tok/s.
"""

BASELINE_TOK_S = 26.3
_BASELINE_BYTES_PER_GPU = 595e9 / 8
# K2.6 is a 1T-parameter MoE with 32B active: decode reads ~ 1/18 of the weights.

ALPHA = {
    "EAGLE3": 0.70,
    "EAGLE": 0.62,
    "STANDALONE": 0.55,
    "NGRAM": 0.30,
    "DFLASH": 0.68,
    "DSPARK": 0.66,
    "FROZEN_KV_MTP": 0.60,
    "UNO": 0.55,
}


def baseline_tok_s(weight_bytes, tp_size):
    per_gpu = max(weight_bytes / max(1, tp_size), 1e8)
    value = BASELINE_TOK_S * (_BASELINE_BYTES_PER_GPU / per_gpu) ** 0.75
    return round(min(value, 400.0), 2)


def accept_length(algorithm, steps, topk, draft_tokens):
    if not algorithm or not steps:
        return 1.0
    alpha = ALPHA.get(algorithm, 0.55)
    topk = max(1, int(topk or 1))
    draft_tokens = max(1, int(draft_tokens or steps + 1))
    budget = draft_tokens - 1  # tree nodes besides the root
    length = 1.0
    survive = 1.0
    for depth in range(1, int(steps) + 1):
        if budget <= 0:
            break
        keep = min(topk, budget)
        budget -= keep
        a = 1.0 - (1.0 - alpha) ** keep
        survive *= a
        length += survive
    return round(length, 4)


def step_cost(steps, topk, draft_tokens):
    if not steps:
        return 1.0
    return 1.0 + 0.08 * steps + 0.04 * (max(1, draft_tokens or 1) - 1) + 0.05 * (max(1, topk or 1) - 1)


def decode_tok_s(weight_bytes, tp_size, algorithm=None, steps=None, topk=None, draft_tokens=None):
    base = baseline_tok_s(weight_bytes, tp_size)
    if not algorithm:
        return base, 1.0
    length = accept_length(algorithm, steps, topk, draft_tokens)
    return round(base * length / step_cost(steps, topk, draft_tokens), 2), length
