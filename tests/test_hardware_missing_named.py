"""Issue 14 round 44x, written before the change (users30's and users31's PD launches on
hosts without InfiniBand, in our words): offline, a failure that says hardware is missing
("InfiniBand sysfs path not found ... Please ensure InfiniBand drivers are installed") names,
by the words the parser's help uses for it (--disaggregation-ib-device: "The InfiniBand
devices for disaggregation transfer"), the flag that asked for it: that flag is left out
(its default, None, keeps the backend's own device selection), as the search does with the
command's values. A message that says nothing is missing gives no such move."""

from __future__ import annotations

from .proposing import FULL, offline_labels, proposed_labels

MESSAGE = "InfiniBand sysfs path not found: /sys/class/infiniband. Please ensure InfiniBand drivers are installed."


def _offline(message: str) -> list[str]:
    return offline_labels("RuntimeError", message)


def test_offline_the_flag_that_asked_for_the_missing_hardware_is_left_out() -> None:
    assert _offline(MESSAGE)[:1] == ["drop disaggregation-ib-device"]


def test_a_message_that_misses_nothing_names_no_such_flag() -> None:
    assert "drop disaggregation-ib-device" not in _offline("InfiniBand transfer finished with status 3.")


def test_the_search_leaves_it_out_too() -> None:
    args = {"disaggregation-mode": "prefill", "disaggregation-ib-device": "mlx5_0,mlx5_1", "tp-size": "8"}
    labels = proposed_labels(args, "RuntimeError", MESSAGE, catalog=FULL)
    assert labels and labels[0] == "drop disaggregation-ib-device", labels
