"""Choosing a plan (AL0 section 6): the first rule whose precondition holds,
its pieces of advice in order, the first satisfiable one gives the tree."""

from __future__ import annotations

import time
from collections.abc import MutableMapping
from dataclasses import dataclass, field, replace
from typing import Any

import chess

from al0.board import Material
from al0.board.fen import check_legal, material_counts
from al0.board.position import Position, from_board, piece_counts, to_board
from al0.board.symmetry import INVERSE, canonical_symmetry, transform_move, transform_position
from al0.engine.compiled import CompiledAdvice, RootKey, compile_advice, root_key
from al0.engine.history import repeated, seen_after_ours
from al0.engine.limits import SearchLimits
from al0.engine.memo import SearchKey
from al0.engine.native import (
    NativeAdvice,
    NativePlanner,
    NativeSearch,
    Unsupported,
    compile_native,
    new_memo,
)
from al0.engine.preference import Score, preferred, tightened
from al0.engine.search import ForcingTreeSearch, search_stopped
from al0.engine.successors import successor_table
from al0.engine.tree import ForcingTree, transform_tree
from al0.errors import AL0Error, PositionError, PredicateError, SearchBudgetExceeded
from al0.lang.compile_goals import ValueFn, compile_goal, compile_value
from al0.lang.failures import predicate_error
from al0.lang.model import AdviceTable, Const
from al0.lang.node import Node, node_at

DEFAULT_BUDGET = 1_000_000
"""Nodes one forcing-tree search may evaluate; the book's KRK table needs
far fewer (a few thousand at most), so reaching it signals a runaway table."""

TIGHTENED = 4096
"""How many advice tightened to a ``prefer:`` bound a planner keeps compiled
(a few dozen bounds recur in a real table's plans)."""

SHARED_NODES = 200_000
"""How many search nodes a caching planner's searches may visit before the
nodes (with their facts), memo entries and goal outcomes they kept are
dropped (a visit keeps at most one of each; about 100 MB): dropping them
costs time, never a different plan."""


@dataclass(frozen=True)
class Plan:
    """The outcome of plan selection at one position.

    ``tried`` lists the advice passed over, in order: unsatisfiable, or
    already satisfied at the root (which leaves no move to play). ``advice``
    and ``tree`` are None when the table has no plan: then ``rule`` is None
    when no precondition held.
    """

    position: Position
    """The position planned for."""
    rule: str | None
    advice: str | None
    tried: tuple[str, ...]
    tree: ForcingTree | None
    nodes: int
    seconds: float
    counters: tuple[int, int] | None = field(default=None, compare=False, repr=False)
    """The move counters (halfmove clock, fullmove number) of the board the
    plan was asked for, when it was asked with one."""
    by_history: bool = field(default=False, compare=False, repr=False)
    """Whether the game's history chose the tree: the first tree found led
    back to a position the game had seen (:mod:`al0.engine.history`)."""

    @property
    def board(self) -> chess.Board:
        """The position planned for, as a board of its own (move counters
        as given, when the plan was asked for with a board)."""
        board = to_board(self.position)
        if self.counters is not None:
            board.halfmove_clock, board.fullmove_number = self.counters
        return board

    @property
    def fen(self) -> str:
        return self.board.fen()

    def describe_failure(self) -> str:
        """Why there is no plan, in words."""
        if self.rule is None:
            return "no rule's precondition holds"
        return f"rule {self.rule}: no advice gives a move to play (tried {', '.join(self.tried)})"


def _plan(
    position: Position,
    rule: str | None,
    advice: str | None,
    tried: tuple[str, ...],
    tree: ForcingTree | None,
    nodes: int,
    seconds: float,
    counters: tuple[int, int] | None,
    by_history: bool = False,
) -> Plan:
    """``Plan(...)`` of these fields, made without the dataclass's
    ``__init__``: a frozen dataclass sets each field through
    ``object.__setattr__``, which for a plan's eight fields costs about as
    much as a tenth of a typical search (one plan is made per position)."""
    plan = _new_object(Plan)
    plan.__dict__.update(
        position=position,
        rule=rule,
        advice=advice,
        tried=tried,
        tree=tree,
        nodes=nodes,
        seconds=seconds,
        counters=counters,
        by_history=by_history,
    )
    return plan


_new_object = object.__new__


