"""Issue 14 round 27m, written before the change (after crossover7 was scored): vLLM's
expert-parallel flags read as SGLang's, with what the table needs for them.

* ``--enable-expert-parallel`` (``-ep``'s long form: the MoE layers' experts split over the
  GPUs the tensor-parallel group holds) is ``--ep-size`` of the tp size: an entry may take
  its value from another flag of the command (``value_from``), as SGLang's own flag
  history does for ``--enable-ep-moe``.
* ``--all2all-backend`` names SGLang's two settings in one value: ``deepep_low_latency`` is
  ``--moe-a2a-backend deepep --deepep-mode low_latency``. An entry may map each value to
  the flags it stands for (``values``); a value mapped to nothing is SGLang's default, and
  a value the entry does not list is left out with the reason.
* ``--api-server-count`` is ``--tokenizer-worker-num``; ``--moe-backend`` is
  ``--moe-runner-backend`` (the value carried)."""

from __future__ import annotations

from autofix.catalog import load_catalog
from autofix.renames import meaning

from .proposing import renamed

CATALOG = load_catalog()


def test_expert_parallel_takes_the_tensor_parallel_size() -> None:
    child = renamed({"tensor-parallel-size": "4", "enable-expert-parallel": True})
    assert child.arg("ep-size") == "4"
    assert not child.has("enable-expert-parallel")


def test_a_deepep_all2all_value_is_the_backend_and_its_mode() -> None:
    child = renamed({"all2all-backend": "deepep_low_latency"})
    assert child.arg("moe-a2a-backend") == "deepep" and child.arg("deepep-mode") == "low_latency"
    child = renamed({"all2all-backend": "deepep_high_throughput"})
    assert child.arg("moe-a2a-backend") == "deepep" and child.arg("deepep-mode") == "normal"


def test_an_all2all_value_that_is_sglangs_default_is_left_out() -> None:
    found = meaning("all2all-backend", CATALOG, "allgather_reducescatter")
    assert found is not None and found.dropped


def test_an_all2all_value_the_table_does_not_list_is_left_out_with_the_reason() -> None:
    found = meaning("all2all-backend", CATALOG, "some_future_backend")
    assert found is not None and found.dropped and "some_future_backend" in found.why


def test_api_servers_are_tokenizer_workers_and_the_moe_backend_is_the_runner() -> None:
    child = renamed({"api-server-count": "2", "moe-backend": "deep_gemm"})
    assert child.arg("tokenizer-worker-num") == "2" and child.arg("moe-runner-backend") == "deep_gemm"
