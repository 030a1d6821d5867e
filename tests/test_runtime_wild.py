"""Runtime failures as users hand them over, issue 14 round 6: each test is a shape that
recurs in pasted SGLang logs (a compiler's error line, the scheduler's watchdog in its newer
wording, a message wrapped in backticks that holds backticks of its own, an error quoted in
prose, the host-memory check of the hierarchical cache, NCCL that cannot reach a peer,
native crashes in NCCL's setup, peer-to-peer access faults, a collective that timed out
with no NCCL tuning to blame, a library built against another version).

Written before the engine learnt them, with other values, paths and wording than the
corpus logs they generalise (bench/corpus/real-logs); each asserts what an operator reading
the log would take as the cause, and the first launch change an operator would try.
"""

from __future__ import annotations

import pytest

from autofix.catalog import load_catalog
from autofix.classify import Diagnosis, classify
from autofix.model import Candidate, EditOp, Gate
from autofix.repair import propose
from autofix.tracebacks import parse_text

CATALOG = load_catalog()


def diagnose(text: str) -> Diagnosis:
    return classify(parse_text(text), CATALOG, Gate.START)


def subject_of(text: str) -> str:
    d = diagnose(text)
    return f"{d.subject.exception}: {d.subject.message}"


def first_move(text: str, **args: object) -> str:
    candidate = Candidate(())
    for flag, value in args.items():
        candidate = candidate.with_arg(flag.replace("_", "-"), "true" if value is True else str(value))
    proposals = propose(candidate, diagnose(text), CATALOG)
    return proposals[0].move.label() if proposals else "-"


# --- failure lines no Python traceback carries --------------------------------------------


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        # gcc's form, an English locale, a header of another package
        (
            "/usr/local/lib/python3.10/dist-packages/flashinfer/data/include/flashinfer/vec_dtypes.cuh:20:10: "
            "fatal error: cuda_bf16.h: No such file or directory\n   20 | #include <cuda_bf16.h>\n"
            "      |          ^~~~~~~~~~~~~\ncompilation terminated.\nninja: build stopped: subcommand failed.\n",
            "cuda_bf16.h",
        ),
        # nvcc's own form: file(line): error: ...
        (
            "/root/.cache/flashinfer/90/generated/batch_decode/batch_decode.cu(118): error: identifier "
            '"__hmax2" is undefined\n1 error detected in the compilation of "batch_decode.cu".\n',
            "__hmax2",
        ),
    ],
)
def test_a_compilers_error_line_is_the_failure(text: str, wanted: str) -> None:
    """A JIT build that dies in the compiler: its error line is the root cause, not 'no traceback'."""
    assert wanted in subject_of(text)


def test_a_compiler_error_above_the_build_traceback_is_kept_as_evidence() -> None:
    """The Python side says only 'Error building extension'; the compiler's line says why."""
    text = (
        "/opt/venv/lib/python3.12/site-packages/flashinfer/data/include/flashinfer/utils.cuh:24:10: "
        "fatal error: cuda_fp8.h: No such file or directory\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/torch/utils/cpp_extension.py", line 2209, in _run_ninja_build\n'
        "    subprocess.run(\n"
        "RuntimeError: Error building extension 'batch_prefill_with_kv_cache_dtype_q_f16'\n"
    )
    d = diagnose(text)
    assert "cuda_fp8.h" in d.failure.evidence
    assert (d.failure.class_id or "").startswith("kernel-jit-build-failed")


@pytest.mark.parametrize(
    "line",
    [
        "[2026-02-11 08:01:12 DP1 TP3] Scheduler watchdog timeout (self.watchdog_timeout=600, self.soft=False)",
        "[2026-02-11 08:01:12] Detokenizer watchdog timeout (self.watchdog_timeout=300, self.soft=False)",
    ],
)
def test_the_newer_watchdog_wording_is_a_hang(line: str) -> None:
    """SGLang names the component that hung ('Scheduler watchdog timeout'); still its watchdog."""
    d = diagnose('Thread 1 (idle): "MainThread"\n    wait (threading.py:359)\n' + line + "\n")
    assert d.subject.exception == "sglang_watchdog"
    assert d.failure.class_id == "watchdog-scheduler-hang"


def test_a_watchdog_raise_is_read_off_the_timeout_the_message_names() -> None:
    """A longer watchdog is worked out from the timeout the line states when the argv has none."""
    text = "[2026-02-11 08:01:12 TP0] Scheduler watchdog timeout (self.watchdog_timeout=600, self.soft=False)\n"
    assert first_move(text, tp=8) in ("set watchdog-timeout=2400", "drop enable-torch-compile")


# --- messages as pasted ---------------------------------------------------------------------


