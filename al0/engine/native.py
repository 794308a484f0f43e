"""Advice compiled for the native core (:mod:`al0.core`), and its search.

The core runs the same search as :class:`~al0.engine.search.ForcingTreeSearch`
over the same advice: this module writes a piece of advice in the form the
core reads (goals as small integer programs, move constraints as numbered
generators, the flags :mod:`al0.engine.compiled` inferred), and wraps the
core's search so that a planner may call it as it calls the Python one.
What the core lacks — a Python predicate library, a name it does not
know — raises :class:`Unsupported` here, and that advice stays on the
Python search. A table whose every piece of advice and precondition the
core runs is planned by the core whole (:class:`NativePlanner`): one call
per plan, the rules, the searches and the symmetry inside it.

A goal program is prefix code; every operation starts with its opcode and
its whole length in ints (so ``and``/``or`` can skip what they do not
evaluate): ``[CONST, 3, value]``, ``[NOT, n, goal]``, ``[AND|OR, n, count,
goals...]``, ``[PRED, 5, predicate, arg, arg]``, ``[DEPTH, 4, op, k]``,
``[CMP, n, op, slot, constant, count, (at_root, coefficient, feature, arg,
arg, arg) * count]``: a comparison is ``sum - 0 OP 0`` with the root's part
computed once per search (slot numbers it). A piece argument is ``ours << 5
| piece type << 2 | index``; a colour argument ``-1`` (any), ``-2``
(light), ``-3`` (dark) or a piece.
"""

from __future__ import annotations

import time
from collections.abc import Set
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import chess

from al0.board import Material
from al0.board.position import MOVES, Position, code_move, fen
from al0.core import native
from al0.engine.compiled import CompiledAdvice
from al0.engine.history import EVERYWHERE
from al0.engine.limits import SearchLimits, node_budget
from al0.engine.memo import make_tree
from al0.engine.search import ForcingTreeSearch, search_stopped
from al0.engine.tree import LEAF, ForcingTree, PackedTree
from al0.lang.model import (
    Advice,
    AdviceTable,
    And,
    Call,
    Compare,
    Const,
    DepthRange,
    DepthTest,
    Feature,
    Goal,
    MoveConstraint,
    Not,
    Or,
    Pred,
)
from al0.lang.node import Node
from al0.lang.vocabulary.registry import ENTRIES
from al0.lang.vocabulary.terms import PieceRef, material_pieces

CONST, NOT, AND, OR, PRED, DEPTH, CMP = range(7)
_OPS = {"=": 0, "<": 1, "<=": 2, ">": 3, ">=": 4}
ANY, LIGHT, DARK = -1, -2, -3
TERM_INTS = 6
MAX_SLOTS = 64
MAX_MEN = 8
"""The most men a position the core searches may have (its move lists' bound)."""


class Unsupported(ValueError):
    """What the native core cannot run (the advice stays on the Python search)."""


def running_core() -> ModuleType:
    """The native core, where it is built and chosen (:func:`al0.core.native`):
    the one place the engine asks which twin runs, each time it compiles
    (``AL0_CORE`` may change between tables, as the tests change it).

    :raises Unsupported: the Python twin runs.
    """
    core = native()
    if core is None:
        raise Unsupported("the native core is not running")
    return core


@dataclass(frozen=True)
class NativeAdvice:
    """A piece of advice as the core holds it, with its Python twin."""

    compiled: CompiledAdvice
    core: Any
    """The core's ``Advice`` object."""
    module: ModuleType
    root_key: tuple[int, ...] = ()
    """The features its goals read at the root (four ints each: feature,
    three arguments): :func:`~al0.engine.compiled.root_key`'s, as the core
    computes it."""


