"""Issue 14 round 48h, written before the change: a check that refuses a file by its kind,
showing the extension it got ("must be YAML format, got: .json", "expected a .yaml file, got
'.toml'"), refuses the one file the command gives with that extension: the flag holding it
goes (the file is no file of that flag's; the 0.5.23 thirty-sixth set's shape: a model's
config.json given to the server's --config). A message whose extension no value of the
command ends with moves nothing by this reading. Our own messages."""

from __future__ import annotations

import pytest

from .proposing import proposed


@pytest.mark.parametrize(
    "said",
    [
        "Config file must be YAML format, got: .json",
        "expected a .yaml file for the launch options, got '.json'",
    ],
)
def test_the_flag_holding_a_file_of_the_refused_kind_goes(said: str) -> None:
    args = {"config": "/models/qwen/config.json", "tp-size": 2, "chat-template": "/t/chat.jinja"}
    _, found = proposed(args, "ValueError", said)
    assert found and found[0].move.label() == "drop config"


def test_no_file_of_that_kind_no_move_from_it() -> None:
    args = {"config": "/etc/sglang/launch.yaml", "tp-size": 2}
    _, found = proposed(args, "ValueError", "Config file must be YAML format, got: .json")
    assert "drop config" not in [p.move.label() for p in found]
