"""graph RUN --format html: one self-contained page that a real browser draws."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from ..conftest import ROOT
from .helpers import cli

pytestmark = pytest.mark.integration


def test_html_graph_is_drawn_in_headless_chromium(tmp_path: Path, chromium: str, graphviz_dot: str) -> None:
    """Chromium renders the page: the SVG has one node per candidate and the winner's path."""
    done = cli("search", "--base", str(ROOT / "examples" / "k26-eagle3.yaml"), "--host", "sim", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout.strip().splitlines()[-1])["run"]
    page = tmp_path / "graph.html"
    assert cli("graph", str(run), "--format", "html", "-o", str(page), cwd=tmp_path).returncode == 0
    assert "<script" not in page.read_text() and "http" not in re.sub(r'xmlns(:xlink)?="[^"]*"', "", page.read_text())
    browser = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]  # fmt: skip
    dom = subprocess.run(
        [*browser, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120, check=False
    ).stdout
    attempts = json.loads(cli("history", str(run), "--json", cwd=tmp_path).stdout)["attempts"]
    nodes = re.findall(r'<g id="node\d+" class="node">', dom)
    assert len(nodes) >= len(attempts)  # every attempt, plus the untried children
    assert "set speculative-eagle-topk=1" in dom and 'stroke-width="3"' in dom  # move labels; winner path bold
    assert dom.count('<tr class="') == len(attempts)
    # Each attempt's failure message and the winner's bench figures; a legend for every mark.
    assert "speculative_eagle_topk &gt; 1 with page_size &gt; 1" in dom
    assert re.search(r'<td class="bench">[\d.]+ tok/s, [\d.]+ tok/s at 8 streams, accept length [\d.]+</td>', dom)
    legend = dom[dom.index('<ul id="legend">') :]
    for mark in ("passed", "failed", "untried", "solid edge", "dashed edge", "inferred move", "bold"):
        assert mark in legend, mark
    shot = tmp_path / "graph.png"
    subprocess.run(
        [*browser, f"--screenshot={shot}", "--window-size=1200,1600", page.as_uri()],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert shot.exists() and shot.stat().st_size > 20_000  # a drawing, not a blank page