def test_a_backticked_message_keeps_the_flag_it_backticks_inside() -> None:
    """`RuntimeError: ... for `--max-running-requests`. ...`: the inner code span is part of the message."""
    text = (
        "The error when it dies:\n"
        "`RuntimeError: req_to_token_pool runs out of memory. Please set a smaller number for "
        "`--max-running-requests`. available_size=0, num_reqs=3,\n`\n"
    )
    d = diagnose(text)
    assert "--max-running-requests" in d.subject.message
    assert d.failure.class_id == "kv-req-pool-too-large"


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            "After the upgrade every long prompt is rejected with `Input length (9120 tokens) exceeds the "
            "maximum allowed length (4096 tokens)` even though context is 32k.",
            "exceeds the maximum allowed length",
        ),
        (
            'The server refuses with "Input length (70001 tokens) exceeds the maximum allowed length (65536 tokens)"',
            "exceeds the maximum allowed length",
        ),
    ],
)
def test_an_error_a_sentence_says_was_refused_with_is_quoted(text: str, wanted: str) -> None:
    """'rejected with `...`' / 'refuses with "..."' quote an error as surely as 'fails with'."""
    assert wanted in subject_of(text)


# --- memory the server sizes itself ---------------------------------------------------------


def test_the_hierarchical_caches_host_memory_check_shrinks_that_cache() -> None:
    """'Please reduce the size of the hierarchical cache': a smaller host pool, never a drop of HiCache."""
    text = (
        "ValueError: Not enough host memory available. Requesting 96.00 GB but only have 61.20 GB free. "
        "Please reduce the size of the hierarchical cache.\n"
    )
    d = diagnose(text)
    assert d.failure.class_id == "hicache-host-memory"
    move = first_move(text, enable_hierarchical_cache=True, hicache_ratio=4)
    assert move.startswith("set hicache-ratio=") and float(move.split("=")[1]) < 4
    sized = first_move(text, enable_hierarchical_cache=True, hicache_size=96)
    assert sized.startswith(("set hicache-size=", "scale hicache-size")) and "enable-hierarchical-cache" not in sized


def test_a_request_pool_that_does_not_fit_lowers_the_running_requests_the_server_chose() -> None:
    """Asked for fewer running requests with none set: a documented value, not a drop."""
    text = "RuntimeError: alloc_req_slots runs out of memory. Please set a smaller number for --max-running-requests.\n"
    move = first_move(text, tp=2)
    assert move.startswith("set max-running-requests=")


# --- NCCL and the fabric --------------------------------------------------------------------


def test_nccl_that_cannot_reach_a_peer_is_a_network_failure() -> None:
    """socketStartConnect / socketPollConnect: the fabric, not the config; only NCCL env the user set may go."""
    text = (
        "node2:4411:5120 [3] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.4.7<43120> "
        "failed : Software caused connection abort\n"
        "node2:4411:5120 [3] NCCL INFO misc/socket.cc:565 -> 2\n"
    )
    d = diagnose(text)
    assert d.failure.class_id == "nccl-peer-unreachable"
    assert first_move(text, tp=16, nnodes=2) == "-"


def test_nccl_network_failure_unsets_the_interface_the_user_pinned() -> None:
    text = "gpu7:88:301 [0] misc/socket.cc:538 NCCL WARN socketPollConnect: Connect to 192.168.3.2<51234> returned 113(No route to host) errno 115(Operation now in progress)\n"
    d = diagnose(text)
    candidate = Candidate(()).with_arg("tp", "16").with_env("NCCL_SOCKET_IFNAME", "eth9")
    proposals = propose(candidate, d, CATALOG)
    assert proposals and proposals[0].move.label() == "unset_env NCCL_SOCKET_IFNAME"


def test_a_native_crash_while_nccl_sets_up_turns_peer_to_peer_off() -> None:
    """A segfault whose frames are in NCCL's setup (pynccl, custom all-reduce): P2P first."""
    text = (
        "[2026-03-01 10:00:01 TP1] Init torch distributed begin.\n"
        "Fatal Python error: Segmentation fault\n\n"
        "Current thread 0x00007f3a2b (most recent call first):\n"
        '  File "/usr/lib/python3/site-packages/sglang/srt/distributed/device_communicators/pynccl.py", line 88 in __init__\n'
        '  File "/usr/lib/python3/site-packages/sglang/srt/distributed/parallel_state.py", line 301 in __init__\n'
    )
    d = diagnose(text)
    assert d.subject.exception == "segfault"
    assert d.failure.class_id == "nccl-native-crash"
    assert first_move(text, tp=2) == "set_env NCCL_P2P_DISABLE=1"


