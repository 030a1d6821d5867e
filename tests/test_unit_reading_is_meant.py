"""Issue 14 round 45o, written before the change (0.5.23-thirtieth's KV canary sweep, in our
words): a value the parser refused for how it is written ('60s' for a count, '90%' for a
ratio), read as the number it means, is the user's own value: the search weighs what comes
after from that number, so the check that follows ("--x-sweep-interval requires --x-canary in
{log, raise}") is met by adding the flag it asks for, not by setting the user's 60 to 0, which
turns the sweep off."""

from __future__ import annotations

from autofix.model import SPELLED_ORIGIN, Candidate, Edit, EditOp, Move
from autofix.search import Child, Search

from .proposing import proposed_labels


def test_the_unit_reading_is_proposed_as_what_was_meant() -> None:
    message = "launch_server.py: error: argument --zz-sweep-interval: invalid int value: '60s'"
    assert proposed_labels({"zz-sweep-interval": "60s"}, "SystemExit", message)[:1] == ["set zz-sweep-interval=60"]


def test_after_it_the_flag_asked_for_goes_before_turning_the_sweep_off() -> None:
    base = Candidate.build({"model-path": "/m", "zz-sweep-interval": "60s"})
    search = Search(base)
    assert search.ask() is not None
    read = Move((Edit(EditOp.SET, "zz-sweep-interval", "60"),), inferred=True, origin=SPELLED_ORIGIN)
    sixty = base.with_arg("zz-sweep-interval", "60")
    search.tell(base.key, "failed", [Child(sixty, read, 0)], None, "typed")
    picked = search.ask()
    assert picked is not None and picked.candidate.key == sixty.key
    off = Move((Edit(EditOp.SET, "zz-sweep-interval", "0"),), inferred=True, origin="source")
    asked = Move((Edit(EditOp.SET, "zz-canary", "log"),), inferred=True, origin="message")
    children = [
        Child(sixty.with_arg("zz-sweep-interval", "0"), off, 0),
        Child(sixty.with_arg("zz-canary", "log"), asked, 1),
    ]
    search.tell(sixty.key, "failed", children, None, "requires")
    picked = search.ask()
    assert picked is not None and picked.move == asked
