"""The SSH host against a real OpenSSH server on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofix.hosts.ssh import HostKeyRefused, SshHost

from .conftest import Sshd

pytestmark = pytest.mark.integration


def test_alias_from_ssh_config_runs_commands_with_exact_arguments(sshd: Sshd) -> None:
    """The ssh-config alias resolves; an argv reaches the remote process byte for byte."""
    host = SshHost("gpu-sim", ssh_config=str(sshd.ssh_config))
    try:
        hostile = "a b;$(touch /tmp/autofix-pwned)`id`'\"\\%"
        result = host.run(["python3", "-c", "import sys; print(sys.argv[1])", hostile])
        assert result.ok and result.stdout == hostile + "\n"
        assert not Path("/tmp/autofix-pwned").exists()
        assert host.run(["sh", "-c", "exit 7"]).returncode == 7  # a command's failure is a result
        host.put(f"{host.workdir}/t/x.txt", b"hello")
        assert host.read(f"{host.workdir}/t/x.txt") == b"hello"
        assert host.read(f"{host.workdir}/t/missing") == b""
        channel = host.spawn(["python3", "-c", "import sys\nfor l in sys.stdin: print(l.strip().upper(), flush=True)"])
        channel.send_line("ping")
        assert channel.read_line(10) == "PING\n"
        channel.close()
    finally:
        host.close()


def test_unknown_host_key_is_refused(sshd: Sshd, tmp_path: Path) -> None:
    """With the key not in known_hosts the connection is refused with a clear error."""
    config = tmp_path / "config"
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    config.write_text(sshd.ssh_config.read_text().replace(str(sshd.known_hosts), str(empty)))
    with pytest.raises(HostKeyRefused, match="unknown host key"):
        SshHost("gpu-sim", ssh_config=str(config))
    assert empty.read_text() == ""


def test_accept_new_records_the_key_but_a_changed_key_is_refused(sshd: Sshd, tmp_path: Path) -> None:
    """--accept-new-host-key records an unknown key; a key that changed is refused anyway."""
    config = tmp_path / "config"
    known = tmp_path / "known_hosts"
    known.write_text("")
    config.write_text(sshd.ssh_config.read_text().replace(str(sshd.known_hosts), str(known)))
    SshHost("gpu-sim", ssh_config=str(config), accept_new_host_key=True).close()
    assert sshd.host_key_pub.split()[1] in known.read_text()
    SshHost("gpu-sim", ssh_config=str(config)).close()  # now known: accepted without the flag

    import subprocess

    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)], check=True)
    wrong = Path(f"{other}.pub").read_text().split()[1]
    known.write_text(f"[127.0.0.1]:{sshd.port} ssh-ed25519 {wrong}\n")
    with pytest.raises(HostKeyRefused, match="CHANGED"):
        SshHost("gpu-sim", ssh_config=str(config), accept_new_host_key=True)


def test_retries_of_a_refused_connection_are_told(tmp_path: Path) -> None:
    """A port where nothing listens (sshd restarting): each wait between tries is told,
    with the try's number, before the host is given up as unreachable."""
    import socket

    from autofix.errors import HostUnreachable

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    told: list[str] = []
    with pytest.raises(HostUnreachable):
        SshHost(f"root@127.0.0.1:{port}", retry_seconds=2.0, on_retry=told.append)
    assert told and told[0].startswith(f"connecting to root@127.0.0.1:{port}, try 2/12")
