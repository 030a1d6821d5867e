"""Issue 14 round 6, written before the change: a runtime failure no class names is read
by where it happened, as an operator reads a traceback. The innermost frame in a component
a flag can switch off (CUDA graph capture, torch.compile, the custom all-reduce, the radix
cache, an attention backend's kernels) gives that flag's move, innermost component first;
a component the user did not turn on and that is off by default gives nothing."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Candidate, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

BARE = load_catalog().without_classes()
SITE = "/usr/local/lib/python3.12/dist-packages"


def tb(*frames: str, error: str = "RuntimeError: something odd happened") -> str:
    body = "".join(f'  File "{SITE}/{f}", line {10 + i}, in f{i}\n    x()\n' for i, f in enumerate(frames))
    return "Traceback (most recent call last):\n" + body + error + "\n"


def moves(text: str, **args: object) -> list[str]:
    candidate = Candidate.build({"model-path": "/m", **{k.replace("_", "-"): v for k, v in args.items()}})
    diagnosis = classify(parse_text(text), BARE, Gate.START)
    return [p.move.label() for p in propose(candidate, diagnosis, BARE, pinned=("model-path",))]


def test_a_failure_inside_graph_capture_turns_cuda_graphs_off() -> None:
    text = tb(
        "sglang/srt/managers/scheduler.py",
        "sglang/srt/model_executor/model_runner.py",
        "sglang/srt/model_executor/cuda_graph_runner.py",
        error="RuntimeError: invalid argument",
    )
    assert moves(text, tp_size=8)[0] == "set disable-cuda-graph=True"


def test_the_innermost_component_goes_first() -> None:
    """Captured graphs compiled by torch.compile: the compiler (innermost) before the graphs."""
    text = tb(
        "sglang/srt/model_executor/cuda_graph_runner.py",
        "torch/_dynamo/eval_frame.py",
        "torch/_inductor/compile_fx.py",
        error="torch._inductor.exc.InductorError: LoweringException: bad",
    )
    found = moves(text, enable_torch_compile=True)
    assert found[:2] == ["drop enable-torch-compile", "set disable-cuda-graph=True"]


def test_a_component_that_is_off_gives_nothing() -> None:
    """torch.compile frames without --enable-torch-compile: there is nothing to drop."""
    text = tb("torch/_inductor/compile_fx.py", error="torch._inductor.exc.InductorError: x")
    assert "drop enable-torch-compile" not in moves(text)


def test_the_custom_all_reduce_and_the_radix_cache_can_be_switched_off() -> None:
    ar = tb("sglang/srt/distributed/device_communicators/custom_all_reduce.py", error="RuntimeError: invalid argument")
    assert moves(ar, tp_size=4)[0] == "set disable-custom-all-reduce=True"
    radix = tb("sglang/srt/mem_cache/radix_cache.py", error="AssertionError: lock_ref underflow")
    assert moves(radix)[0] == "set disable-radix-cache=True"


def test_a_fault_in_an_attention_backends_kernels_takes_another_backend() -> None:
    text = tb(
        "sglang/srt/layers/attention/flashinfer_backend.py",
        "flashinfer/prefill.py",
        error="RuntimeError: CHECK failed: head_dim in (64, 128, 256)",
    )
    assert moves(text)[0] == "set attention-backend=triton"
