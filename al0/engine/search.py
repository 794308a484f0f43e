"""The forcing-tree builder: does a piece of advice hold from a position?

The search is an AND/OR depth-first search over compact positions
(:mod:`al0.board.position`) with a transposition table keyed by (position, depth)
— the constraints depend on depth, and the comparative predicates on the
root, which is fixed for one search. At our nodes it deepens the bound on the
child's height step by step, so the first child found is one with the least
worst-case depth (best-first in the sense of IDA*, with cost = plies to the
better-goal); at their nodes it tries first the replies already known to
refute. Each (position, depth) has its goals evaluated and its moves
generated once per search.

Every search is bounded in nodes, stored moves (memory) and wall-clock time
(:class:`~al0.engine.limits.SearchLimits`); reaching a bound raises
:class:`~al0.errors.SearchBudgetExceeded`, so a bound can stop a search but
never change its result. The advice it searches for comes compiled
(:mod:`al0.engine.compiled`).
"""

from __future__ import annotations

import time
from collections.abc import Set
from operator import is_

import chess

from al0.board.checks import checking_moves, is_checkmate, legal_checks, mate_in_one
from al0.board.moves import apply, legal_moves, legal_targets
from al0.board.position import MOVES, Position, fen
from al0.engine.compiled import CompiledAdvice
from al0.engine.history import EVERYWHERE
from al0.engine.limits import SearchLimits, node_budget
from al0.engine.memo import FAILS, HOLDS, LEAF_HERE, Child, Entry, SearchKey, make_tree
from al0.engine.tree import LEAF, ForcingTree
from al0.errors import SearchBudgetExceeded
from al0.lang.compile_moves import play_checked
from al0.lang.node import Node, node_at

_BB = chess.BB_SQUARES

LOOK_EVERY = 64
"""Nodes of the budget between two looks at the clock and the stop flag: a
millisecond or so of an ordinary table's nodes, one node of a goal of
thousands of terms (:attr:`~al0.engine.compiled.CompiledAdvice.cost`), so
a UCI ``stop`` or the wall-clock bound ends any search promptly."""


def search_stopped(detail: str, root: Position) -> SearchBudgetExceeded:
    """The error of a search from ``root`` that reached a limit: ``detail``
    (which advice, what was spent) and the root's FEN."""
    return SearchBudgetExceeded(f"{detail} searching from {fen(root)}", detail, root)


def _reply_key(move: chess.Move) -> int:
    """How :attr:`ForcingTreeSearch.history` names a reply: from-square * 64
    + to-square (a reply the same in every position of its depth)."""
    return move.from_square << 6 | move.to_square