class Planner:
    """Plans for one advice table. Compiles the table once and, with
    ``cache``, remembers the plan of every position it has planned (a plan
    depends on the position only, but where its tree would lead back to a
    position the game has seen: :meth:`plan_position`) and shares
    work between its searches: the nodes they meet, with the facts
    predicates memoised on them, the goal values of position-only advice,
    and for each advice whose goals do not read the root (or read only
    features' values there), the memo of its searches from roots alike (see
    :class:`~al0.engine.search.ForcingTreeSearch`). Without ``cache`` every plan is
    searched from nothing."""

    def __init__(self, table: AdviceTable, budget: int = DEFAULT_BUDGET, cache: bool = True):
        self.table = table
        self.budget = budget
        self.rules = [
            (
                rule,
                None if rule.precondition == Const(True) else compile_goal(rule.precondition, table.library),
            )
            for rule in table.rules
        ]
        """Each rule with its compiled precondition, None for ``true`` (the
        usual last rule: it holds without a call)."""
        self.advice: dict[str, CompiledAdvice] = {
            name: compile_advice(advice, table.library) for name, advice in table.advice.items()
        }
        self.native: dict[str, NativeAdvice] = {}
        """The advice the native core searches (:mod:`al0.engine.native`):
        all that it supports, unless ``AL0_CORE=python``; the rest run on the
        Python search (``prefer:``'s tightened searches too)."""
        for name, advice in table.advice.items():
            try:
                self.native[name] = compile_native(advice, self.advice[name], table)
            except Unsupported:
                pass
        self.prefer: dict[str, list[ValueFn]] = {
            name: [compile_value(term, table.library) for term in advice.prefer]
            for name, advice in table.advice.items()
            if advice.prefer
        }
        """The ``prefer:`` sums of each advice that states a preference
        (:mod:`al0.engine.preference`), compiled."""
        self.tightened: dict[tuple[str, Score], tuple[CompiledAdvice, NativeAdvice | None]] = {}
        """:meth:`_tightened`'s advice so far."""
        self.core: NativePlanner | None = None
        """The whole loop below (rules, advice, searches, symmetry) on the
        native core, when it runs every piece of advice and precondition
        and no advice states a preference; else None, and the loop is Python's, each
        search on the core where it can."""
        if len(self.native) == len(table.advice) and not self.prefer:
            try:
                self.core = NativePlanner(table, self.native, cache, SHARED_NODES)
            except Unsupported:
                pass
        self.needed_material = material_counts(table.material)
        """Our pieces the table needs (see :func:`al0.board.fen.piece_counts`)."""
        self.their_material = table.material.counts(1)
        """Their pieces the table plays against at most (a game of KQKR goes
        on as KQK once we take the rook)."""
        self.successors: dict[tuple[tuple[int, ...], tuple[int, ...]], Planner | None] = {}
        """:meth:`playing`'s planners so far, by the men of each side."""
        self.limits = SearchLimits(budget)
        self.cache: MutableMapping[Position, Plan] | None = {} if cache else None
        self.nodes: dict[SearchKey, Node] | None = {} if cache else None
        """Search nodes shared by every search (with ``cache``)."""
        self.memos: dict[tuple[str, RootKey], Any] | None = {} if cache else None
        """The shared search memo of each advice that does not read the root,
        or reads only the values of features there (position-only goals):
        by advice and those values (:func:`~al0.engine.compiled.root_key`);
        a dict for the Python search, the core's own memo (which holds the
        goal values too) for the native one."""
        self.visited = 0
        """Nodes visited since the shared structures were last dropped."""
        self.values: dict[tuple[str, RootKey], dict[Position, int]] = {}
        """What the goals of each position-only advice say at each position
        met, by advice and root key (kept across searches with ``cache``)."""
        self.search_seconds: list[float] = []
        """The time of every plan actually searched (not taken from the cache)."""

    def playing(self, position: Position) -> Planner | None:
        """The planner of the table that plays ``position`` in a game this
        planner's table began (:mod:`al0.engine.successors`): this one while
        the material is the table's, else its successor's, made on first
        need (with this budget and caching); None where no table plays it.

        :raises AL0Error: a successor table that cannot be loaded.
        """
        us = self.table.us
        ours, theirs = piece_counts(position, us), piece_counts(position, not us)
        if ours == self.needed_material and theirs == self.their_material:
            return self
        key = (ours, theirs)
        if key not in self.successors:
            table = successor_table(self.table, Material.of(to_board(position), us))
            found = (
                None
                if table is None
                else self
                if table is self.table
                else Planner(table, self.budget, self.cache is not None)
            )
            if found is not None:
                found.search_seconds = self.search_seconds  # one game's plans, counted together
            self.successors[key] = found
        return self.successors[key]

    def plan(self, board: chess.Board, limits: SearchLimits | None = None) -> Plan:
        """The plan at ``board`` (our move); ``limits`` bound each search
        instead of the planner's budget (a UCI ``go nodes``, a stop flag).

        The board's move stack is the game: the positions it has seen after
        our moves are avoided where the advice allows (:meth:`plan_position`),
        but by a table that holds, for which a repetition is the draw it
        plays for (and its check judges plans made without a history).

        :raises SearchBudgetExceeded: when one search reaches a limit.
        :raises PositionError: naming the board when it has pawns or castling
            rights, is not of the table's material (:meth:`plan_position`),
            is not a legal position (kings side by side, the side not to
            move in check: searched, it was a plan, or a library's error
            blaming its own generator) or is not the table's side to move
            (searched, its tree began with their moves).
        """
        position = from_board(board)
        self._check_material(position)
        check_legal(board, board.fen())
        if board.turn != self.table.us:
            raise PositionError(
                f"{board.fen()!r}: it is not the table's side to move "
                f"(the table {self.table.name} plays {'White' if self.table.us else 'Black'})"
            )
        seen = frozenset() if self.table.holds else seen_after_ours(board, self.table.us)
        return self.plan_position(position, board, limits, seen)

    def plan_position(
        self,
        position: Position,
        board: chess.Board | None = None,
        limits: SearchLimits | None = None,
        seen: frozenset[Position] = frozenset(),
    ) -> Plan:
        """The plan at ``position`` (our move); ``board``, when given, is
        the same position with its move counters, kept for display;
        ``limits`` as in :meth:`plan`. Where the tree of the advice chosen
        leads a move of ours to a position of ``seen`` (positions the game
        has had after our moves), a tree of the same advice that does not
        is played instead, when there is one (a repetition is the table's
        failure); such a plan is not cached.

        :raises PositionError: when ``position`` is not of the table's
            material (ours exactly, theirs the table's or fewer, one king a
            side): every entry (a plan, a game, a match, verify) comes here.
        """
        counters = None if board is None else (board.halfmove_clock, board.fullmove_number)
        if self.cache is not None:
            plan = self.cache.get(position)
            if plan is not None and not self._comes_back(plan, seen):
                # The cache is keyed by the position alone: the counters
                # shown are this board's, not those of the board that
                # first asked (a second EPD line read as the first's clock).
                return plan if plan.counters == counters else replace(plan, counters=counters)
        self._check_material(position)
        if self.core is not None and self.cache is None:
            # One call into the core, the symmetry too (with a cache, the
            # canonical image's plan is looked up first, below).
            plan = self._core_plan(position, counters, limits or self.limits, self.table.symmetric)
            if plan is not None and not self._comes_back(plan, seen):
                self.search_seconds.append(plan.seconds)
                return plan
        symmetry, image = self._canonical(position) if self.table.symmetric else (0, position)
        if symmetry:
            # Planned in the class's canonical orientation and mapped back,
            # so that mirror images play as mirror images.
            image_plan = self._canonical_plan(position, symmetry, image, limits, seen)
            plan = _plan(
                position,
                image_plan.rule,
                image_plan.advice,
                image_plan.tried,
                None if image_plan.tree is None else transform_tree(image_plan.tree, INVERSE[symmetry]),
                image_plan.nodes,
                image_plan.seconds,
                counters,
                image_plan.by_history,
            )
        else:
            plan = self._search(position, counters, limits or self.limits, seen)
            self.search_seconds.append(plan.seconds)
        if self.cache is not None and not plan.by_history:
            self.cache[position] = plan
        return plan

    def _check_material(self, position: Position) -> None:
        """:raises PositionError: naming ``position``'s FEN when the table
        does not play it: without our king the canonical orientation is not
        one (planning it recursed without end), and another material would
        be searched with goals that name pieces it lacks."""
        us = self.table.us
        ours, theirs = piece_counts(position, us), piece_counts(position, not us)
        if (
            ours != self.needed_material
            or theirs[chess.KING - 1] != 1
            or any(have > most for have, most in zip(theirs, self.their_material))
        ):
            board = to_board(position)
            found = Material.of(board, us) if ours[chess.KING - 1] == theirs[chess.KING - 1] == 1 else None
            has = f"material {found}" if found is not None else "not one king a side"
            raise PositionError(
                f"position {board.fen()!r} has {has}, but the table {self.table.name} is for {self.table.material}"
            )

    def _comes_back(self, plan: Plan, seen: frozenset[Position]) -> bool:
        """Whether ``plan``'s tree leads a move of ours to a position of
        ``seen`` (then the history must be searched with)."""
        return bool(seen) and plan.tree is not None and repeated(plan.position, plan.tree, seen)

    def _canonical(self, position: Position) -> tuple[int, Position]:
        """The symmetry that takes ``position`` to its class's canonical
        orientation, and its image there (the core's, where it runs: the
        same, some fifty times faster)."""
        if self.core is not None:
            return self.core.canonical(position)
        symmetry = canonical_symmetry(position, self.table.us)
        return symmetry, transform_position(position, symmetry)

    def _canonical_plan(
        self,
        position: Position,
        symmetry: int,
        image: Position,
        limits: SearchLimits | None,
        seen: frozenset[Position],
    ) -> Plan:
        """The plan of ``position`` under ``symmetry`` (its canonical
        orientation, ``image``). An error names ``position`` as the user gave it, not
        its mirror image: library code that failed at a node of the search
        is told about that node's own mirror image (and move), others name
        the root.

        :raises AL0Error: as :meth:`plan_position`.
        """
        try:
            return self.plan_position(
                image, limits=limits, seen=frozenset(transform_position(p, symmetry) for p in seen)
            )
        except AL0Error as error:
            if isinstance(error, PredicateError) and error.position is not None:
                back = INVERSE[symmetry]
                raise predicate_error(
                    error.detail,
                    transform_position(error.position, back),
                    None if error.move is None else transform_move(error.move, back),
                ) from None
            if isinstance(error, SearchBudgetExceeded) and error.position is not None:
                raise search_stopped(
                    error.detail, transform_position(error.position, INVERSE[symmetry])
                ) from None
            raise

    def _core_plan(
        self, position: Position, counters: tuple[int, int] | None, limits: SearchLimits, symmetric: bool
    ) -> Plan | None:
        """:meth:`_search` by the core's planner (:attr:`core`), in the
        class's canonical orientation when ``symmetric``; None where the
        core holds too few men (the Python loop plans then)."""
        assert self.core is not None
        started = time.perf_counter()
        found = self.core.plan(
            position,
            self.table.us,
            symmetric,
            limits.nodes,
            limits.moves,
            limits.seconds,
            time.monotonic,
            limits.stop,
        )
        if found is None:
            return None
        reason, rule, advice, tried, nodes, tree = found
        if reason != "done":
            raise self.core.stopped(reason, advice, limits, position)
        return _plan(position, rule, advice, tried, tree, nodes, time.perf_counter() - started, counters)

    def _search(
        self,
        position: Position,
        counters: tuple[int, int] | None,
        limits: SearchLimits,
        seen: frozenset[Position] = frozenset(),
    ) -> Plan:
        if self.core is not None:
            plan = self._core_plan(position, counters, limits, False)
            if plan is not None and not self._comes_back(plan, seen):
                return plan
            # (Where it comes back, the loop below plans again, advice by
            # advice, to search the advice played without the positions seen.)
        started = time.perf_counter()
        root = node_at(position, 0, self.table.us)
        nodes = 0
        by_history = False
        memos = self.memos
        try:
            for rule, precondition in self.rules:
                if precondition is not None and not precondition(root, root):
                    continue
                tried: list[str] = []
                for name in rule.advice:
                    advice = self.advice[name]
                    native = self.native.get(name)
                    memo = values = None
                    if (
                        memos is not None
                        and advice.horizon > 1
                        and (advice.position_only or not advice.reads_root)
                    ):
                        # Searches whose goals read the same values at their
                        # roots find the same facts at every (position, depth).
                        # (A one-ply search keeps no memo: it meets each
                        # child once, see ForcingTreeSearch.one_ply.)
                        key = (name, root_key(advice, root))
                        memo = memos.get(key)
                        if memo is None:
                            memo = memos[key] = {} if native is None else new_memo(native)
                        if advice.position_only and native is None:
                            values = self.values.setdefault(key, {})
                    search: ForcingTreeSearch | NativeSearch = (
                        ForcingTreeSearch(advice, root, limits, memo, self.nodes, values)
                        if native is None
                        else NativeSearch(native, root, limits, memo)
                    )
                    tree = search.run()
                    nodes += search.nodes
                    self.visited += search.nodes
                    if tree is not None and not tree.is_leaf and name in self.prefer:
                        tree, more = self._preferred(name, root, tree, limits)
                        nodes += more
                    if tree is not None and seen and repeated(position, tree, seen):
                        # The tree leads back to a position of the game: the
                        # same advice searched again with those excluded (a
                        # memo of its own), its tree played if it has one.
                        by_history = True
                        again: ForcingTreeSearch | NativeSearch = (
                            ForcingTreeSearch(advice, root, limits, None, self.nodes, None, seen)
                            if native is None
                            else NativeSearch(native, root, limits, None, seen)
                        )
                        try:
                            avoiding = again.run()
                            if avoiding is not None and not avoiding.is_leaf and name in self.prefer:
                                avoiding, more = self._preferred(name, root, avoiding, limits, seen)
                                nodes += more
                        except SearchBudgetExceeded:
                            # Without the shared memo it may need more than
                            # the first search: the tree found stands.
                            avoiding = None
                        nodes += again.nodes
                        self.visited += again.nodes
                        if avoiding is not None:
                            tree = avoiding
                    # A better-goal that already holds at the root is satisfied
                    # with no move to play: it cannot guide play, so pass it over.
                    if tree is not None and not tree.is_leaf:
                        return _plan(
                            position,
                            rule.name,
                            name,
                            tuple(tried),
                            tree,
                            nodes,
                            time.perf_counter() - started,
                            counters,
                            by_history,
                        )
                    tried.append(name)
                return _plan(
                    position,
                    rule.name,
                    None,
                    tuple(tried),
                    None,
                    nodes,
                    time.perf_counter() - started,
                    counters,
                )
            return _plan(position, None, None, (), None, nodes, time.perf_counter() - started, counters)
        finally:
            if self.nodes is not None:
                self._bound_shared()

    def _preferred(
        self,
        name: str,
        root: Node,
        tree: ForcingTree,
        limits: SearchLimits,
        seen: frozenset[Position] = frozenset(),
    ) -> tuple[ForcingTree, int]:
        """Of the trees of advice ``name`` at ``root`` (avoiding ``seen``),
        one whose worst leaf scores least on its ``prefer:`` sums, starting
        from ``tree``, and the nodes searched for it
        (:func:`~al0.engine.preference.preferred`): each tightened search
        runs on the core that runs the advice, with a memo of its own."""
        searched = 0

        def search(bound: Score) -> ForcingTree | None:
            nonlocal searched
            compiled, core = self._tightened(name, bound)
            one: ForcingTreeSearch | NativeSearch = (
                ForcingTreeSearch(compiled, root, limits, None, self.nodes, None, seen)
                if core is None
                else NativeSearch(core, root, limits, None, seen)
            )
            try:
                return one.run()
            finally:
                searched += one.nodes
                self.visited += one.nodes

        return preferred(self.prefer[name], root, tree, search), searched

    def _tightened(self, name: str, bound: Score) -> tuple[CompiledAdvice, NativeAdvice | None]:
        """Advice ``name`` :func:`~al0.engine.preference.tightened` to
        ``bound``, compiled for the Python search and, where the core runs
        the advice, for the core; kept, as the same bounds come back from
        plan to plan (at most :data:`TIGHTENED` of them)."""
        key = (name, bound)
        found = self.tightened.get(key)
        if found is None:
            tighter = tightened(self.table.advice[name], bound)
            compiled = compile_advice(tighter, self.table.library)
            core = None
            if name in self.native:
                try:
                    core = compile_native(tighter, compiled, self.table)
                except Unsupported:
                    pass  # (past the core's comparison slots: the twin searches)
            if len(self.tightened) >= TIGHTENED:
                self.tightened.clear()
            found = self.tightened[key] = (compiled, core)
        return found

    def _bound_shared(self) -> None:
        """Drop the shared nodes, memos and goal outcomes once the searches
        have visited more than :data:`SHARED_NODES` nodes since they were
        last dropped (counted, not measured: a planner may keep thousands
        of small memos, one per root key)."""
        if self.nodes is None or self.memos is None or self.visited <= SHARED_NODES:
            return
        self.nodes.clear()
        self.memos.clear()
        self.values.clear()
        self.visited = 0