@pytest.mark.parametrize(
    "error",
    [
        "torch.AcceleratorError: CUDA error: Invalid access of peer GPU memory over nvlink or a hardware error",
        "RuntimeError: CUDA error: peer access is not supported between these two devices",
        "RuntimeError: CUDA error: peer mapping resources exhausted",
    ],
)
def test_peer_access_faults_turn_peer_to_peer_off(error: str) -> None:
    """GPUs that cannot reach each other's memory: custom all-reduce off, or NCCL's P2P."""
    d = diagnose(error + "\n")
    assert d.failure.class_id == "p2p-access-failed"
    assert first_move(error + "\n", tp=4) in ("set disable-custom-all-reduce=True", "set_env NCCL_P2P_DISABLE=1")


def test_a_collective_timeout_without_nccl_tuning_lengthens_the_collective_timeout() -> None:
    """No NCCL_* variable to blame: the process group's timeout (--dist-timeout) grows past the one that fired."""
    text = (
        "[rank3]:[E1102 04:11:09.151 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=2, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
        "600089 milliseconds before timing out.\n"
    )
    move = first_move(text, tp=16, nnodes=2)
    assert move.startswith("set dist-timeout=") and int(move.split("=")[1]) > 600


def test_a_collective_timeout_unsets_the_nccl_tuning_the_user_set_first() -> None:
    text = "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800012 milliseconds before timing out.\n"
    candidate = Candidate(()).with_arg("tp", "8").with_env("NCCL_ALGO", "Tree")
    proposals = propose(candidate, diagnose(text), CATALOG)
    assert proposals[0].move.edits[0].op is EditOp.UNSET_ENV


# --- the host's packages --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "ImportError: /opt/conda/lib/python3.11/site-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: "
        "_ZN3c104cuda9SetDeviceEi\n",
        "ImportError: /venv/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
        "undefined symbol: _ZNK3c1010TensorImpl27throw_data_ptr_access_errorEv\n",
    ],
)
def test_a_library_built_against_another_torch_is_no_launch_fix(text: str) -> None:
    """An undefined C++ symbol at import: the wheels disagree; no flag helps, so nothing is proposed."""
    d = diagnose(text)
    assert d.failure.class_id == "package-abi-mismatch"
    assert first_move(text, tp=1, attention_backend="flashinfer") == "-"


def test_argparses_error_line_is_no_compiler_error() -> None:
    """'sglang serve: error: unrecognized arguments' beside flashinfer's import warnings is
    argparse refusing a flag, never a kernel build (found by the users' set: a rename lost
    its place to 'attention-backend triton')."""
    text = (
        "/venv/lib/python3.11/site-packages/flashinfer/jit/core.py:12: UserWarning: no CUDA toolkit\n"
        "usage: sglang serve [-h] --model-path MODEL_PATH\n"
        "sglang serve: error: unrecognized arguments: --enable-mla\n"
    )
    d = diagnose(text)
    assert d.failure.class_id is None or not d.failure.class_id.startswith("kernel-jit")
    assert first_move(text, model_path="/m", enable_mla=True) == "drop enable-mla"


# --- inference alone (no class), written before the change ------------------------------------

BARE = CATALOG.without_classes()


def bare_first(text: str, **args: object) -> str:
    candidate = Candidate(())
    for flag, value in args.items():
        candidate = candidate.with_arg(flag.replace("_", "-"), "true" if value is True else str(value))
    proposals = propose(candidate, classify(parse_text(text), BARE, Gate.START), BARE)
    return proposals[0].move.label() if proposals else "-"


def test_a_fraction_asked_to_grow_stays_a_fraction() -> None:
    """'increase --mem-fraction-static' from 0.84: a larger fraction below 1, not 1.68."""
    text = "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n"
    move = bare_first(text, mem_fraction_static=0.84)
    value = float(move.rsplit(" ", 1)[-1].split("=")[-1])
    assert 0.84 < value < 1


def test_a_fraction_asked_to_shrink_shrinks_by_a_step() -> None:
    text = "RuntimeError: Please use a smaller --mem-fraction-static for this model.\n"
    move = bare_first(text, mem_fraction_static=0.9)
    value = float(move.rsplit(" ", 1)[-1].split("=")[-1])
    assert 0.7 <= value < 0.9


def test_a_timeout_that_fired_and_names_its_field_is_raised() -> None:
    """'Watchdog timeout (self.watchdog_timeout=300)' with no class: the timeout it names grows."""
    text = "[2025-03-09 00:57:15 TP4] Watchdog timeout (self.watchdog_timeout=300)\n"
    assert bare_first(text, tp=8) == "set watchdog-timeout=1200"
