# SPDX-License-Identifier: Apache-2.0
"""Model source path handling (simulated subset)."""

from typing import Any


def handle_model_source_paths(server_args: Any):
    # Local paths and the simulated host's /models are used as given.
    return None
