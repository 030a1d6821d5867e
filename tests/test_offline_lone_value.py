"""Issue 14 round 44z, written before the change (0.5.11-ninth's and -tenth's served names
with a colon, in our values): offline, a message that names one flag (by its field) and
shows one value it refuses ("served_model_name cannot contain a colon ... Invalid value:
'toy:7b'") shows that flag's value: the moves computed from it (the colon replaced) are
made as the search makes them, before the flag is left out. Two flags named, or none, show
no such value."""

from __future__ import annotations

from .proposing import offline_labels


def _offline(message: str) -> list[str]:
    return offline_labels("AssertionError", message)


def test_the_value_a_message_shows_for_the_one_flag_it_names_is_read() -> None:
    message = (
        "served_model_name cannot contain a colon (':') character. The colon is reserved for the "
        "'model:adapter' syntax. Invalid value: 'toy:7b'"
    )
    assert _offline(message)[:1] == ["set served-model-name=toy-7b"]


def test_a_value_shown_beside_two_named_flags_is_no_ones() -> None:
    message = "served_model_name and tokenizer_path disagree. Invalid value: 'toy:7b'"
    assert "set served-model-name=toy-7b" not in _offline(message)
