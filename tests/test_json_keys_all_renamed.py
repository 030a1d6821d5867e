"""Issue 14 round 37s, written before the change: "Invalid modality 'images' in
--limit-mm-data-per-request. Allowed modalities are: ['video', 'image', 'audio']" refuses the
first plural key of {"images": 4, "videos": 1}; "videos" would be refused next. Every key of
that level the list does not allow, near an allowed name, is renamed in the one move (the
limits stay), and "Allowed <things> are: [...]" is read as the list. Message ours, in the
shape of SGLang 0.5.11's check."""

from __future__ import annotations

import pytest

from .test_json_args import first_value

MESSAGE = "Invalid modality 'images' in --limit-mm-data-per-request.Allowed modalities are: ['video', 'image', 'audio']"


@pytest.mark.parametrize(
    ("given", "meant"),
    [
        # every key the list does not allow is renamed at once
        ('{"images": 4, "videos": 1}', {"image": 4, "video": 1}),
        # a key near no allowed name is left to the next failure
        ('{"images": 4, "frames": 1}', {"image": 4, "frames": 1}),
    ],
)
def test_the_keys_the_list_does_not_allow(given: str, meant: dict[str, int]) -> None:
    value = first_value({"limit-mm-data-per-request": given}, "ValueError", MESSAGE, "limit-mm-data-per-request")
    assert value == meant
