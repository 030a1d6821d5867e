"""Best-first search over repair moves: pure ask/tell over a networkx DiGraph.

Nodes are candidate keys; edges are repair moves (parent -> child). :meth:`Search.ask`
hands out the most promising untried candidate, :meth:`Search.tell` reports its outcome
and the children its failure suggests. Priority, in order:

1. cost from the base: how far from what the user wrote (the user's intent is worth
   keeping). Adding a flag the user left out, or retuning a number they set (topk 4 ->
   1), costs 1; taking away something they set, or replacing a choice they made (EAGLE ->
   DFLASH, a backend), costs 2 (taking away a value that asked for the server's own choice,
   "0" or "auto", costs 1: nothing of theirs is given up). So "add the two flags LoRA
   needs" ties with "turn LoRA off" and the catalogue's order decides, and a new algorithm
   is never tried before a smaller repair. A line of moves after which the same failure keeps coming back costs
   two more per repeat, so a parent's other moves are tried before digging further; a
   line that gets further (each fix uncovers the next failure) costs two less per step,
   so a chain of fixes is followed before the alternatives to its first step; a move that
   meets in advance a check the next attempt would fail (``Move.ahead``: a value set with
   what the host's checks ask of it) is weighed as that many steps further;
2. the move's past success rate for that failure class (from the store, any run): a
   move that fixed this class before goes first, even an inferred one;
3. curated before inferred moves;
4. the move's rank among its siblings (the catalogue's order of preference);
5. first proposed, first tried.

A candidate is never handed out twice. The search is deterministic for a given order of
outcomes, and can be rebuilt from stored attempts and edges (``--resume``).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

import networkx as nx

from .meant import DEFAULT_WORDS
from .model import SPELLED_ORIGIN, Candidate, EditOp, Move, diff

PENDING = "pending"
STALL_COST = 2  # per repeat of a failure down a line (or minus, per new failure uncovered)
RUNNING = "running"
MORE_GPUS_COST = 3  # a candidate that needs more GPUs than the base: after what fits the host
# A move that orphans or gives up a primary choice the failure does not name (an algorithm
# dropped for a size's limit): after the moves that keep them, even ones that edit more.
GIVES_UP_COST = 2
# A move whose sibling answered their parent's failure (the next failure was another one):
# it waits behind the line that goes on, as a line stalled twice would.
ANSWERED_COST = 2 * STALL_COST

Priority = tuple[int, float, int, int, int]


Shares = Iterable[tuple[Iterable[str], Iterable[str]]]
"""(a size's spellings, a switch's spellings): the size splits the other sizes' GPUs instead
of adding its own while the switch is on (Catalog.gpu_share_spellings)."""


def intent_cost(
    base: Candidate, candidate: Candidate, gpu_counts: Iterable[Iterable[str]] = (), gpu_shares: Shares = ()
) -> int:
    """How much of what the user wrote a candidate gives up (see the module docstring);
    ``gpu_counts``: the spellings of each size that counts GPUs (tp, pp, dp), raising one
    of which asks the operator for GPUs the host may not have."""
    groups = [tuple(g) for g in gpu_counts]
    machines = _machines(groups)
    changes = [_Change(kind, name, old, new, _edit_cost(old, new)) for kind, name, old, new in diff(base, candidate)]
    cost = sum(c.cost for c in changes)
    sizes = [c for c in changes if c.kind == "arg" and any(c.name in g for g in groups)]
    same_machines = not any(c.name in g for g in machines for c in sizes)
    if len(sizes) > 1 and same_machines and _gpus(base, groups) == _gpus(candidate, groups):
        # One size folded into another (pp 2 into tp 2): the same GPUs laid out anew, one
        # change however many sizes it rewrites.
        cost -= sum(c.cost for c in sizes) - 1
    more = more_gpus(base, candidate, groups, gpu_shares)
    per_node = len(sizes) == 1 and counted_over_nodes(sizes[0].old, sizes[0].new, _nodes(base, machines))
    if per_node and same_machines and not more and _groups_beyond(base, groups, gpu_shares):
        # A size given per node (TP 4 on two nodes), counted over the nodes as the engine
        # counts it (8): the same GPUs, spelled the engine's way.
        cost -= sizes[0].cost
    return cost + (MORE_GPUS_COST if more else 0)


class _Change(NamedTuple):
    """One row of a candidate's diff against the base, with what it costs."""

    kind: str
    name: str
    old: object
    new: object
    cost: int


