"""Issue 14 round 37s, written before the change: "Invalid modality 'images' in
--limit-mm-data-per-request. Allowed modalities are: ['video', 'image', 'audio']" refuses the
first plural key of {"images": 4, "videos": 1}; "videos" would be refused next. Every key of
that level the list does not allow, near an allowed name, is renamed in the one move (the
limits stay), and "Allowed <things> are: [...]" is read as the list. Message ours, in the
shape of SGLang 0.5.11's check."""

from __future__ import annotations

from .test_json_args import first_value

MESSAGE = "Invalid modality 'images' in --limit-mm-data-per-request.Allowed modalities are: ['video', 'image', 'audio']"


def test_every_key_the_list_does_not_allow_is_renamed_at_once() -> None:
    value = first_value(
        {"limit-mm-data-per-request": '{"images": 4, "videos": 1}'},
        "ValueError",
        MESSAGE,
        "limit-mm-data-per-request",
    )
    assert value == {"image": 4, "video": 1}


def test_a_key_near_no_allowed_name_is_left_to_the_next_failure() -> None:
    value = first_value(
        {"limit-mm-data-per-request": '{"images": 4, "frames": 1}'},
        "ValueError",
        MESSAGE,
        "limit-mm-data-per-request",
    )
    assert value == {"image": 4, "frames": 1}