class ForcingTreeSearch:
    """One search for one piece of advice from one root node.

    ``root`` is the root node (the comparative predicates read it
    throughout); its position is where the search starts.
    :meth:`run` raises :class:`SearchBudgetExceeded` when a limit is reached.

    The tree found at a node does not depend on the order nodes were met
    in: at our nodes it is the first child in the generator's order among
    those of least height, at theirs every reply's such tree. So searches
    for an advice whose goals do not read the root
    (``advice.reads_root`` false) may pass the same ``memo`` and reuse each
    other's work, and so may searches for a position-only advice from
    roots with the same :func:`~al0.engine.compiled.root_key` (with the same ``values``);
    ``nodes`` may likewise be shared by every search of one planner (a
    node's facts depend on its position and depth only). The limits count
    what this search adds.
    """

    def __init__(
        self,
        advice: CompiledAdvice,
        root: Node,
        limits: SearchLimits | int = SearchLimits(),
        memo: dict[SearchKey, Entry] | None = None,
        nodes: dict[SearchKey, Node] | None = None,
        values: dict[Position, int] | None = None,
        excluded: Set[Position] = frozenset(),
        reach: int = EVERYWHERE,
    ):
        if memo is not None and advice.reads_root and not advice.position_only:
            raise ValueError(f"advice {advice.name!r} reads the root: its searches cannot share a memo")
        if excluded and (memo is not None or values is not None):
            # A memo's failures hold for its own exclusions only.
            raise ValueError(f"advice {advice.name!r}: a search excluding positions keeps its memo to itself")
        self.advice = advice
        self.us = root.us
        self.root = root
        self.limits = limits if isinstance(limits, SearchLimits) else SearchLimits(limits)
        self.nodes = 0
        self.moves = 0
        self.steps = 0
        self.never = advice.horizon + 1
        """A bound above any tree's height (no node deeper than the horizon
        has a move): ``lo = never`` means the node fails at every bound."""
        self.deadline = 0.0
        self.counted = 0
        """Nodes counted against the budget: each evaluation of the goals
        counts as :attr:`~CompiledAdvice.cost` nodes."""
        self.look_at = 0
        """At which :attr:`counted` the search next looks at its budget, the
        clock and the stop flag (:meth:`_look`)."""
        self.memo: dict[SearchKey, Entry] = {} if memo is None else memo
        self.one_ply = memo is None and advice.horizon == 1
        """Whether only the root has moves and the memo is this search's own:
        then each of the root's children is met once and never again, so
        :meth:`_one_ply` tries them without records or memo entries."""
        self.node_memo = nodes
        self.last_theirs = (
            advice.horizon - 1 if advice.leaf_ours and advice.position_only and not advice.mate_alone else -1
        )
        """The depth of the last nodes of theirs with moves, where only
        leaves may follow, when :meth:`_last_reply` decides them (a leaf has
        us to move, goals are kept per position); else -1."""
        self.values: dict[Position, int] | None = (
            None if not advice.position_only else {} if values is None else values
        )
        """What the goals say at each position met (:data:`FAILS`, :data:`HOLDS`
        or :data:`LEAF_HERE`), for advice whose goals are position-only; ``values``
        may be shared by searches whose roots give :attr:`~CompiledAdvice.root_features`
        the same values (:func:`~al0.engine.compiled.root_key`)."""
        self.odd_ours = None if advice.leaf_ours is None else int(not advice.leaf_ours)
        """With leaves of one side to move only (:attr:`CompiledAdvice.leaf_ours`),
        every path from a node to a leaf has the same parity, so every tree
        from our nodes has a height of this parity (0 even, 1 odd), from
        theirs the other; else None."""
        self.history: dict[int, dict[int, int]] = {}
        """By depth, how often each reply (from-square * 64 + to-square)
        refuted a node of theirs (:meth:`_refuters_first`)."""
        self.legal_at: dict[tuple[bool, int], bool] = {}
        """:meth:`_legal_alone`'s answers so far."""
        self.excluded = excluded
        """Positions our moves may not lead to (:mod:`al0.engine.history`: the
        game has seen them), at depths up to :attr:`reach`: such a node fails
        at every bound, whatever its goals. A checkmate is never one (it ends
        the game), so the searches for mate alone do not look."""
        self.reach = reach if excluded else -1

    def run(self) -> ForcingTree | None:
        """The forcing tree of least worst-case depth, or None if there is none
        within the constraints."""
        self.deadline = time.monotonic() + self.limits.seconds
        self.look_at = min(self.limits.nodes, LOOK_EVERY)
        tree, _ = self._solve((self.root.position, 0), self.advice.horizon)
        return tree

    def after(self, move: chess.Move) -> ForcingTree | None:
        """The forcing tree of least worst-case depth from the root's child
        after our legal ``move``, or None when the advice is not satisfied
        there: whether the advice accepts a move other than the one
        :meth:`run` chose (that the us-moves allow ``move`` at the root and
        the holding-goal holds there is the caller's to check)."""
        return self.at(apply(self.root.position, move), 1)

    def at(self, position: Position, depth: int) -> ForcingTree | None:
        """The forcing tree of least worst-case depth from the node of
        ``position`` at ``depth`` below the root, or None: what a caller
        asking why the advice fails reads node by node."""
        self.deadline = time.monotonic() + self.limits.seconds
        tree, _ = self._solve((position, depth), self.advice.horizon)
        return tree

    def _count_node(self) -> None:
        """Count a node whose goals this search evaluates (or reads), as
        :attr:`~CompiledAdvice.cost` nodes of the budget: every
        :data:`LOOK_EVERY` of those, look at the budget, clock and stop flag."""
        self.nodes += 1
        self.counted += self.advice.cost
        if self.counted > self.look_at:
            self._look()

    def _look(self) -> None:
        """Stop the search past its node budget, its time or its stop flag;
        else say when to look next."""
        if self.counted > self.limits.nodes:
            raise self._spent(node_budget(self.limits, self.advice.cost))
        self._look_at_clock()
        self.look_at = min(self.limits.nodes, self.counted + LOOK_EVERY)

    def _look_at_clock(self) -> None:
        if time.monotonic() > self.deadline:
            raise self._spent(f"time limit of {self.limits.seconds:g} s")
        if self.limits.stop is not None and self.limits.stop.is_set():
            raise search_stopped(f"advice {self.advice.name!r}: stopped", self.root.position)

    def _spent(self, what: str) -> SearchBudgetExceeded:
        return search_stopped(f"advice {self.advice.name!r}: {what} spent", self.root.position)

    def _node(self, key: SearchKey) -> Node:
        """The node of ``key``: the root at depth 0, else from the shared
        node memo when there is one."""
        if key[1] == 0:
            return self.root
        shared = self.node_memo
        if shared is None:
            return node_at(key[0], key[1], self.us)
        node = shared.get(key)
        if node is None:
            node = shared[key] = node_at(key[0], key[1], self.us)
        return node

    def _legal_alone(self, ours: bool, depth: int) -> bool:
        """Whether the allowed moves of our (``ours``) or their node at
        ``depth`` are the standard ``legal`` generator's alone."""
        ranges = self.advice.legal_depths if ours else self.advice.their_legal_depths
        if not ranges:
            return False
        known = self.legal_at.get((ours, depth))
        if known is None:
            known = self.legal_at[ours, depth] = any(depth in r for r in ranges)
        return known

    def _visit(self, key: SearchKey) -> tuple[Entry, Node | None]:
        """Evaluate the goals at a new node; also return the node, whose
        facts its expansion may reuse (None when the goals did without it)."""
        self._count_node()
        position, depth = key
        advice = self.advice
        entry = Entry()
        entry.lo, entry.tree, entry.children = -1, None, None
        if depth <= self.reach and position in self.excluded:
            entry.lo = self.never
            self.memo[key] = entry
            return entry, None
        if advice.mate_alone and depth:
            # The holding-goal is true and mate the better-goal: a leaf is a
            # checkmate with them to move, read off the position.
            if position.turn != self.us and is_checkmate(position):
                entry.tree = LEAF
            self.memo[key] = entry
            return entry, None
        values = self.values
        said = None if values is None else values.get(position)
        node = None
        if said is None:
            said, node = self._goals(key)
        if said == FAILS:
            entry.lo = self.never
        elif said == LEAF_HERE:
            entry.tree = LEAF
        # Remembered once its goals are known (a goal that raises leaves no entry).
        self.memo[key] = entry
        return entry, node

    def _goals(self, key: SearchKey) -> tuple[int, Node]:
        """What the goals say at the node ``key`` (:data:`FAILS`, :data:`HOLDS`
        or :data:`LEAF_HERE`, kept in :attr:`values` when there are any), and
        the node they read."""
        position, depth = key
        advice = self.advice
        # :meth:`_node`, inlined: this runs at every new node.
        root = self.root
        shared = self.node_memo
        if not depth:
            node = root
        elif shared is None:
            node = node_at(position, depth, self.us)
        else:
            found = shared.get(key)
            if found is None:
                found = shared[key] = node_at(position, depth, self.us)
            node = found
        if not advice.holding(node, root):
            said = FAILS
        elif advice.better(node, root):
            said = LEAF_HERE
        else:
            said = HOLDS
        if self.values is not None:
            self.values[position] = said
        return said, node

    def _solve(self, key: SearchKey, bound: int) -> tuple[ForcingTree | None, int]:
        """A forcing tree of height <= ``bound`` from the node ``key``, or None
        if none exists, and the node's ``lo`` (it fails at every bound <= lo).
        The tree is minimal in height when it exists."""
        entry = self.memo.get(key)
        node = None
        if entry is None:
            if key[1] == self.last_theirs and key[0].turn != self.us:
                return self._last_reply(key)
            entry, node = self._visit(key)
        if entry.tree is not None and entry.tree.height <= bound:
            return entry.tree, entry.lo
        if entry.lo >= bound:
            return None, entry.lo
        if bound == 0:
            # Not a leaf, and no room for a move: fail without generating moves.
            entry.lo = 0
            return None, 0
        if self.odd_ours is not None and (bound ^ self.odd_ours ^ (key[0].turn != self.us)) & 1:
            # Every tree from here has a height of the other parity than
            # ``bound`` (:attr:`odd_ours`): a tree within it is one within
            # bound - 1, and where there is none, none within bound either.
            bound -= 1
            if entry.lo < bound:
                tree, lo = self._deepen(key, entry, node, bound) if bound else (None, 0)
                if tree is not None:
                    return tree, lo
            entry.lo = max(entry.lo, bound + 1)
            return None, entry.lo
        return self._deepen(key, entry, node, bound)

    def _deepen(
        self, key: SearchKey, entry: Entry, node: Node | None, bound: int
    ) -> tuple[ForcingTree | None, int]:
        """:meth:`_solve` at a node the memo cannot answer for ``bound`` > 0:
        search its children (``node`` is its Node when at hand)."""
        self.steps += 1
        if not self.steps & 4095:
            # Steps over the memo, without new nodes: the clock and the flag too.
            self._look_at_clock()
        advice = self.advice
        if bound == 1:
            ours = key[0].turn == self.us
            if self.one_ply and ours and not advice.leaf_in_check and entry.children is None:
                return self._one_ply(key, entry, node)
            if entry.children is None and advice.leaf_in_check and ours and self._legal_alone(True, key[1]):
                return self._mate_in_one(key, entry)
            if advice.mate_alone and not ours:
                # Every reply leads to a node of ours at bound 0, which holds
                # and is no leaf (a mate has them to move): each fails there
                # and not beyond, so this node fails at bound 1 (its lo, as
                # :meth:`_solve_theirs` would find it), replies unlisted.
                entry.lo = 1
                return None, 1
        if entry.children is None:
            entry.children = self._expand(key, node)
            if key[0].turn != self.us:
                self._refuters_first(key[1], entry.children)
        if not entry.children:
            # Not a leaf and no allowed move: no tree, at any bound.
            entry.lo = self.never
            return None, self.never
        if key[0].turn == self.us:
            tree, lo = self._solve_ours(key, entry.children, entry.lo, bound)
        else:
            tree, lo = self._solve_theirs(key, entry.children, bound)
        if tree is None:
            entry.lo = lo
        else:
            entry.tree = tree
        return tree, entry.lo

    def _one_ply(self, key: SearchKey, entry: Entry, node: Node | None) -> tuple[ForcingTree | None, int]:
        """:meth:`_deepen` at the root of a one-ply search (:attr:`one_ply`)
        whose leaves need no check: the allowed moves are tried in trying
        order straight from the generators, and the first that reaches a
        leaf gives the tree, as :meth:`_solve_ours` finds it at bound 0
        (most plans are such a search: squeeze, approach, keeproom). No
        child is met again, so none gets a record, a key or a memo entry,
        and a move is checked legal only when tried, from the legal targets
        of its piece (:meth:`_allowed`'s test; most moves are never tried).
        Nodes and stored moves are counted as the full search counts them."""
        position, depth = key
        if self._legal_alone(True, depth):
            moves = legal_moves(position) if node is None else node.legal_moves()
            segments = [(moves, "legal")] if moves else []
            known = True
        else:
            segments = self.advice.us_moves(self._node(key) if node is None else node)
            known = False
        for moves, _ in segments:
            self.moves += len(moves)
        if self.moves > self.limits.moves:
            raise self._spent(f"memory limit of {self.limits.moves} stored moves")
        if not segments:
            # Not a leaf and no allowed move: no tree, at any bound.
            entry.lo = self.never
            return None, self.never
        advice, root, us, shared = self.advice, self.root, self.us, self.node_memo
        holding, better = advice.holding, advice.better
        targets: dict[chess.Square, int] = {}
        least = self.never
        depth += 1
        for moves, name in segments:
            for move in moves:
                if known:
                    child = apply(position, move)
                else:
                    frm, to = move.from_square, move.to_square
                    reach = targets.get(frm)
                    if reach is None:
                        reach = targets[frm] = legal_targets(position, (frm,))[frm]
                    child = (
                        apply(position, move)
                        if reach & _BB[to] and MOVES[frm][to] is move
                        else play_checked(position, move, name)
                    )
                # :meth:`_visit`'s count and goals, without its memo entry.
                self._count_node()
                if depth <= self.reach and child in self.excluded:
                    continue  # fails at every bound
                if shared is None:
                    child_node = node_at(child, depth, us)
                else:
                    found = shared.get((child, depth))
                    if found is None:
                        found = shared[child, depth] = node_at(child, depth, us)
                    child_node = found
                if not holding(child_node, root):
                    continue  # fails at every bound
                if better(child_node, root):
                    entry.tree = make_tree(1, ((move, LEAF),))
                    return entry.tree, entry.lo
                least = 0  # holds, no leaf: fails at bound 0 only
        # As :meth:`_solve_ours` ends when no child is a leaf.
        entry.lo = min(self.never, least + 1)
        return None, entry.lo

    def _last_reply(self, key: SearchKey) -> tuple[ForcingTree | None, int]:
        """:meth:`_solve` at a new node of theirs at :attr:`last_theirs`: it is
        asked at bound 1 only (the horizon is one ply on), is no leaf (a leaf
        has us to move), and has a tree only when every reply reaches a leaf
        and its own holding-goal holds. So its replies are tried first, in
        :meth:`_refuters_first`'s order, each child decided by its goals
        alone (no memo entry: only the goals are ever asked of it), and its
        own holding-goal is evaluated only when no reply refutes: it fails
        then at bound 1 whatever that goal says, which is all its entry
        needs to know (most such nodes are refuted by their first reply).
        Its entry is decided here for every bound it can be asked at, so it
        keeps no children. The tree and the failure are the ones
        :meth:`_deepen` finds."""
        self._count_node()
        position, depth = key
        entry = Entry()
        entry.lo, entry.tree, entry.children = -1, None, None
        self.memo[key] = entry
        values = self.values
        assert values is not None  # position-only advice (:attr:`last_theirs`)
        said = values.get(position)
        if said == FAILS or depth <= self.reach and position in self.excluded:
            entry.lo = self.never
            return None, self.never
        if self._legal_alone(False, depth):
            segments = [(legal_moves(position), "legal", True)]
        else:
            segments = [(moves, name, False) for moves, name in self.advice.them_moves(self._node(key))]
        replies = [(move, name, known) for moves, name, known in segments for move in moves]
        if not replies:
            # Not a leaf and no allowed move: no tree, at any bound.
            entry.lo = self.never
            return None, self.never
        history = self.history.get(depth)
        trying = (
            sorted(replies, key=lambda reply: -history.get(_reply_key(reply[0]), 0))
            if history and len(replies) > 1
            else replies
        )
        for move, name, known in trying:
            child = apply(position, move) if known else play_checked(position, move, name)
            reached = values.get(child)
            if reached is None:
                self._count_node()
                reached = self._goals((child, depth + 1))[0]
            if reached != LEAF_HERE:
                self._count_refuter(depth, move)
                # A child failing its holding-goal fails at every bound; one
                # that holds fails at bound 0 only.
                entry.lo = self.never if reached == FAILS else 1
                return None, entry.lo
        if said is None and self._goals(key)[0] == FAILS:
            entry.lo = self.never
            return None, self.never
        entry.tree = make_tree(1, tuple((move, LEAF) for move, _, _ in replies))
        return entry.tree, -1

    def _expand(self, key: SearchKey, node: Node | None) -> list[Child]:
        """The children of ``key`` in trying order: the allowed moves, each
        marked known legal when it is one of the node's legal moves (then it
        is played unchecked; any other move is checked when first tried)."""
        ours = key[0].turn == self.us
        if self._legal_alone(ours, key[1]):
            # The standard generator alone: the legal moves, known without
            # asking it (nor building a node for it).
            moves = legal_moves(key[0]) if node is None else node.legal_moves()
            children = [Child(move, index, "legal", True) for index, move in enumerate(moves)]
        else:
            children = self._allowed(self._node(key) if node is None else node, ours)
        self.moves += len(children)
        if self.moves > self.limits.moves:
            raise self._spent(f"memory limit of {self.limits.moves} stored moves")
        return children

    def _allowed(self, node: Node, ours: bool) -> list[Child]:
        """:meth:`_expand`'s children from the move constraint's generators,
        each marked known legal (to be played unchecked) when it is one of
        the node's legal moves: all of them when the generator gave exactly
        the node's legal moves (the very objects, as the standard ``legal``
        does); else each by one lookup in the legal moves' targets of the
        generator's pieces (:func:`~al0.board.moves.legal_targets`, the shared
        ``Move`` of its squares only: a move with a promotion or a drop is
        never legal here), which costs less than listing the legal moves or
        checking each move with :func:`~al0.board.moves.play` when it is tried."""
        segments = (self.advice.us_moves if ours else self.advice.them_moves)(node)
        children: list[Child] = []
        legal = node.known_legal_moves()
        for moves, name in segments:
            place = len(children)
            if legal is not None and len(moves) == len(legal) and all(map(is_, moves, legal)):
                children += [Child(move, place + index, name, True) for index, move in enumerate(moves)]
                continue
            # The legal targets of the pieces this generator moves only.
            targets = legal_targets(node.position, {move.from_square for move in moves})
            children += [
                Child(
                    move,
                    place + index,
                    name,
                    targets[move.from_square] & _BB[move.to_square] != 0
                    and MOVES[move.from_square][move.to_square] is move,
                )
                for index, move in enumerate(moves)
            ]
        return children

    def _child(self, parent: SearchKey, child: Child, bound: int) -> tuple[ForcingTree | None, int]:
        """:meth:`_solve` of one child of ``parent``; its move is played (and
        checked legal unless known to be) the first time it is tried."""
        key = child.key
        if key is None:
            position = (
                apply(parent[0], child.move)
                if child.legal
                else play_checked(parent[0], child.move, child.generator)
            )
            key = child.key = (position, parent[1] + 1)
        return self._solve(key, bound)

    def _solve_ours(
        self, key: SearchKey, children: list[Child], lo: int, bound: int
    ) -> tuple[ForcingTree | None, int]:
        # Raise the child bound step by step: the first child that succeeds
        # has the least height, so the tree is the shallowest. A child that
        # failed at bound b fails at every bound <= its lo, so the bound may
        # jump past the least lo at once: those steps would only read the
        # memo and fail (this is what keeps a far horizon cheap).
        child_bound = max(0, lo)
        least = self.never
        while child_bound < bound:
            least = self.never
            if child_bound == 0:
                found, least = self._first_leaf(key, children)
                if found is not None:
                    return make_tree(1, ((found, LEAF),)), lo
                child_bound = least + 1
                continue
            for child in children:
                subtree, child_lo = self._child(key, child, child_bound)
                if subtree is not None:
                    return make_tree(subtree.height + 1, ((child.move, subtree),)), lo
                if child_lo < least:
                    least = child_lo
            child_bound = max(child_bound + 1, least + 1)
        # Every child fails at every bound <= least: we fail up to least + 1.
        return None, min(self.never, max(bound, least + 1))

    def _mate_in_one(self, key: SearchKey, entry: Entry) -> tuple[ForcingTree | None, int]:
        """:meth:`_deepen` at bound 1 at our node whose allowed moves are the
        legal ones, for an advice whose leaves are in check: only a checking
        move can reach a leaf, so only those are listed and tried, in the
        legal moves' order (the tree is the one the full search finds). The
        node stays unexpanded; it fails at bound 1 at most. For an advice of
        mate alone the children are decided, not visited (nor counted as
        nodes): a leaf is a checkmate, which :func:`~al0.board.checks.mate_in_one`
        finds from this position."""
        position, depth = key
        if self.advice.mate_alone:
            mate = mate_in_one(position)
            if mate is not None:
                entry.tree = make_tree(1, ((mate, LEAF),))
                return entry.tree, entry.lo
            entry.lo = max(entry.lo, 1)
            return None, entry.lo
        memo = self.memo
        for move in legal_checks(position):
            child_key = (apply(position, move), depth + 1)
            child = memo.get(child_key)
            if child is None:
                child = self._visit(child_key)[0]
            if child.tree is LEAF:
                entry.tree = make_tree(1, ((move, LEAF),))
                return entry.tree, entry.lo
            if child.lo < 0:
                child.lo = 0
        entry.lo = max(entry.lo, 1)
        return None, entry.lo

    def _first_leaf(self, key: SearchKey, children: list[Child]) -> tuple[chess.Move | None, int]:
        """The move of the first child that is a leaf, or None and the least
        ``lo`` of the children (they all fail at every bound up to it). This
        is :meth:`_child` at bound 0, inlined: at our nodes every child is
        tried so before any is searched deeper."""
        if self.advice.leaf_ours is not None and self.advice.leaf_ours == (key[0].turn == self.us):
            # The children have the other side to move than a leaf: each
            # fails at bound 0, and is visited only when searched deeper.
            return None, 0
        memo = self.memo
        least = self.never
        trying = children
        if self.advice.leaf_in_check:
            trying = self._may_check(key[0], children)
            if len(trying) < len(children):
                least = 0  # the others fail at bound 0: no leaf is out of check
        depth = key[1] + 1
        for child in trying:
            child_key = child.key
            if child_key is None:
                position = (
                    apply(key[0], child.move)
                    if child.legal
                    else play_checked(key[0], child.move, child.generator)
                )
                child_key = child.key = (position, depth)
            entry = memo.get(child_key)
            if entry is None:
                entry = self._visit(child_key)[0]
            if entry.tree is LEAF:
                return child.move, 0
            child_lo = entry.lo
            if child_lo < 0:
                child_lo = entry.lo = 0
            if child_lo < least:
                least = child_lo
        return None, least

    @staticmethod
    def _may_check(position: Position, children: list[Child]) -> list[Child]:
        """The children, in order, that may be a leaf of an advice whose
        better-goal needs check: all but the known legal moves, not yet
        played, that give no check (those are never played to find out)."""
        unplayed = [child.move for child in children if child.key is None and child.legal]
        if not unplayed:
            return children
        checking = {id(move) for move in checking_moves(position, unplayed)}
        return [
            child
            for child in children
            if child.key is not None or not child.legal or id(child.move) in checking
        ]

    def _refuters_first(self, depth: int, children: list[Child]) -> None:
        """Order a their node's new ``children`` by how often each reply
        refuted a node of theirs at ``depth`` so far, most first (ties in
        the generator's order): the same reply (their king stepping out of
        the net the same way) often refutes its neighbours too. The order
        in which replies are tried never changes what is found (every reply
        must be met, and the tree lists them in the generator's order), only
        how soon a refutation ends the node's search."""
        history = self.history.get(depth)
        if history and len(children) > 1:
            children.sort(key=lambda child: -history.get(_reply_key(child.move), 0))

    def _refuted(self, depth: int, children: list[Child], index: int) -> None:
        """The reply ``children[index]`` of a node of theirs at ``depth``
        refuted it: try it first next time there, and count it for new nodes
        of theirs at this depth (:meth:`_refuters_first`)."""
        self._count_refuter(depth, children[index].move)
        children.insert(0, children.pop(index))

    def _count_refuter(self, depth: int, move: chess.Move) -> None:
        """Count ``move`` for the new nodes of theirs at ``depth``
        (:meth:`_refuters_first`): it refuted one."""
        history = self.history.setdefault(depth, {})
        key = _reply_key(move)
        history[key] = history.get(key, 0) + 1

    def _solve_theirs(
        self, key: SearchKey, children: list[Child], bound: int
    ) -> tuple[ForcingTree | None, int]:
        branches = []
        for index, child in enumerate(children):
            subtree, child_lo = self._child(key, child, bound - 1)
            if subtree is None:
                self._refuted(key[1], children, index)
                # It refutes every bound up to its lo + 1.
                return None, min(self.never, max(bound, child_lo + 1))
            branches.append((child.place, child.move, subtree))
        # The tree lists the replies in the generator's order, whatever order they were tried in.
        branches.sort(key=lambda branch: branch[0])
        height = 1 + max(subtree.height for _, _, subtree in branches)
        return make_tree(height, tuple((move, subtree) for _, move, subtree in branches)), -1
