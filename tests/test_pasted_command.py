"""Issue 14 round 6, written before the change: a pasted log usually shows the command the
user ran above the failure. `autofix classify` reads it, so its moves are the ones the
search would make for that argv (sizes, the flags the user set), not guesses for an argv
it has not seen."""

from __future__ import annotations

import json

from autofix.catalog import load_catalog
from autofix.classify import classify
from autofix.model import Gate
from autofix.repair import offline_moves
from autofix.tracebacks import parse_text

from .test_cli import ROOT, autofix

CATALOG = load_catalog()
TB = (ROOT / "tests/data/sglang-0.5.23/tracebacks/par-dp-size-with-attn-dp.log").read_text()
# "The expert parallel size must be 1 or the same as the tensor parallel size": without the
# argv, dropping ep goes first; with tp 4 and ep 2 known, ep takes tp's value (the search's move).
EP = (ROOT / "tests/data/sglang-0.5.23/tracebacks/moe-flashinfer-cutlass-ep-mismatch.log").read_text()


def test_the_command_above_a_failure_is_read() -> None:
    """A shell prompt, the command split over lines with backslashes, then the log."""
    text = (
        "$ python3 -m sglang.launch_server --model-path /data/Qwen3-8B \\\n"
        "    --tp-size 4 --dp-size 2 \\\n"
        "    --attn-dp-size 2 --port 30000\n" + TB
    )
    journal = parse_text(text)
    assert "--attn-dp-size 2" in journal.command
    assert "--model-path /data/Qwen3-8B" in journal.command


def test_a_frame_naming_launch_server_is_no_command() -> None:
    """'File ".../sglang/launch_server.py", line 9' is a frame, never the command."""
    assert parse_text(TB).command == ""


def test_offline_moves_for_a_known_argv_are_the_searchs() -> None:
    """With the argv the log shows, the first move is the one propose() makes for it."""
    text = "sglang serve --model-path /m --tp 4 --ep 2 --moe-runner-backend flashinfer_cutlass\n" + EP
    journal = parse_text(text)
    diagnosis = classify(journal, CATALOG, Gate.PREFLIGHT)
    assert offline_moves(diagnosis, CATALOG)[0].label() == "drop ep-size"  # the argv unknown
    moves = offline_moves(diagnosis, CATALOG, command=journal.command)
    assert moves and moves[0].label() == "set ep=4"


def test_classify_uses_the_pasted_command() -> None:
    """End to end: `autofix classify -` on a paste with the command gives the search's move."""
    text = (
        "root@gpu:~# python -m sglang.launch_server --model-path /m --tp-size 4 --ep-size 2 "
        "--moe-runner-backend flashinfer_cutlass\n" + EP
    )
    done = autofix("classify", "-", "--json", cwd=ROOT, stdin=text)
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout)["moves"][0]
    assert (first["op"], first["flag"], str(first["value"])) == ("set", "ep-size", "4")
