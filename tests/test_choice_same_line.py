"""Issue 14 round 46c, written before the change: a refused value whose first word names a
line of models ('qwen3' in vLLM's 'qwen3_xml') meant the parser's variant of that line
('qwen3_coder'), not the family's older name a letter-by-letter likeness ranks first
('qwen'). Only when that first word is no choice itself, and is a name of four characters or
more: 'fp8' starts every FP8 dtype, so 'fp8_e4m3fn' is still read by its letters. The choice
lists are ours, shaped like SGLang's parser lists (more than ten: a likeness is weighed)."""

from __future__ import annotations

from autofix.choices import meant_choices, near_choice

PARSERS = [
    "deepseekv3",
    "glm45",
    "gpt-oss",
    "kimi_k2",
    "llama3",
    "mistral",
    "pythonic",
    "acme",
    "acme25",
    "acme7_coder",
    "step3",
    "minimax-m2",
]
DTYPES = [
    "auto",
    "fp8_e5m2",
    "fp8_e4m3",
    "fp4_mx_block16",
    "bf16",
    "bfloat16",
    "int8",
    "int4",
    "fp16",
    "fp32",
    "x",
    "y",
]


def test_another_engines_variant_name_meant_the_lines_variant() -> None:
    assert meant_choices("acme7_xml", PARSERS)[:1] == ["acme7_coder"]
    assert near_choice("acme7_xml", "acme7_coder")


def test_a_first_word_that_is_a_choice_is_that_choice() -> None:
    assert meant_choices("llama3_json", PARSERS)[:1] == ["llama3"]


def test_a_format_prefix_is_no_line_name() -> None:
    assert meant_choices("fp8_e4m3fn", DTYPES)[:1] == ["fp8_e4m3"]
    assert not near_choice("fp4_e2m1", "fp4_mx_block16")


def test_one_word_values_are_read_as_before() -> None:
    assert meant_choices("mistrall", PARSERS)[:1] == ["mistral"]
