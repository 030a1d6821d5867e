"""A throwaway OpenSSH server on 127.0.0.1 (Debian's openssh-server), for tests and benchmarks.

Its own host key, a client key, an sshd_config, an ssh config alias ``gpu-sim`` and a
HOME whose ~/.ssh holds them; sshd runs in the foreground (-D) as our child.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Sshd:
    root: Path
    port: int
    config: Path
    host_key_pub: str
    client_key: Path
    ssh_config: Path  # client config with the alias "gpu-sim"
    known_hosts: Path
    home: Path  # a HOME whose ~/.ssh has the key, known_hosts and config
    process: subprocess.Popen[bytes] | None = None
    host_tmp: Path | None = None  # its sessions' TMPDIR

    def close(self) -> None:
        """Stop it for good: the server, its sessions, and its sessions' temp dir."""
        self.stop()
        if self.host_tmp is not None:
            shutil.rmtree(self.host_tmp, ignore_errors=True)

    @property
    def spec(self) -> str:
        return f"root@127.0.0.1:{self.port}"

    def start(self) -> None:
        Path("/run/sshd").mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [SSHD, "-D", "-e", "-f", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "sshd.log", "ab"),  # noqa: SIM115 - lives as long as sshd
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"sshd did not start: {(self.root / 'sshd.log').read_text()}")

    def stop(self, *, sessions: bool = True) -> None:
        """Stop the listener and (by default) every session it serves, as a restart of
        the daemon with its connections dropped would. Only this server's sessions: other
        sshds on the machine (other tests, other users) keep theirs."""
        if self.process is None:
            return
        ours = _sessions(self.process.pid) if sessions else []
        self.process.terminate()
        self.process.wait(timeout=10)
        self.process = None
        for pid in ours:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)


def _sessions(root: int) -> list[int]:
    """The session processes below the listener ``root`` (``sshd: root@notty``,
    ``sshd-session``), from /proc; what the sessions run is left to see its EOF."""
    children: dict[int, list[int]] = {}
    commands: dict[int, bytes] = {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            commands[int(name)] = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if commands.get(child, b"").startswith(b"sshd"):
                found.append(child)
                todo.append(child)
    return found


def _keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path.with_suffix(".pub").read_text().strip() if path.suffix else Path(f"{path}.pub").read_text().strip()


def make_sshd(root: Path, *, sftp: bool = True) -> Sshd:
    """Keys, configs and a started sshd under ``root``; ``sftp=False`` leaves the
    ``Subsystem sftp`` line out, as hardened hosts do."""
    if not Path(SSHD).exists():
        raise RuntimeError("sshd is not installed (Debian's openssh-server)")
    port = _free_port()
    host_key = root / "ssh_host_ed25519_key"
    host_pub = _keygen(host_key)
    home = root / "home"
    (home / ".ssh").mkdir(parents=True)
    client_key = home / ".ssh" / "id_ed25519"
    client_pub = _keygen(client_key)
    authorized = root / "authorized_keys"
    authorized.write_text(client_pub + "\n")
    authorized.chmod(0o600)
    # Short, in /tmp: a sim host's forkserver puts an AF_UNIX socket under its TMPDIR, and
    # socket paths have 108 bytes at most (pytest's temp paths can be longer than that).
    host_tmp = Path(tempfile.mkdtemp(prefix="afx-sshd-", dir="/tmp"))
    config = root / "sshd_config"
    config.write_text(
        "\n".join(
            [
                f"Port {port}",
                "ListenAddress 127.0.0.1",
                f"HostKey {host_key}",
                f"PidFile {root / 'sshd.pid'}",
                f"AuthorizedKeysFile {authorized}",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PermitRootLogin prohibit-password",
                "StrictModes no",
                "UsePAM no",
                *(["Subsystem sftp internal-sftp"] if sftp else []),
                "LogLevel ERROR",
                # Sessions get this server's own temp dir: the host work dir (and a sim
                # host's lock) of one server's clients is theirs alone.
                f"SetEnv TMPDIR={host_tmp}",
                "",
            ]
        )
    )
    known_hosts = home / ".ssh" / "known_hosts"
    key_type, key_b64 = host_pub.split()[:2]
    known_hosts.write_text(f"[127.0.0.1]:{port} {key_type} {key_b64}\n")
    ssh_config = home / ".ssh" / "config"
    ssh_config.write_text(
        "\n".join(
            [
                "Host gpu-sim",
                "  HostName 127.0.0.1",
                f"  Port {port}",
                "  User root",
                f"  IdentityFile {client_key}",
                f"  UserKnownHostsFile {known_hosts}",
                "",
            ]
        )
    )
    server = Sshd(root, port, config, host_pub, client_key, ssh_config, known_hosts, home, host_tmp=host_tmp)
    server.start()
    return server
