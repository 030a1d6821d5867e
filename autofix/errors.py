"""The one exception tree of autofix.

Every failure autofix itself reports is one of these; foreign exceptions (paramiko,
SQLAlchemy, OSError, yaml) are translated at the edge that meets them
(``raise HostUnreachable(...) from exc``). Each class carries the process exit code
the command line uses (DESIGN.md, Command line)::

    AutofixError                    exit 1
    ├── InputError                  exit 2   bad input: nothing is written
    │   ├── ConfigError             a base config (file + key path in the message)
    │   ├── CatalogError            strategies/*.yaml
    │   └── UnknownRecord           a run or attempt id that the store does not have
    ├── HostError                   exit 3   the host could not be reached or used
    │   ├── HostUnreachable         cannot connect at all
    │   ├── HostLost                the host dropped or rebooted mid-attempt
    │   ├── PortTaken               the candidate's port is held by a process not of this search
    │   └── ProbeError              the preflight probe could not run (no SGLang, crash)
    ├── StoreError                  exit 3   the database could not be opened or written
    └── ToolError                   exit 3   a program autofix runs here is missing or failed (dot)
"""

from __future__ import annotations


class AutofixError(Exception):
    """Base of every error autofix raises on purpose."""

    exit_code = 1


class InputError(AutofixError):
    """The user's input is wrong; the message names the file, key or flag."""

    exit_code = 2


class ConfigError(InputError):
    """A base config that cannot be used as given."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        # A hostile key (a newline, a control character) is shown escaped: one line always.
        shown = key if key.isprintable() else key.encode("unicode_escape").decode("ascii")
        where = f"{source}: {shown}" if key else source
        super().__init__(f"{where}: {problem}")


class CatalogError(InputError):
    """A strategies file that does not validate."""


class UnknownRecord(InputError):
    """A run or attempt id that is not in the store."""


class HostError(AutofixError):
    """The host could not be reached or did not behave."""

    exit_code = 3


class HostUnreachable(HostError):
    """No connection to the host could be made."""


class HostLost(HostError):
    """The host went away in the middle of an attempt (drop, reboot)."""


class PortTaken(HostError):
    """Another process (not the candidate, not a service.conflicts unit) holds the
    candidate's port: nothing answering there can tell anything about the candidate."""


class ProbeError(HostError):
    """The preflight probe could not be run on the host."""


class StoreError(AutofixError):
    """The store could not be opened, migrated or written."""

    exit_code = 3


class ToolError(AutofixError):
    """A program autofix runs on this machine (graphviz's dot) is missing or failed: the
    message names the package that provides it."""

    exit_code = 3
