# SPDX-License-Identifier: Apache-2.0
"""Serving-side argument resolution (simulated subset)."""

import logging
import os
import random
from typing import Any

from sglang.srt.arg_groups.overrides import declare_resolution, resolving_view

logger = logging.getLogger(__name__)


def get_device(device_id=None) -> str:
    # The simulated host has CUDA devices.
    return "cuda"


def handle_ssl_validation(server_args: Any):
    """Ensure SSL arguments are consistent and referenced files exist."""
    cfg = resolving_view(server_args)
    if cfg.ssl_keyfile and not cfg.ssl_certfile:
        raise ValueError(
            "--ssl-keyfile requires --ssl-certfile to be specified as well."
        )
    if cfg.ssl_certfile and not cfg.ssl_keyfile:
        raise ValueError(
            "--ssl-certfile requires --ssl-keyfile to be specified as well."
        )
    if not cfg.ssl_certfile and not cfg.ssl_keyfile:
        if cfg.ssl_ca_certs:
            raise ValueError(
                "--ssl-ca-certs has no effect without --ssl-certfile and --ssl-keyfile."
            )
        if cfg.ssl_keyfile_password:
            raise ValueError(
                "--ssl-keyfile-password has no effect without --ssl-certfile and --ssl-keyfile."
            )
    # Validate files exist early to avoid late failures after model loading.
    if cfg.ssl_keyfile and not os.path.isfile(cfg.ssl_keyfile):
        raise ValueError(
            f"SSL key file not found: '{cfg.ssl_keyfile}'. "
            f"Please check the --ssl-keyfile path."
        )
    if cfg.ssl_certfile and not os.path.isfile(cfg.ssl_certfile):
        raise ValueError(
            f"SSL certificate file not found: '{cfg.ssl_certfile}'. "
            f"Please check the --ssl-certfile path."
        )
    if cfg.ssl_ca_certs and not os.path.isfile(cfg.ssl_ca_certs):
        raise ValueError(
            f"SSL CA certificates file not found: '{cfg.ssl_ca_certs}'. "
            f"Please check the --ssl-ca-certs path."
        )
    if cfg.enable_ssl_refresh and not (cfg.ssl_certfile and cfg.ssl_keyfile):
        raise ValueError(
            "--enable-ssl-refresh requires --ssl-certfile and --ssl-keyfile "
            "to be specified."
        )
    if cfg.enable_http_worker_reuseport and (
        cfg.tokenizer_worker_num == 1 or cfg.enable_http2
    ):
        raise ValueError(
            "--enable-http-worker-reuseport requires --tokenizer-worker-num > 1 "
            "and has no effect with --enable-http2."
        )

    if cfg.enable_http2:
        if not 0 < cfg.http2_max_concurrent_streams < 2**32:
            raise ValueError(
                "--http2-max-concurrent-streams must be between 1 and 4294967295."
            )
        if not 1024 <= cfg.http2_initial_connection_window_size < 2**31:
            raise ValueError(
                "--http2-initial-connection-window-size must be between "
                "1024 and 2147483647."
            )

        try:
            import granian  # noqa: F401
        except ImportError:
            raise ValueError(
                "--enable-http2 requires the 'granian' package. "
                'Install it with: pip install "sglang[http2]"'
            )


def handle_deprecated_args(server_args: Any):
    cfg = resolving_view(server_args)
    # native server, falling back to SGLANG_GRPC_PORT.
    grpc_port_env = os.environ.get("SGLANG_GRPC_PORT")
    if cfg.grpc_port is None and grpc_port_env is not None:
        declare_resolution(
            server_args,
            "_handle_deprecated_args",
            grpc_port=int(grpc_port_env),
        )

    legacy_grpc = cfg.smg_grpc_mode or cfg.grpc_mode
    if legacy_grpc and cfg.grpc_port is None:
        declare_resolution(
            server_args,
            "_handle_deprecated_args",
            grpc_port=cfg.port + 10000,
        )

    if cfg.grpc_response_timeout_secs <= 0:
        raise ValueError("--grpc-response-timeout-secs must be positive")

    if cfg.grpc_port is not None:
        if not (1 <= cfg.grpc_port <= 65535):
            raise ValueError(
                "--grpc-port / SGLANG_GRPC_PORT "
                f"({cfg.grpc_port}) must be between 1 and 65535"
            )
        if cfg.grpc_worker_threads is not None and cfg.grpc_worker_threads < 1:
            raise ValueError(
                f"SGLANG_GRPC_WORKER_THREADS ({cfg.grpc_worker_threads}) must be >= 1"
            )


def handle_missing_default_values(server_args: Any):
    cfg = resolving_view(server_args)
    if cfg.tokenizer_path is None:
        declare_resolution(
            server_args,
            "_handle_missing_default_values",
            tokenizer_path=cfg.model_path,
        )
    if cfg.served_model_name is None:
        declare_resolution(
            server_args,
            "_handle_missing_default_values",
            served_model_name=cfg.model_path,
        )
    if cfg.device is None:
        declare_resolution(
            server_args,
            "_handle_missing_default_values",
            device=get_device(),
        )
    # strip device index from user if any (e.g. "cuda:0" -> "cuda")
    declare_resolution(
        server_args,
        "_handle_missing_default_values",
        device=cfg.device.split(":")[0],
    )
    if cfg.random_seed is None:
        declare_resolution(
            server_args,
            "_handle_missing_default_values",
            random_seed=random.randint(0, 1 << 30),
        )
    if cfg.speculative_draft_model_quantization is None:
        declare_resolution(
            server_args,
            "_handle_missing_default_values",
            speculative_draft_model_quantization=cfg.quantization,
        )
    if cfg.quantization == "unquant":
        declare_resolution(
            server_args,
            "_handle_missing_default_values",
            quantization=None,
        )
