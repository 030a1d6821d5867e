"""The operator's console (#16): --db takes a path, value types are checked at load, a
missing program is exit 3 with its package, classify says where a journal comes from,
and the export formats the CLI offers are the exporter's."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from autofix.cli import EXPORT_FORMATS
from autofix.export import FORMATS

from .conftest import ROOT


def autofix(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "COLUMNS": "200", "TMPDIR": str(cwd), **(env or {})}
    if env is None or "AUTOFIX_DB" not in env:
        full.pop("AUTOFIX_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "autofix.cli", *args], cwd=cwd, capture_output=True, text=True, env=full, check=False
    )


def test_the_cli_offers_the_exporters_formats() -> None:
    assert EXPORT_FORMATS == FORMATS


def test_db_takes_a_path_or_a_url(tmp_path: Path) -> None:
    """--db runs.db, --db /abs/y.db and a SQLAlchemy URL all name a store."""
    (tmp_path / "sub").mkdir()
    for db, made in (("runs.db", tmp_path / "runs.db"), (str(tmp_path / "y.db"), tmp_path / "y.db")):
        done = autofix("history", "--db", db, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert made.exists()
        assert sqlite3.connect(made).execute("select count(*) from runs").fetchone() == (0,)
    url = f"sqlite:///{tmp_path / 'z.db'}"
    assert autofix("history", "--db", url, cwd=tmp_path).returncode == 0 and (tmp_path / "z.db").exists()


def test_a_value_of_the_wrong_type_is_bad_input_at_load(tmp_path: Path) -> None:
    """`tp: lots` is refused when the base is read (exit 2, file and key), before any search.
    (A number word, `tp: eight`, has a reading since round 39: the search reads it as 8.)"""
    base = tmp_path / "b.yaml"
    base.write_text((ROOT / "examples" / "k26-eagle3.yaml").read_text().replace("tp: 8", "tp: lots"))
    done = autofix("search", "--base", str(base), "--host", "sim", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "b.yaml: launch.args.tp: must be an integer (SGLang's --tp-size takes one), got 'lots'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "runs.db").exists()


def test_a_missing_program_is_exit_3_with_its_package(tmp_path: Path) -> None:
    """graph --format html without graphviz: exit 3 (not bad input), naming the apt package."""
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    code = (
        f"from autofix.store import open_store; s = open_store({db!r}); "
        "s.create_run(name='n', base_path='b', base_text='launch: {args: {}}', host='h', target='t')"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    empty = tmp_path / "bin"
    empty.mkdir()
    done = autofix("graph", "1", "--format", "html", "--db", db, cwd=tmp_path, env={"PATH": str(empty)})
    assert done.returncode == 3, done.stderr
    assert "apt-get install graphviz" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_classify_says_where_a_journal_comes_from(tmp_path: Path) -> None:
    done = autofix("classify", "--help", cwd=tmp_path)
    assert done.returncode == 0 and "journalctl -u UNIT | autofix classify -" in done.stdout
