"""Issue 14 round 43, written after sglang-0.5.23-thirty-first was scored at e7449b5 (its
qwen3moe-log-level-verbose dropped --log-level; 0.5.11-fifth's log-level-trace-uvicorn-style
the same: in sample).

--log-level has no choice list: SGLang looks the upper-cased word up on Python's logging
module, which knows DEBUG, INFO, WARNING, ERROR and CRITICAL ("module 'logging' has no
attribute 'VERBOSE'"). A level word of another logging system means one of those: trace,
verbose and all the most detail Python has (debug), notice info, warn warning, fatal critical.
A word that is no level gets no such move. The wording is Python's; the values are ours."""

from __future__ import annotations

import pytest

from .proposing import proposed_labels


@pytest.mark.parametrize(
    ("given", "meant"),
    [("verbose", "debug"), ("trace", "debug"), ("TRACE", "debug"), ("notice", "info"), ("fatal", "critical")],
)
def test_a_level_word_of_another_logging_system_is_pythons_level(given: str, meant: str) -> None:
    labels = proposed_labels(
        {"log-level": given, "tp-size": "4"},
        "AttributeError",
        f"module 'logging' has no attribute '{given.upper()}'",
    )
    assert labels[0] == f"set log-level={meant}"


def test_the_level_of_the_flag_that_holds_the_word_is_set() -> None:
    labels = proposed_labels(
        {"log-level": "info", "log-level-http": "verbose"},
        "AttributeError",
        "module 'logging' has no attribute 'VERBOSE'",
    )
    assert labels[0] == "set log-level-http=debug"


def test_a_word_that_is_no_level_gets_no_level() -> None:
    labels = proposed_labels({"log-level": "chatty"}, "AttributeError", "module 'logging' has no attribute 'CHATTY'")
    assert not any(label.startswith("set log-level=") for label in labels)


def test_offline_the_level_flag_gets_the_level_meant() -> None:
    """Round 44y, written before the change: offline the command's values are unknown, but
    a level word is what --log-level holds (SGLang looks it up on logging): set to the
    level it means, not nothing."""
    from autofix.catalog import load_catalog
    from autofix.classify import classify
    from autofix.model import Gate
    from autofix.repair import offline_moves
    from autofix.tracebacks import parse_text

    catalog = load_catalog()
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/sglang/srt/utils/toy_logging.py", line 9, in configure_logger\n'
        "    level=getattr(logging, server_args.log_level.upper()),\n"
        "AttributeError: module 'logging' has no attribute 'VERBOSE'\n"
    )
    moves = offline_moves(classify(parse_text(text), catalog, Gate.PREFLIGHT), catalog)
    assert [m.label() for m in moves][:1] == ["set log-level=debug"]
