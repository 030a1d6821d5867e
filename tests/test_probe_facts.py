"""The probe's parser facts (autofix/probes/preflight.py `_parser_facts`) and how the
catalogue takes them (`Catalog.with_parser`).

The probe reads whatever ``ServerArgs.add_cli_args`` registers on an argparse parser, so a
record class of ours that registers flags the way SGLang's releases do (store_true,
BooleanOptionalAction, nargs="*", choices, a long alias, a deprecated flag) exercises it
without SGLang; the real 0.5.23 facts (strategies/sglang.flags.json, read from the real
parser) check the catalogue's side, and tests/sglang/ check the probe on real releases.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from autofix.catalog import load_catalog
from autofix.probes import preflight as probe

from .conftest import ROOT


@dataclasses.dataclass
class Record:
    """A server-args record the way SGLang builds one: fields, and flags registered for them."""

    tp_size: int = 1
    enable_metrics: bool = False
    lora_target_modules: tuple[str, ...] | None = None
    kv_cache_dtype: str = "auto"
    swa_full_tokens_ratio: float | None = None
    enable_ep_moe: bool = False

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--tp-size", "--tensor-parallel-size", type=int, default=1)
        parser.add_argument("--enable-metrics", action="store_true")
        parser.add_argument("--lora-target-modules", nargs="*", choices=["q_proj", "all"])
        parser.add_argument("--kv-cache-dtype", type=str, choices=["auto", "fp8_e4m3"], default="auto")
        parser.add_argument("--swa-full-tokens-ratio", type=float)
        parser.add_argument("--spill-size", type=int, help="Spill pool size in gigabytes (-1 means unlimited).")
        parser.add_argument("--enable-ep-moe", action="store_true", help="(Deprecated) use --ep-size")
        parser.add_argument("--disable-overlap", action=argparse.BooleanOptionalAction)


@pytest.fixture
def fallbacks() -> Iterator[None]:
    """The release's own declaration of fallbacks (0.5.x's arg_utils.fallbacks_of), faked."""
    names = ["sglang", "sglang.srt", "sglang.srt.arg_groups", "sglang.srt.arg_groups.arg_utils"]
    saved = {n: sys.modules.get(n) for n in names}
    for n in names:
        sys.modules[n] = types.ModuleType(n)
    sys.modules["sglang.srt.arg_groups.arg_utils"].fallbacks_of = lambda cls: {"swa_full_tokens_ratio": 0.8}  # type: ignore[attr-defined]
    yield
    for n, m in saved.items():
        if m is None:
            sys.modules.pop(n, None)
        else:
            sys.modules[n] = m


def test_parser_facts_kinds_types_choices_defaults_aliases() -> None:
    """Each flag's kind, type, choices and default as the parser has them; other long
    spellings are aliases; a flag whose help says deprecated is marked."""
    facts = probe._parser_facts(Record)
    flags: dict[str, Any] = facts["flags"]
    assert flags["tp-size"] == {"kind": "value", "type": "int", "default": 1}
    assert facts["aliases"]["tensor-parallel-size"] == "tp-size"
    assert flags["enable-metrics"]["kind"] == "bool"
    assert flags["lora-target-modules"]["kind"] == "list" and flags["lora-target-modules"]["choices"] == [
        "q_proj",
        "all",
    ]
    assert flags["kv-cache-dtype"]["choices"] == ["auto", "fp8_e4m3"] and flags["kv-cache-dtype"]["default"] == "auto"
    assert flags["enable-ep-moe"]["deprecated"].startswith("(Deprecated)")
    assert flags["no-disable-overlap"] == {"kind": "bool", "negates": "disable-overlap"}
    assert "fallback" not in flags["swa-full-tokens-ratio"]  # no release declaration: none read
    # A number flag's help (its unit, its number for no limit) is a fact the repair reads.
    assert flags["spill-size"]["help"] == "Spill pool size in gigabytes (-1 means unlimited)."
    assert "help" not in flags["swa-full-tokens-ratio"] and "help" not in flags["enable-metrics"]
    json.dumps(facts)  # one JSON line on the wire


def test_parser_facts_read_the_releases_fallbacks(fallbacks: None) -> None:
    """Where the release declares what an unset field resolves to, the fact carries it."""
    flags = probe._parser_facts(Record)["flags"]
    assert flags["swa-full-tokens-ratio"]["fallback"] == 0.8
    assert "fallback" not in flags["tp-size"]  # a flag with a default has no fallback


def test_the_catalogue_takes_the_hosts_facts() -> None:
    """with_parser: flags, choices, defaults, fallbacks and aliases follow the host's
    parser; the catalogue's own short names stay where the host has the flag."""
    catalog = load_catalog()
    facts = probe._parser_facts(Record)
    facts["flags"]["swa-full-tokens-ratio"]["fallback"] = 0.8
    host = catalog.with_parser(facts, "9.9")
    assert host.flags_from == "host parser 9.9"
    assert host.flag("tensor-parallel-size") == host.flag("tp-size")
    assert host.canonical("tp") == "tp-size"  # the catalogue's alias, the host has tp-size
    assert host.flag("swa-full-tokens-ratio").fallback == 0.8  # type: ignore[union-attr]
    assert host.flag("kv-cache-dtype").choices == ("auto", "fp8_e4m3")  # type: ignore[union-attr]
    assert not host.knows("max-lora-rank")  # 0.5.23 has it; this host does not
    assert catalog.with_parser({"error": "x"}) is catalog  # facts not read: unchanged


def test_the_static_table_is_the_real_0523_parser() -> None:
    """strategies/sglang.flags.json was read from SGLang 0.5.23's parser (with its fallbacks)."""
    table = json.loads((ROOT / "strategies" / "sglang.flags.json").read_text())
    assert table["version"] == "0.5.23"
    catalog = load_catalog()
    assert catalog.flag("swa-full-tokens-ratio").fallback == 0.8  # type: ignore[union-attr]
    assert catalog.flag("elastic-ep-backend").choices == ("none", "mooncake", "nixl")  # type: ignore[union-attr]
    assert catalog.flag("tp").default == 1  # type: ignore[union-attr]