def counted_over_nodes(old: object, new: object, nodes: float) -> bool:
    """``new`` is ``old``, a size given per node, times the node count (more than one): the
    size as the engine counts it, over all nodes (TP 8 on two nodes: 16)."""
    try:
        return nodes > 1 and float(str(new)) == float(str(old)) * nodes
    except ValueError:
        return False


def _machines(groups: Iterable[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The spellings of the size that counts machines (the node count)."""
    return [g for g in groups if "nnodes" in g]


def _nodes(c: Candidate, machines: Iterable[tuple[str, ...]]) -> float:
    """The node count the candidate gives (unset: 1)."""
    return max((_given(c, g) for g in machines), default=1.0)


def _inside(c: Candidate, gpu_shares: Shares) -> list[float]:
    """The sizes of the candidate's groups that split the GPUs (their switch on): the user
    has at least that many GPUs, whatever TP says."""
    return [_given(c, tuple(size)) for size, switch in gpu_shares if _switched_on(c, tuple(switch))]


def _groups_beyond(base: Candidate, groups: Iterable[tuple[str, ...]], gpu_shares: Shares) -> bool:
    """A group size of the user's larger than the GPUs the sizes count on one node: the
    user has more GPUs than TP says (MoE DP 8 on TP 4)."""
    machines = _machines(groups)
    gpus = _gpus(base, [g for g in groups if g not in machines])
    return any(size > gpus for size in _inside(base, gpu_shares))


def _gpus(c: Candidate, groups: Iterable[tuple[str, ...]]) -> float:
    """The product of the sizes that count hardware, as the candidate gives them."""
    return math.prod(_given(c, g) for g in groups)


def _switched_on(c: Candidate, spellings: tuple[str, ...]) -> bool:
    """Whether a switch is on; no switch (``()``) is always on."""
    if not spellings:
        return True
    value = next((c.arg(s) for s in spellings if c.has(s)), None)
    return value is not None and str(value).lower() not in ("false", "0", "no", "off")


def more_gpus(
    base: Candidate, candidate: Candidate, gpu_counts: Iterable[Iterable[str]], gpu_shares: Shares = ()
) -> bool:
    """Whether ``candidate`` raises a size that counts hardware (each given by its
    spellings) above the base's; an unset size is 1, every such size's default, and so is
    a size that shares the others' GPUs under a switch that is on."""
    sharing = {tuple(size): tuple(switch) for size, switch in gpu_shares}

    def size(c: Candidate, spellings: tuple[str, ...]) -> float:
        if spellings in sharing and _switched_on(c, sharing[spellings]):
            return 1.0
        return _given(c, spellings)

    groups = [tuple(g) for g in gpu_counts]
    machines = _machines(groups)
    if any(size(candidate, g) > size(base, g) for g in machines):
        return True
    # The GPUs one server takes are the product of its parallel sizes: a move that folds
    # one size into another (pp 2 into tp: tp 4 -> 8, pp gone) asks for none.
    gpus = [g for g in groups if g not in machines]
    # Groups that split the GPUs (16 attention-DP groups) live inside them: the user's own
    # sizes say there are at least that many GPUs, whatever the base's tp says.
    have = max([math.prod(size(base, g) for g in gpus), *_inside(base, gpu_shares)])
    # Fewer GPUs than the machines it spans: the sizes were given per node (TP 2 on four
    # nodes is two GPUs on each), so the host has that many on every node.
    nodes = _nodes(base, machines)
    if have < nodes:
        have *= nodes
    return math.prod(size(candidate, g) for g in gpus) > have


def _given(c: Candidate, spellings: tuple[str, ...]) -> float:
    """A size as the candidate gives it (unset: 1)."""
    value = next((c.arg(s) for s in spellings if c.has(s)), None)
    try:
        return float(str(value)) if value is not None else 1.0
    except ValueError:
        return 1.0


def _meant(base: Candidate, move: Move) -> Candidate:
    """What the user meant: ``base`` with a rename move's flags spelled as the parser
    knows them (a renamed flag keeps the user's intent: it costs nothing), a value given
    as the name it evidently meant (SPELLED_ORIGIN: EAGLE-3 is EAGLE3), and without
    the flags that move drops: flags of a release newer than the host's, or removed
    since, that the host cannot take at all."""
    renamed = {str(e.value) for e in move.edits if e.op is EditOp.RENAME}
    out = base
    for edit in move.edits:
        if edit.op is EditOp.RENAME:
            out = out.renamed(edit.target, str(edit.value))
        elif edit.op is EditOp.DROP and move.origin == "rename":
            out = out.without_arg(edit.target)
        elif (
            edit.op is EditOp.SET
            and edit.value is not None
            and (edit.target in renamed or move.origin == SPELLED_ORIGIN)
        ):
            out = out.with_arg(edit.target, edit.value)  # type: ignore[arg-type]
    return out


# Values that ask for what the server picks by itself: dropping one gives up nothing. ("none"
# is not one: it often names the choice that turns a feature off.)
_ASKS_FOR_DEFAULT = frozenset({"0", *DEFAULT_WORDS} - {"none", "null", "nil"})


def _edit_cost(old: object, new: object) -> int:
    if old is None:
        return 1
    if new is None:
        return 1 if str(old).strip().lower() in _ASKS_FOR_DEFAULT else 2
    if _is_number(old) and _is_number(new):
        # (a size or interval the user gave, set to 0, turns off what it sized: a removal)
        return 2 if float(str(new)) == 0 != float(str(old)) else 1
    return 2


def _is_number(value: object) -> bool:
    try:
        float(str(value))
    except ValueError:
        return False
    return not isinstance(value, bool)


@dataclass(frozen=True)
class Pick:
    candidate: Candidate
    parent_key: str | None
    move: Move | None
    depth: int


@dataclass(frozen=True)
class Child:
    """A child candidate a failure suggested, with the move that makes it."""

    candidate: Candidate
    move: Move
    rank: int
    gives_up: bool = False  # it gives up what the user asked for (repair.Proposal.gives_up)


def _takes_back(move: Move | None, parent: Mapping[str, object]) -> bool:
    """``move`` edits a flag the step that made ``parent`` edited: it takes that step back
    (drops what it set, sets it anew), which reaches an alternative, not a step further."""
    step = parent.get("move")
    if move is None or not isinstance(step, Move):
        return False
    return bool({e.target for e in move.edits} & {e.target for e in step.edits})


class Search:
    def __init__(
        self,
        base: Candidate,
        *,
        success_rates: Mapping[tuple[str | None, str], float] | None = None,
        gpu_counts: Iterable[Iterable[str]] = (),
        gpu_shares: Shares = (),
    ) -> None:
        self.base = base
        self._gpu_counts = [tuple(g) for g in gpu_counts]
        self._gpu_shares = [(tuple(size), tuple(switch)) for size, switch in gpu_shares]
        self.meant = base  # the base with its flags renamed as the parser knows them
        self.graph: nx.DiGraph[str] = nx.DiGraph()
        self._rates = dict(success_rates or {})
        self._heap: list[tuple[Priority, str]] = []
        self._seq = 0
        self._add(base, parent=None, move=None, class_id=None, rank=0, depth=0)

    # --- building --------------------------------------------------------------------
    def _priority(
        self,
        candidate: Candidate,
        move: Move | None,
        class_id: str | None,
        rank: int,
        stall: int = 0,
        gives_up: bool = False,
    ) -> Priority:
        if move is None:
            return (0, 0.0, 0, 0, self._seq)
        rate = self._rates.get((class_id, move.label()), 0.0)
        return (
            intent_cost(self.meant, candidate, self._gpu_counts, self._gpu_shares)
            + STALL_COST * (stall - move.ahead)  # a move that meets checks ahead: that many steps further
            + GIVES_UP_COST * gives_up,
            -rate,
            int(move.inferred),
            rank,
            self._seq,
        )

    def _add(
        self,
        candidate: Candidate,
        *,
        parent: str | None,
        move: Move | None,
        class_id: str | None,
        rank: int,
        depth: int,
        stall: int = 0,
        gives_up: bool = False,
    ) -> None:
        key = candidate.key
        if key in self.graph:
            if parent is not None and not self.graph.has_edge(parent, key):
                self.graph.add_edge(parent, key, move=move, class_id=class_id, rank=rank)
                again = self._priority(candidate, move, class_id, rank, stall, gives_up)
                self._reached_again(key, parent, move, depth, again)
            return
        self._seq += 1
        priority = self._priority(candidate, move, class_id, rank, stall, gives_up)
        self.graph.add_node(
            key,
            candidate=candidate,
            status=PENDING,
            priority=priority,
            parent=parent,
            move=move,
            depth=depth,
        )
        if parent is not None:
            self.graph.add_edge(parent, key, move=move, class_id=class_id, rank=rank)
        heapq.heappush(self._heap, (priority, key))

    def _reached_again(self, key: str, parent: str, move: Move | None, depth: int, priority: Priority) -> None:
        """A candidate still queued that another line reaches too (both missing flags at
        once, and the second after the first got further): it comes at the better of the
        two priorities, as a step of the line that gives it."""
        node = self.graph.nodes[key]
        if node["status"] != PENDING or priority >= node["priority"] or _takes_back(move, self.graph.nodes[parent]):
            return
        node.update(priority=priority, parent=parent, move=move, depth=depth)
        heapq.heappush(self._heap, (priority, key))

    # --- ask / tell ------------------------------------------------------------------
    def ask(self) -> Pick | None:
        """The best untried candidate, now marked running; None when none is left."""
        while self._heap:
            priority, key = heapq.heappop(self._heap)
            node = self.graph.nodes[key]
            if node["status"] != PENDING or priority != node["priority"]:
                continue  # tried already, or queued again at another priority
            node["status"] = RUNNING
            return Pick(node["candidate"], node["parent"], node["move"], node["depth"])
        return None

    def tell(
        self,
        key: str,
        status: str,
        children: Iterable[Child] = (),
        class_id: str | None = None,
        failure: str | None = None,
        caused: bool = False,
    ) -> None:
        """Record a candidate's outcome and queue the children its failure suggests.

        ``failure`` names the failure (its fingerprint): after a move the same failure
        came back (the move did not help: the line waits for the parent's other moves),
        or a new one did (it got further: that line goes on before the alternatives).
        ``caused``: the new failure names a flag the move edited (the move made it), so
        the move answered nothing its siblings would.
        """
        node = self.graph.nodes[key]
        node["status"] = status
        node["failure"] = failure or class_id
        parent = node["parent"]
        before = self.graph.nodes[parent].get("failure") if parent is not None else None
        same = before is not None and node["failure"] == before
        further = before is not None and node["failure"] is not None and not same
        node["stall"] = self.graph.nodes[parent].get("stall", 0) + 1 if same else 0
        node["progress"] = self.graph.nodes[parent].get("progress", 0) + 1 if further else 0
        if further and parent is not None and not caused:
            self._answered(parent, key)
        children = list(children)
        for child in children:
            self.meant = _meant(self.meant, child.move)
        for child in children:
            self._add(
                child.candidate,
                parent=key,
                move=child.move,
                class_id=class_id,
                rank=child.rank,
                depth=node["depth"] + 1,
                stall=node["stall"] - node["progress"],
                gives_up=child.gives_up,
            )

    def _answered(self, parent: str, key: str) -> None:
        """``key`` answered ``parent``'s failure (another came next): the parent's other
        moves, alternatives for a failure already answered, wait behind the line that goes
        on from it (they come back if it runs out)."""
        for sibling in self.graph.successors(parent):
            node = self.graph.nodes[sibling]
            if sibling == key or node["status"] != PENDING or node.get("answered"):
                continue
            node["answered"] = True
            cost, *rest = node["priority"]
            node["priority"] = (cost + ANSWERED_COST, *rest)
            heapq.heappush(self._heap, (node["priority"], sibling))

    def restore(self, parent_key: str, child: Child, class_id: str | None) -> None:
        """Put back an edge recorded by an earlier controller (``--resume``)."""
        depth = self.graph.nodes[parent_key]["depth"] + 1 if parent_key in self.graph else 1
        self._add(child.candidate, parent=parent_key, move=child.move, class_id=class_id, rank=child.rank, depth=depth)

    def requeue(self, key: str) -> None:
        """Make a candidate pending again (its attempt said nothing about the config)."""
        node = self.graph.nodes[key]
        node["status"] = PENDING
        heapq.heappush(self._heap, (node["priority"], key))

    def mark(self, key: str, status: str) -> None:
        """Record an outcome known from elsewhere (the store) without queueing anything."""
        if key in self.graph:
            self.graph.nodes[key]["status"] = status

    # --- reading ---------------------------------------------------------------------
    def status(self, key: str) -> str:
        return str(self.graph.nodes[key]["status"])

    def pending(self) -> int:
        return sum(1 for _, d in self.graph.nodes(data=True) if d["status"] == PENDING)

    def path(self, key: str) -> list[tuple[str, Move]]:
        """The moves from the base to ``key``, in order."""
        out: list[tuple[str, Move]] = []
        node = self.graph.nodes[key]
        while node["parent"] is not None:
            out.append((node["parent"], node["move"]))
            node = self.graph.nodes[node["parent"]]
        return list(reversed(out))
