"""Issue 14 round 28d, written before the change (round 26's root-cause misses, read after
it was scored blind): failure lines a program prints in forms no earlier round showed.

- NCCL's error logged as a line (not an exception) goes on over "Last error:" and the line
  after it, which says what NCCL saw fail: that detail belongs to the failure.
- The dynamic loader's "error while loading shared libraries" is the failure that a
  parent's "died during initialization (exit code: 127)" only reports (127: the child
  could not be run).
- "X is not installed" states a failure, with no other failure word.
- An HTTP client's log line with a 4xx / 5xx status (a proxy answering the server's own
  health request) states a failure when nothing else in the paste does.

These tests use their own pastes."""

from __future__ import annotations

from .proposing import subject_of


def test_nccl_last_error_detail_joins_the_logged_nccl_error() -> None:
    paste = (
        "[2026-03-03 08:00:00] Failed to set up the weight-sync group: NCCL error in: /src/ProcessGroupNCCL.cpp:1900, "
        "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.27.3\n"
        "ncclUnhandledCudaError: Call to CUDA function failed.\n"
        "Last error:\n"
        "Cuda failure 700 'an illegal memory access was encountered'\n"
    )
    assert "Cuda failure 700 'an illegal memory access was encountered'" in subject_of(paste)


def test_a_blank_line_after_last_error_ends_the_nccl_error() -> None:
    paste = "ncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\n\nServer stopped.\n"
    assert "Server stopped" not in subject_of(paste)


def test_the_loader_line_is_what_exit_code_127_reports() -> None:
    paste = (
        "/opt/venv/bin/python3: error while loading shared libraries: libnccl.so.3: cannot open shared object file: "
        "No such file or directory\n"
        "RuntimeError: Rank 0 scheduler died during initialization (exit code: 127).\n"
    )
    assert "libnccl.so.3: cannot open shared object file" in subject_of(paste)


def test_another_exit_code_keeps_the_wrapper_that_says_it() -> None:
    paste = "RuntimeError: Rank 0 scheduler died during initialization (exit code: -9).\n"
    assert "exit code: -9" in subject_of(paste)


def test_a_package_that_is_not_installed_is_the_failure() -> None:
    paste = (
        "INFO 05-01 10:00:00 __init__.py:190] Automatically detected platform cuda.\n"
        "deep_ep is selected as the a2a backend, but deep-ep is not installed. Install it first.\n"
        "[2026-05-01 10:00:02] server_args=ServerArgs(model_path='/m', tp_size=8)\n"
    )
    assert "deep-ep is not installed" in subject_of(paste)


def test_an_http_error_status_in_the_servers_own_request_is_the_failure() -> None:
    paste = (
        "[2026-04-04 09:00:01] INFO:     Application startup complete.\n"
        "[2026-04-04 09:00:02] Starting new HTTP connection (1): 10.0.0.5:8080\n"
        '[2026-04-04 09:00:02] http://10.0.0.5:8080 "GET http://127.0.0.1:30000/health HTTP/1.1" 502 120\n'
    )
    assert '" 502' in subject_of(paste)


def test_a_successful_request_states_no_failure() -> None:
    paste = (
        '[2026-04-04 09:00:02] INFO:     127.0.0.1:5000 - "GET /health HTTP/1.1" 200 OK\n'
        "[2026-04-04 09:00:03] RuntimeError: the tokenizer could not be loaded\n"
    )
    assert "tokenizer could not be loaded" in subject_of(paste)


def test_a_servers_access_log_of_a_clients_bad_request_is_no_failure_of_the_server() -> None:
    paste = (
        '[2026-04-04 09:00:02] INFO:     127.0.0.1:41000 - "PRI %2A HTTP/2.0" 404 Not Found\n'
        "[2026-04-04 09:00:05 TP0] Prefill transfer failed for request rank=0 rid=abc\n"
    )
    assert "Prefill transfer failed" in subject_of(paste)


def test_a_line_that_says_it_ignores_an_error_states_no_failure() -> None:
    paste = (
        "[2026-04-04 09:00:01] Ignoring optional plugin import error\n"
        "[2026-04-04 09:00:01] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)\n"
        '[2026-04-04 09:00:02] http://10.0.0.5:8080 "GET http://0.0.0.0:30000/model_info HTTP/1.1" 403 2100\n'
    )
    assert '" 403' in subject_of(paste)


def test_a_native_backtraces_segfault_banner_is_a_segfault() -> None:
    # (round 27's one miss of this shape, read after its blind scoring)
    paste = (
        "!!!!!!! Segfault encountered !!!!!!!\n"
        '  File "<unknown>", line 0, in raise\n'
        '  File "<unknown>", line 0, in ncclProxyService\n'
    )
    assert "Segfault encountered" in subject_of(paste)
