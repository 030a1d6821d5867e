"""Issue 14 round 30, written before the change.

A check that wants each JSON object to carry two keys, a name and what it names
("does not contain 'lora_name' and 'lora_path' keys"), given one object that maps names to
values ({"sql": "/a", "chat": "/b"}): the user wrote the records as a mapping. Each entry
becomes a record of its own, the entry's key under the first key the check requires and
its value under the second, one member of the list flag each. Keys that already share a
word with the required ones are renamed as before.

These tests use their own names and paths."""

from __future__ import annotations

import json

from .proposing import proposed

MESSAGE = (
    '\'{"docs": "/srv/ad/docs", "code": "/srv/ad/code"}\' looks like a JSON str, '
    "but it does not contain 'lora_name' and 'lora_path' keys."
)


def test_a_mapping_of_names_to_paths_becomes_one_record_each() -> None:
    _, proposals = proposed(
        {"enable-lora": True, "lora-paths": ('{"docs": "/srv/ad/docs", "code": "/srv/ad/code"}',)},
        "AssertionError",
        MESSAGE,
    )
    assert proposals
    edit = proposals[0].move.edits[0]
    assert edit.target == "lora-paths"
    assert [json.loads(v) for v in edit.value] == [
        {"lora_name": "docs", "lora_path": "/srv/ad/docs"},
        {"lora_name": "code", "lora_path": "/srv/ad/code"},
    ]


def test_keys_that_share_a_word_are_still_renamed() -> None:
    _, proposals = proposed(
        {"enable-lora": True, "lora-paths": ('{"name": "docs", "path": "/srv/ad/docs"}',)},
        "AssertionError",
        "does not contain 'lora_name' and 'lora_path' keys.",
    )
    assert [json.loads(v) for v in proposals[0].move.edits[0].value] == [
        {"lora_name": "docs", "lora_path": "/srv/ad/docs"}
    ]


def test_a_list_flag_given_once_is_held_bare_and_still_split() -> None:
    _, proposals = proposed(
        {"enable-lora": True, "lora-paths": '{"docs": "/srv/ad/docs", "code": "/srv/ad/code"}'},
        "AssertionError",
        MESSAGE,
    )
    assert [json.loads(v) for v in proposals[0].move.edits[0].value] == [
        {"lora_name": "docs", "lora_path": "/srv/ad/docs"},
        {"lora_name": "code", "lora_path": "/srv/ad/code"},
    ]
