"""Issue 14 round 37h, written before the change (round 41's two root misses, in our words).

- A sentence that quotes two things, where it crashed (`toy_rotary_embedding`) and the error ("RuntimeError:
  shape ... is invalid"), quotes the error in the second: a quote that names an exception is
  the one to read, not the first quote after "crashes at".
- A CUDA driver error's name (CUDA_ERROR_INVALID_VALUE, with the kernel file and line a
  library prints after it) is a CUDA error line like "CUDA error: ...", and the first of
  several CUDA errors is the one the later ones follow from ("unspecified launch failure"
  after an invalid value)."""

from __future__ import annotations

from .proposing import subject_of

TWO_QUOTES = (
    "# [Bug] toy_rotary_embedding crashed when running a toy VL model\n\n"
    "### Describe the bug\n\n"
    "When I send two image requests the server crashes at `toy_rotary_embedding` with this error: "
    "\"RuntimeError: shape '[s1, -1, 64]' is invalid for input of size s2*s3\"\n\n"
    "### Reproduction\n\n"
    "```bash\npython3 -m sglang.launch_server --model-path toy/vl --port 8001\n```\n"
)

SIGNATURE = (
    "# Toy model crashes under long-context load\n\n"
    "The failure signature is:\n\n"
    "- repeated `CUDA_ERROR_INVALID_VALUE /workspace/include/toykern/fmha/kernels.cuh 328`\n"
    "- then `Sampling.cu:10 ... Assertion probability tensor contains either inf, nan or element < 0 failed`\n"
    "- then scheduler crash with `CUDA error: unspecified launch failure`\n"
)


def test_the_quote_that_names_an_exception_is_the_error() -> None:
    assert "is invalid for input of size" in subject_of(TWO_QUOTES)


def test_the_first_cuda_error_named_is_the_root() -> None:
    assert "CUDA_ERROR_INVALID_VALUE" in subject_of(SIGNATURE)
