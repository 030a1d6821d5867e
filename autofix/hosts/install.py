"""What autofix puts on a host: its stdlib scripts (autofix/probes) and, for a remote sim
target, the simulated SGLang's tree. Content-addressed, so each version is copied once
and two versions of autofix never run each other's scripts.
"""

from __future__ import annotations

import hashlib
import io
import tarfile
from importlib import resources
from pathlib import Path

from ..errors import HostError
from .base import Host


def _scripts() -> dict[str, bytes]:
    """Every host-side script of autofix/probes (the scripts import their shared helpers
    from the directory they are copied to, so they travel together)."""
    folder = resources.files("autofix.probes")
    return {
        item.name: item.read_bytes()
        for item in sorted(folder.iterdir(), key=lambda i: i.name)
        if item.name.endswith(".py") and item.name != "__init__.py"
    }


def install_script(host: Host, name: str) -> str:
    """Copy the host-side scripts once (one content-addressed directory) and return the
    path of ``name`` there."""
    scripts = _scripts()
    if name not in scripts:
        raise KeyError(f"no host-side script {name!r} in autofix/probes")
    digest = hashlib.sha256(b"".join(n.encode() + b"\0" + t for n, t in scripts.items())).hexdigest()[:10]
    folder = f"{host.workdir}/bin/probes-{digest}"
    if not host.read(f"{folder}/.complete", limit=1):
        for script, text in scripts.items():
            host.put(f"{folder}/{script}", text, mode=0o755)
        host.put(f"{folder}/.complete", b"ok")
    return f"{folder}/{name}"


def install_tree(host: Host, local: Path, name: str) -> str:
    """Copy a directory tree to the host once (content-addressed); its path there.

    Used for the simulated SGLang when the sim target runs on a remote host.
    """
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path in sorted(local.rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            tar.add(path, arcname=str(path.relative_to(local)))
    data = buffer.getvalue()
    digest = hashlib.sha256(data).hexdigest()[:10]
    target = f"{host.workdir}/trees/{name}-{digest}"
    if host.read(f"{target}/.complete", limit=1):
        return target
    host.put(f"{target}.tar.gz", data)
    unpack = (
        "import sys, tarfile; t = tarfile.open(sys.argv[1]); t.extractall(sys.argv[2]); "
        "open(sys.argv[2] + '/.complete', 'w').write('ok')"
    )
    result = host.run(["python3", "-c", unpack, f"{target}.tar.gz", target], timeout=120)
    if not result.ok:
        raise HostError(f"{host.name}: cannot unpack {name}: {result.stderr.strip()[-300:]}")
    return target
