"""The plan cache of a run read off segments (the tablebase defender's,
:mod:`al0.verify.segments`), in one process or a worker: compact, and
shared between workers.

A run makes a segment once per position, so its planner is asked for a
plan there once, and again only for a mirror image of a class already
planned (or with a game's history): each plan is kept as it travels
(:data:`SentPlan`: the native core's tree is bytes already) and made a
:class:`~al0.engine.plan.Plan` again when asked for. Kept as plans, with
their trees read, the plans of ``kbbk --positions sample:20000`` took
54 MB, more than the segments and tails together.

A segment is made for one orientation (the tablebase defender breaks ties
by a move's UCI order, so mirror images play differently), and a worker
that meets a class in an orientation no worker made a segment for plans
it again unless the plan came with the segments. So every plan searched
goes to every other worker, and is read by those that need it: sending one
costs about a microsecond, keeping one not read its place in a dict
(pickled plans read at once, in every worker, cost more than most plans
do to search)."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping

from al0.board.position import Position
from al0.engine.plan import Plan
from al0.engine.tree import packed_tree, tree_code
from al0.verify.segments import Key, pack, unpack

SentPlan = tuple[str | None, str | None, tuple[str, ...], int, float, bytes | None]
"""A plan kept or sent compact: its rule, advice, advice tried, nodes,
seconds and tree (:func:`~al0.engine.tree.tree_code`)."""


class RunPlans(MutableMapping[Position, Plan]):
    """A planner's cache of the plans it searched (:attr:`~al0.engine.plan.Planner.cache`),
    kept as :data:`SentPlan`; the plans of mirror images, which the planner
    maps from their class's plan, are not kept (mapped again if asked for
    again). It notes the plans searched since the last :meth:`take`, to
    send on, and holds those other workers sent (:attr:`sent`) apart until
    one is needed."""

    def __init__(self, searched: list[float]):
        self.searched = searched
        """The planner's search times (:attr:`~al0.engine.plan.Planner.search_seconds`):
        a plan set just after one was added was searched (a mirror image's,
        mapped from it, comes after none)."""
        self.known = len(searched)
        self.plans: dict[Key, SentPlan] = {}
        self.new: dict[Key, SentPlan] = {}
        """The plans searched here since the last :meth:`take`."""
        self.sent: dict[Key, SentPlan] = {}
        """The plans other workers sent, not asked for yet."""

    def __setitem__(self, position: Position, plan: Plan) -> None:
        if len(self.searched) > self.known:
            self.known = len(self.searched)
            tree = None if plan.tree is None else tree_code(plan.tree)
            key = pack(position)
            self.plans[key] = self.new[key] = (
                plan.rule,
                plan.advice,
                plan.tried,
                plan.nodes,
                plan.seconds,
                tree,
            )

    def get(self, position: Position, default: Plan | None = None) -> Plan | None:  # type: ignore[override]
        key = pack(position)
        kept = self.plans.get(key)
        if kept is None and self.sent:
            kept = self.sent.pop(key, None)
            if kept is not None:
                self.plans[key] = kept  # theirs: not sent back
        if kept is None:
            return default
        rule, advice, tried, nodes, seconds, tree = kept
        return Plan(
            position, rule, advice, tried, None if tree is None else packed_tree(tree), nodes, seconds
        )

    def __getitem__(self, position: Position) -> Plan:
        found = self.get(position)
        if found is None:
            raise KeyError(position)
        return found

    def __delitem__(self, position: Position) -> None:
        del self.plans[pack(position)]

    def __iter__(self) -> Iterator[Position]:
        return map(unpack, self.plans)

    def __len__(self) -> int:
        return len(self.plans)

    def take(self) -> dict[Key, SentPlan]:
        """The plans searched here since the last :meth:`take`."""
        new, self.new = self.new, {}
        return new
