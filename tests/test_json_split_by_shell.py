"""Issue 14 round 38g, written before the change.

A launch line built from an unquoted shell variable splits a JSON value at every space:
--json-model-override-args takes '{"rope_scaling":' and argparse cannot place the rest
("unrecognized arguments: {"rope_type": "yarn", ...}}"). The words the flag holds, joined
again with spaces, are the JSON the user wrote: that is the value, before keeping only the
first word (which is no JSON at all). Words that do not join into JSON keep the first-value
reading (vLLM's several served model names). The message is argparse's wording."""

from __future__ import annotations

from .proposing import proposed_labels

SPLIT = (
    '{"rope_scaling":',
    '{"rope_type":',
    '"yarn",',
    '"factor":',
    "2.0,",
    '"original_max_position_embeddings":',
    "8192}}",
)


def test_json_split_at_spaces_is_joined_again() -> None:
    message = "launch_server.py: error: unrecognized arguments: " + " ".join(SPLIT[1:])
    labels = proposed_labels({"json-model-override-args": SPLIT, "tp-size": "2"}, "argparse_error", message)
    assert labels[0] == "set json-model-override-args=" + " ".join(SPLIT), labels


def test_words_that_are_no_json_keep_the_first() -> None:
    message = "launch_server.py: error: unrecognized arguments: alias-b"
    labels = proposed_labels({"served-model-name": ("alias-a", "alias-b")}, "argparse_error", message)
    assert labels[0] == "set served-model-name=alias-a", labels