class _Writer:
    """Writes one advice's goals as programs (comparison slots numbered
    across both goals, as they share one search's root parts)."""

    def __init__(self, material: Material, core: ModuleType):
        self.pieces = material_pieces(material)
        self.features = {name: i for i, name in enumerate(core.FEATURES)}
        self.predicates = {name: i for i, name in enumerate(core.PREDICATES)}
        self.generators = {name: i for i, name in enumerate(core.GENERATORS)}
        self.slots = 0
        self.root_terms: dict[tuple[int, ...], None] = {}
        """The distinct features read at the root, in order (feature, three arguments)."""

    def piece(self, name: str) -> int:
        ref: PieceRef | None = self.pieces.get(name)
        if ref is None or ref.index > 3:
            raise Unsupported(f"piece {name!r}")
        return int(ref.ours) << 5 | ref.piece_type << 2 | ref.index

    def args(self, call: Call) -> list[int]:
        args = call.args
        entry = ENTRIES.get(call.family)
        if not args and entry is not None and entry.default is not None:
            args = (entry.default,)
        codes = [LIGHT if arg == "light" else DARK if arg == "dark" else self.piece(arg) for arg in args]
        return (codes + [ANY, ANY, ANY])[:3]

    def goal(self, goal: Goal) -> list[int]:
        if isinstance(goal, Const):
            return [CONST, 3, int(goal.value)]
        if isinstance(goal, DepthTest):
            return [DEPTH, 4, _OPS[goal.op], int(goal.value)]
        if isinstance(goal, Not):
            inner = self.goal(goal.operand)
            return [NOT, 2 + len(inner), *inner]
        if isinstance(goal, (And, Or)):
            parts = [code for operand in goal.operands for code in self.goal(operand)]
            return [AND if isinstance(goal, And) else OR, 3 + len(parts), len(goal.operands), *parts]
        if isinstance(goal, Pred):
            if goal.call.family not in self.predicates:
                raise Unsupported(f"predicate {goal.name!r}")
            return [PRED, 5, self.predicates[goal.call.family], *self.args(goal.call)[:2]]
        if isinstance(goal, Compare):
            return self.compare(goal)
        raise Unsupported(f"goal {goal!r}")

    def compare(self, goal: Compare) -> list[int]:
        if self.slots >= MAX_SLOTS:
            raise Unsupported("too many comparisons")
        constant, terms = 0, []
        for side, sign in ((goal.left, 1), (goal.right, -1)):
            for coefficient, term in side.parts:
                if isinstance(term, int):
                    constant += sign * coefficient * term
                    continue
                assert isinstance(term, Feature)
                number, args = self.feature(term.call)
                terms += [int(term.at_root), sign * coefficient, number, *args]
                if term.at_root:
                    self.root_terms[(number, *args)] = None
        if not -(2**31) < constant < 2**31:
            raise Unsupported(f"constant {constant}")
        self.slots += 1
        return [CMP, 6 + len(terms), _OPS[goal.op], self.slots - 1, constant, len(terms) // TERM_INTS, *terms]

    def feature(self, call: Call) -> tuple[int, list[int]]:
        """Feature ``call``'s number in the core and its three arguments."""
        if call.family not in self.features:
            raise Unsupported(f"feature {call.text!r}")
        return self.features[call.family], self.args(call)

    def constraint(self, constraint: MoveConstraint) -> list[int]:
        codes: list[int] = []
        for alternative in constraint.alternatives:
            if len(alternative.generators) > 4:
                raise Unsupported("more than four generators in one alternative")
            codes += [*_range(alternative.depths), len(alternative.generators)]
            for call in alternative.generators:
                if call.family not in self.generators:
                    raise Unsupported(f"generator {call.text!r}")
                codes += [self.generators[call.family], self.piece(call.args[0]) if call.args else ANY]
        return codes


def _range(depths: DepthRange) -> tuple[int, int]:
    return depths.lo, -1 if depths.hi is None else depths.hi


def compile_native(advice: Advice, compiled: CompiledAdvice, table: AdviceTable) -> NativeAdvice:
    """``advice`` of ``table`` for the native core.

    :raises Unsupported: when the core is not running, the table has a
        Python library, or the advice names what the core does not know.
    """
    core = running_core()
    if table.library.path:
        raise Unsupported(f"its predicate library is Python ({table.library.name})")
    if compiled.horizon > 60:
        raise Unsupported(f"horizon {compiled.horizon}")
    writer = _Writer(table.material, core)
    better, holding = writer.goal(advice.better_goal), writer.goal(advice.holding_goal)
    spec = (
        better,
        holding,
        compiled.horizon,
        int(compiled.leaf_in_check),
        -1 if compiled.leaf_ours is None else int(compiled.leaf_ours),
        int(compiled.position_only),
        int(compiled.mate_alone),
        [n for r in compiled.legal_depths for n in _range(r)],
        [n for r in compiled.their_legal_depths for n in _range(r)],
        writer.constraint(advice.us_moves),
        writer.constraint(advice.them_moves),
    )
    root_key = tuple(code for term in writer.root_terms for code in term)
    return NativeAdvice(compiled, core.Advice(*spec), core, root_key)


def new_memo(advice: NativeAdvice) -> Any:
    """A memo the core's searches for ``advice`` may share."""
    return advice.module.Memo()


def as_tree(nested: tuple[int, tuple[Any, ...]]) -> ForcingTree:
    """The core's nested tuples as a :class:`ForcingTree`, shared subtrees shared."""
    made: dict[int, ForcingTree] = {}

    def walk(node: tuple[int, tuple[Any, ...]]) -> ForcingTree:
        found = made.get(id(node))
        if found is None:
            height, branches = node
            found = made[id(node)] = (
                LEAF
                if not branches and not height
                else make_tree(height, tuple((code_move(move), walk(child)) for move, child in branches))
            )
        return found

    return walk(nested)


class NativeSearch:
    """:class:`~al0.engine.search.ForcingTreeSearch` run by the native core:
    the same tree and node count. ``memo`` (from :func:`new_memo`) may be
    shared as the Python search's memo and values are."""

    def __init__(
        self,
        advice: NativeAdvice,
        root: Node,
        limits: SearchLimits | int = SearchLimits(),
        memo: Any = None,
        excluded: Set[Position] = frozenset(),
        reach: int = EVERYWHERE,
    ):
        compiled = advice.compiled
        if memo is not None and compiled.reads_root and not compiled.position_only:
            raise ValueError(f"advice {compiled.name!r} reads the root: its searches cannot share a memo")
        if excluded and memo is not None:
            raise ValueError(
                f"advice {compiled.name!r}: a search excluding positions keeps its memo to itself"
            )
        self.advice = advice
        self.root = root
        self.limits = limits if isinstance(limits, SearchLimits) else SearchLimits(limits)
        self.memo = memo
        self.excluded = excluded
        """As :attr:`ForcingTreeSearch.excluded <al0.engine.search.ForcingTreeSearch.excluded>`."""
        self.reach = reach
        self.nodes = 0
        self.moves = 0

    def run(self) -> ForcingTree | None:
        """The forcing tree of least worst-case depth, or None.

        :raises SearchBudgetExceeded: as the Python search raises it.
        """
        limits, name = self.limits, self.advice.compiled.name
        if (self.root.position.white | self.root.position.black).bit_count() > MAX_MEN:
            # Past the core's move lists (never an endgame's): the twin searches.
            twin = ForcingTreeSearch(
                self.advice.compiled, self.root, limits, excluded=self.excluded, reach=self.reach
            )
            tree = twin.run()
            self.nodes, self.moves = twin.nodes, twin.moves
            return tree
        shared = self.memo is not None
        memo = self.memo if shared else new_memo(self.advice)
        # Each node counts as the advice's cost, as in the Python search:
        # nodes * cost > limit exactly when nodes > limit // cost.
        cost = self.advice.compiled.cost
        reason, tree, self.nodes, self.moves = self.advice.module.search(
            self.advice.core,
            self.root.position,
            self.root.us == chess.WHITE,
            memo,
            shared,
            limits.nodes // cost,
            limits.moves,
            time.monotonic() + limits.seconds,
            time.monotonic,
            limits.stop,
            tuple(self.excluded) if self.excluded else None,
            self.reach,
        )
        if reason == "done":
            return None if tree is None else as_tree(tree)
        raise _stopped(reason, name, limits, cost, self.root.position)


def _stopped(reason: str, name: str, limits: SearchLimits, cost: int, root: Position) -> Exception:
    """The error of a search of advice ``name`` from ``root`` that the core
    stopped for ``reason``, as the Python search raises it."""
    if reason == "memory":
        return MemoryError(f"advice {name!r}: out of memory searching from {fen(root)}")
    if reason == "stopped":
        return search_stopped(f"advice {name!r}: stopped", root)
    what = {
        "nodes": node_budget(limits, cost),
        "moves": f"memory limit of {limits.moves} stored moves",
        "time": f"time limit of {limits.seconds:g} s",
    }[reason]
    return search_stopped(f"advice {name!r}: {what} spent", root)


class NativePlanner:
    """The loop of :class:`~al0.engine.plan.Planner` on the core (plan.c):
    the first rule whose precondition holds, its advice searched in order,
    the memos shared between searches as the planner shares them, and, when
    asked, the position planned in its class's canonical orientation and
    the tree mapped back, all in one call (:attr:`plan`). The tree comes
    packed (:class:`~al0.engine.tree.PackedTree`: read as far as it is
    asked for).

    :raises Unsupported: a precondition names what the core does not know.
    """

    def __init__(self, table: AdviceTable, advice: dict[str, NativeAdvice], cache: bool, shared_nodes: int):
        core = running_core()
        names = list(table.advice)
        index = {name: i for i, name in enumerate(names)}
        writer = _Writer(table.material, core)
        rules = [
            (
                None if rule.precondition == Const(True) else writer.goal(rule.precondition),
                [index[name] for name in rule.advice],
                rule.name,
                tuple(rule.advice),
                tuple(tuple(rule.advice[:place]) for place in range(len(rule.advice) + 1)),
            )
            for rule in table.rules
        ]
        made = [advice[name] for name in names]
        self.core = core.Planner(
            [
                (
                    one.core,
                    one.compiled.cost,
                    one.compiled.horizon > 1 and (one.compiled.position_only or not one.compiled.reads_root),
                    one.root_key,
                )
                for one in made
            ],
            rules,
            cache,
            shared_nodes,
            PackedTree,
        )
        self.plan = self.core.plan
        """``plan(position, us, symmetric, nodes, moves, seconds, clock, stop)``:
        ``(reason, rule, advice, tried, nodes, tree)``, or None where the
        position has more men than the core holds (the caller's Python loop
        plans those). ``reason`` is ``"done"``, or why a search stopped
        (then ``advice`` names it, and :meth:`stopped` is the error);
        ``rule``, ``advice`` and ``tried`` are as :class:`~al0.engine.plan.Plan`
        has them. With ``symmetric`` the position is planned in its class's
        canonical orientation and the tree mapped back."""
        self.cost = {name: advice[name].compiled.cost for name in names}
        self.us = table.us
        self._canonical = core.canonical

    def canonical(self, position: Position) -> tuple[int, Position]:
        """:func:`~al0.board.symmetry.canonical_symmetry` of ``position``
        for our side, and the position under it."""
        symmetry, image = self._canonical(position, self.us)
        return symmetry, Position._make(image) if symmetry else position

    def stopped(self, reason: str, name: str, limits: SearchLimits, position: Position) -> Exception:
        """The error of the search of advice ``name`` that :attr:`plan`
        stopped for ``reason``, naming ``position``, as the Python search's."""
        return _stopped(reason, name, limits, self.cost[name], position)

    def shared(self) -> int:
        """How many memos shared between searches hold entries."""
        return int(self.core.shared())


def table_core(table: AdviceTable) -> str:
    """Which core searches ``table``'s advice, and why, in one line (``al0
    check``): the native core where it runs and supports the advice, else
    the Python search; and whether the core makes each plan whole
    (:class:`NativePlanner`) or the Python planner calls it per advice."""
    from al0.core import status
    from al0.engine.compiled import compile_advice

    try:
        running_core()
    except Unsupported:
        return status()
    passed: dict[str, str] = {}
    made: dict[str, NativeAdvice] = {}
    for name, advice in table.advice.items():
        try:
            made[name] = compile_native(advice, compile_advice(advice, table.library), table)
        except Unsupported as why:
            passed[name] = str(why)
    if not passed:
        preferring = [name for name, advice in table.advice.items() if advice.prefer]
        if preferring:
            return (
                "native (C) for every piece of advice; plans chosen in Python "
                f"(prefer: in {', '.join(preferring)})"
            )
        try:
            NativePlanner(table, made, False, 0)
        except Unsupported as why:
            return f"native (C) for every piece of advice; plans chosen in Python (a precondition: {why})"
        return "native (C) for every piece of advice, and each plan made whole by the core"
    reasons = "; ".join(dict.fromkeys(passed.values()))
    if len(passed) == len(table.advice):
        return f"python for every piece of advice (the native core lacks: {reasons})"
    return f"native (C), but python for {', '.join(passed)} (the native core lacks: {reasons})"


def feature_code(material: Material, call: Call) -> tuple[ModuleType, int, list[int]]:
    """The core, and feature ``call`` (``corner_dist(k, B)``) of
    ``material``'s table as the core numbers it and its three arguments.

    :raises Unsupported: the core is not running, or lacks the feature.
    """
    core = running_core()
    number, args = _Writer(material, core).feature(call)
    return core, number, args


def goal_code(material: Material, goal: Goal) -> tuple[ModuleType, list[int]]:
    """The core, and ``goal`` of ``material``'s table as its program.

    :raises Unsupported: the core is not running, or lacks what it names.
    """
    core = running_core()
    return core, _Writer(material, core).goal(goal)
