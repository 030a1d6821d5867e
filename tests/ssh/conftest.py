"""The SSH tests use the ``sshd`` fixture of tests/conftest.py (a real OpenSSH server)."""

from __future__ import annotations

from bench.sshd import Sshd

__all__ = ["Sshd"]
