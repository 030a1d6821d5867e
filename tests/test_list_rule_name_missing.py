"""Issue 14 round 38l, written before the change.

A list flag whose first member names the rule the rest follow ("--prompt-tokens-buckets
custom 100 1000 10000"), given only the numbers: "Unsupported --prompt-tokens-buckets rule
type: '100'. Must be one of: 'tse', 'default', 'custom'". The rule name was left out: the
numbers stay and the name that means values the user gives (custom, manual, explicit ...)
goes in front; a listed name with no such meaning is tried after it, and dropping the flag
comes last. A first member that is a word is read as a misspelt name, as before. The wording
is SGLang 0.5.23's shape; the numbers are ours."""

from __future__ import annotations

from .proposing import proposed_labels


def _labels(members: tuple[str, ...], names: str) -> list[str]:
    message = f"Unsupported --prompt-tokens-buckets rule type: '{members[0]}'. Must be one of: {names}"
    return proposed_labels({"prompt-tokens-buckets": members, "tp-size": "2"}, "AssertionError", message)


def test_the_name_of_user_given_values_goes_in_front() -> None:
    labels = _labels(("50", "500", "5000"), "'tse', 'default', 'custom'")
    assert labels[0] == "set prompt-tokens-buckets=custom 50 500 5000", labels
    assert labels.index("set prompt-tokens-buckets=custom 50 500 5000") < labels.index("drop prompt-tokens-buckets")


def test_without_such_a_name_each_listed_one_is_tried_in_order() -> None:
    labels = _labels(("50", "500", "5000"), "'exp', 'linear'")
    assert labels[:2] == ["set prompt-tokens-buckets=exp 50 500 5000", "set prompt-tokens-buckets=linear 50 500 5000"]


def test_a_word_first_is_no_missing_name() -> None:
    labels = _labels(("costum", "50", "500"), "'tse', 'default', 'custom'")
    assert "set prompt-tokens-buckets=custom costum 50 500" not in labels
