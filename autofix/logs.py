"""structlog configuration: console lines for people, JSON lines with --log-json.

Logs go to stderr (stdout is for results such as ``search --json``). Quiet by default:
the live display is the CLI's; logs are for -v and for machines. Every event passes
through the process's secrets (autofix/secrets.py) before it is rendered: a value the run
knows as secret never reaches a log line, whatever logged it.
"""

from __future__ import annotations

import logging
import sys

import structlog

from .secrets import kept_out


def _scrub_secrets(_logger: object, _name: str, event: structlog.typing.EventDict) -> structlog.typing.EventDict:
    scrubbed: structlog.typing.EventDict = kept_out().scrub_tree(dict(event))
    return scrubbed


def configure(*, json_lines: bool = False, verbose: bool = False) -> None:
    level = logging.DEBUG if verbose else (logging.INFO if json_lines else logging.WARNING)
    processors: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _scrub_secrets,
    ]
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if json_lines else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[*processors, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def get_logger(name: str = "autofix") -> structlog.typing.FilteringBoundLogger:
    return structlog.get_logger(name)  # type: ignore[no-any-return]
