"""A throwaway PostgreSQL server for the store's contract suite (Debian's postgresql).

PostgreSQL refuses to run as root, so the cluster belongs to the ``postgres`` user when
the tests run as root; it listens on 127.0.0.1 on a free port and is removed afterwards.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _binary(name: str) -> str:
    for directory in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (directory / name).exists():
            return str(directory / name)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (apt-get install postgresql)")
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def postgres_server() -> Iterator[str]:
    """Yields a SQLAlchemy URL of a fresh database."""
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    root = Path(tempfile.mkdtemp(prefix="autofix-pg-"))
    data = root / "data"
    if as_root:
        shutil.chown(root, "postgres")
    port = _free_port()
    subprocess.run(
        [*prefix, _binary("initdb"), "-D", str(data), "-A", "trust", "-U", "autofix"], check=True, capture_output=True
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        [*prefix, _binary("pg_ctl"), "-D", str(data), "-o", options, "-w", "-l", str(root / "log"), "start"],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://autofix@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, _binary("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], capture_output=True, check=False
        )
        shutil.rmtree(root, ignore_errors=True)
