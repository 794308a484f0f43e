"""How the UCI engine chooses its move at a position (:class:`MoveChoice`):
which table plays it, by material and colour, position by position; the
tablebase's :class:`~al0.uci.verdict.Verdict` there, asked once a move;
the forcing tree followed between moves of one game; the move played when
the search is cut; the table's plan, the tablebase's move where the table
cannot play or its move would throw a won game away or lose a drawn one,
else a short search.
The protocol's state machine (:mod:`al0.uci.protocol`) owns the lines and
the threads; this owns the choice."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess
from chess.polyglot import zobrist_hash

from al0.board import Material, canonical_material, played_by
from al0.engine import (
    ForcingTree,
    Match,
    Plan,
    SearchLimits,
    Tablebases,
    bundled_table,
    descend,
    principal_line,
)
from al0.errors import AL0Error, PositionError, SearchBudgetExceeded, one_line
from al0.games import PROOF_BUDGET
from al0.uci.go import Go, Search
from al0.uci.rescue import rescue_move, why_not
from al0.uci.scores import playable, proof_line, table_score
from al0.uci.short_search import ShortSearch, material_balance
from al0.uci.verdict import Verdict

if TYPE_CHECKING:
    from al0.lang import AdviceTable
    from al0.tablebase import Tablebase

SHORT_DEPTH = 3
"""Plies of the short search when ``go`` sets no limit: a fraction of a
second in Python (e.g. 659 positions from the start position)."""
MAX_DEPTH = 64
"""Plies the short search deepens to at most while the clock allows."""


@dataclass(frozen=True)
class Followed:
    """The plan being followed: the board our last move left, the subtree
    from there (their move next) and the plan it comes from."""

    after: chess.Board
    tree: ForcingTree
    plan: Plan
    table: str
    """The table whose plan it is: where a capture or a promotion hands
    the game to another, that one plans afresh."""


class MoveChoice:
    """The engine's choice of a move: the table given (``fixed``), or with
    ``Table auto`` the bundled table of each position's material, the node
    ``budget``, whether the tablebase may ``rescue`` a won game, the tree
    being followed. Used by one worker at a time (the protocol waits for a
    search to end before it changes any of this)."""

    def __init__(self, tablebases: Tablebases, fixed: Match | None, budget: int, rescue: bool):
        self.tablebases = tablebases
        self.fixed = fixed
        """The match of the table given, None to take the bundled one of
        each position's material."""
        self.budget = budget
        self.rescue = rescue
        """Whether the tablebase's move replaces the table's where that
        would repeat a position, throw a won game away or lose a drawn one
        (:mod:`al0.uci.rescue`)."""
        self._bundled: dict[str, Match | None] = {}
        """The bundled table's match by material named from the side to
        move (None: no such table); whether it plays a position is asked of
        each position (its colour), never remembered by material."""
        self.followed: Followed | None = None

    # ------------------------------------------------------------ settings

    def set_budget(self, budget: int) -> None:
        self.budget = budget
        if self.fixed is not None:
            self.fixed = self.fixed.with_budget(budget)
        self._bundled.clear()
        self.followed = None  # its plan came from the old planner

    def set_table(self, fixed: Match | None) -> None:
        """Play ``fixed`` (None: the bundled table of each position's material)."""
        self.fixed = fixed
        self.followed = None

    def forget_game(self) -> None:
        """A new game: the tree followed is the last game's."""
        self.followed = None

    # ------------------------------------------------- tables and tablebases

    def match_for(self, board: chess.Board) -> Match | None:
        """The match of the table that plays ``board``: the one given (or
        the table it hands the game to once a capture or a promotion has
        changed the material: :meth:`~al0.engine.match.Match.playing`), else
        the bundled table of the side to move's material, each where it
        plays that material with the side to move (a table plays its
        colour: KRK with Black's rook is not the KRK table's)."""
        match = self.fixed.playing(board) if self.fixed is not None else None
        if self.fixed is None:
            material = Material.of(board, board.turn)
            if material.name not in self._bundled:
                path = bundled_table(material)
                self._bundled[material.name] = (
                    Match.load(path, self.budget, self.tablebases) if path is not None else None
                )
            match = self._bundled[material.name]
            if match is not None and match.table.us != board.turn:
                return None
        if match is None or not played_by(board, match.table.material, match.table.us):
            return None
        return match

    def tablebase_for(self, board: chess.Board, match: Match | None) -> Tablebase | None:
        """The tablebase of ``board``'s material: the table's that plays it
        (loaded, or built, once), else one loaded or on disk already (a move's clock
        never waits for a build); None with castling rights, which no
        tablebase knows."""
        if board.castling_rights:
            return None
        if match is not None:
            return match.tablebase
        return self.tablebases.cached(Material.of(board, board.turn))

    def prepare(self, board: chess.Board | None) -> None:
        """Load the table and the tablebase a ``go`` at ``board`` will need
        (at ``isready`` and ``position``, not on a move's clock).

        :raises AL0Error: a table or tablebase that cannot be loaded.
        """
        match = self.fixed if self.fixed is not None or board is None else self.match_for(board)
        if match is not None:
            match.tablebase  # loaded (or built) now, not on the clock of a go
        elif board is not None:
            self.tablebase_for(board, None)

    # -------------------------------------------------------------- choice

    def choose(self, search: Search, board: chess.Board, go: Go) -> chess.Move | None:
        """Our move at ``board``, its ``info`` lines said: a mate the mate
        search finds (``go mate N``), else the table's (or the tablebase's,
        where the table has none in time, cannot play the position, or its
        move would draw), else the short search's. Before any search, the
        move a cut search plays."""
        match = self.match_for(board)
        verdict = self._verdict(board, match)
        self._floor(search, board, verdict)
        if go.mate is not None:
            move = self._mate_search(search, board, go.mate, go.nodes)
            if move is not None:
                return move
        if match is None or board.turn != match.table.us:
            self.followed = None
            if self.fixed is None:
                why = "no bundled table plays this position"
            elif match is None and board.castling_rights and self.fixed.playing(_uncastled(board)):
                why = "no table plays a position with castling rights"
            elif match is None:
                why = f"not a {canonical_material(self.fixed.table.material)} position"
            else:
                why = f"the table plays {'White' if match.table.us else 'Black'}, not the side to move"
            return self._fallback(search, board, go, verdict, why)
        return self._table_move(search, board, go, match, verdict)

    def _verdict(self, board: chess.Board, match: Match | None) -> Verdict | None:
        """The tablebase's verdict at ``board``, None where no tablebase
        covers it."""
        tablebase = self.tablebase_for(board, match)
        if tablebase is None:
            return None
        try:
            return Verdict.of(tablebase, board)
        except PositionError:  # material the tablebase does not cover
            return None

    def _table_move(
        self, search: Search, board: chess.Board, go: Go, match: Match, verdict: Verdict | None
    ) -> chess.Move | None:
        """The table's move: the tree followed, or a new plan's."""
        table, planner = match.table, match.planner
        tree, plan, how = self._tree_at(board, table)
        # Following the tree searches nothing: no nodes, no time.
        nodes, ms = 0, 0
        if tree is None:
            limits = SearchLimits(min(self.budget, go.nodes or self.budget), stop=search.stop)
            searches = len(planner.search_seconds)
            started = time.perf_counter()
            try:
                plan = planner.plan(board, limits)
            except AL0Error as error:  # a spent budget, a stop, a library that raised
                return self._fallback(search, board, go, verdict, one_line(error))
            if plan.tree is None:
                return self._fallback(search, board, go, verdict, f"no plan: {plan.describe_failure()}")
            tree = plan.tree
            # A plan the planner remembers (this position, or its mirror
            # image, planned before, in this game or an earlier one) was
            # not searched now: its own figures are another search's.
            if len(planner.search_seconds) > searches:
                how, nodes, ms = "new plan", plan.nodes, round((time.perf_counter() - started) * 1000)
            else:
                how = "plan from memory: no search"
        assert plan is not None  # set with the tree, by _tree_at or the planner
        move = tree.branches[0][0]
        handed = self.fixed is not None and match is not self.fixed  # a capture or a promotion
        said = (
            "table " + table.name + " " if handed else ""
        ) + f"rule {plan.rule} advice {plan.advice} ({how})"
        if verdict is not None and self.rescue:
            why = why_not(verdict, board, move)
            if why is not None:
                return self._fallback(search, board, go, verdict, f"{said}: its move {move.uci()} {why}")
        after = board.copy()
        after.push(move)
        subtree = descend(tree, move, table)
        self.followed = Followed(after, subtree, plan, table.name) if subtree is not None else None
        score, source = table_score(board, tree, verdict)
        pv = " ".join(m.uci() for m in principal_line(tree))
        # The advice in the table's own words, where it has them, for a GUI's
        # engine output (the identifiers are for the table's author); on the
        # same line, since a client keeps one string a move, and with a
        # folded description's line ends taken out, which would end the line.
        advice = table.advice.get(plan.advice) if plan.advice is not None else None
        words = " ".join(advice.description.split()) if advice is not None else ""
        search.improve(
            move,
            f"info depth {tree.height} score {score} nodes {nodes} time {ms} pv {pv}",
            f"info string {said}; score from {source}" + (f" — {words}" if words else ""),
        )
        return move

    def _floor(self, search: Search, board: chess.Board, verdict: Verdict | None) -> None:
        """The move ``stop`` or the clock plays until a search has one: the
        tablebase's, else the first legal move in UCI order (a short
        search's position, where its first depth comes in milliseconds)."""
        if verdict is not None:
            search.floor(*tablebase_answer(verdict, board, "cut before the plan was made"))
            return
        move = min(board.legal_moves, key=chess.Move.uci)
        search.floor(
            move,
            f"info depth 0 score cp {material_balance(board, board.turn)} pv {move.uci()}",
            "info string cut before a search ended: playing the first legal move",
        )

    def _tree_at(self, board: chess.Board, table: AdviceTable) -> tuple[ForcingTree | None, Plan | None, str]:
        """The subtree to follow at ``board``: when it is the position our last
        move left followed by a reply the tree covers, and ``table`` still
        plays. Compared by position, so a GUI that sends ``position fen``
        without the moves is followed too."""
        followed, self.followed = self.followed, None
        if followed is None or followed.table != table.name:
            return None, None, ""
        key = zobrist_hash(board)
        for reply, _ in followed.tree.branches:
            followed.after.push(reply)
            reached = zobrist_hash(followed.after) == key
            followed.after.pop()
            subtree = descend(followed.tree, reply, table)
            if reached and subtree is not None:
                return subtree, followed.plan, "following the tree"
        return None, None, ""

    def _fallback(
        self, search: Search, board: chess.Board, go: Go, verdict: Verdict | None, why: str
    ) -> chess.Move | None:
        """Where the table cannot play (or its move would throw the win
        away): the tablebase's move, else the short search's."""
        self.followed = None
        if verdict is None:
            return self._short_search(search, board, go, why)
        move, *lines = tablebase_answer(verdict, board, why)
        search.improve(move, *lines)
        return move

    def _short_search(self, search: Search, board: chess.Board, go: Go, why: str) -> chess.Move | None:
        """The short search's move, each depth's line said as it is found."""
        search.say(f"info string {why}: playing a short search")
        limited = go.held or go.seconds is not None or go.nodes is not None
        depth = go.depth or (MAX_DEPTH if limited else SHORT_DEPTH)
        searcher = ShortSearch(board, go.nodes, search.stop, self.tablebases)
        started = time.perf_counter()
        move = None
        try:
            for line in searcher.deepen(depth):
                score = f"mate {line.mate}" if line.mate is not None else f"cp {line.centipawns}"
                ms = round((time.perf_counter() - started) * 1000)
                pv = " ".join(m.uci() for m in playable(board, line.pv))
                if line.pv:
                    move = line.pv[0]
                    search.improve(
                        move, f"info depth {line.depth} score {score} nodes {line.nodes} time {ms} pv {pv}"
                    )
        except SearchBudgetExceeded as error:
            search.say(f"info string short search ended: {one_line(error)}")
        return move

    def _mate_search(
        self, search: Search, board: chess.Board, moves: int, nodes: int | None
    ) -> chess.Move | None:
        """``go mate N``: the first move of a mate in ``moves``, if one is found."""
        searcher = ShortSearch(board, PROOF_BUDGET if nodes is None else nodes, search.stop, self.tablebases)
        try:
            proof = searcher.prove_mate(moves)
        except SearchBudgetExceeded as error:
            search.say(f"info string no mate in {moves} found: {one_line(error)}")
            return None
        if proof is None:
            search.say(f"info string there is no mate in {moves}")
            return None
        self.followed = None
        move = proof.branches[0][0]
        pv = " ".join(m.uci() for m in proof_line(proof))
        search.improve(
            move,
            f"info depth {2 * proof.moves - 1} score mate {proof.moves} nodes {searcher.game.nodes} pv {pv}",
            f"info string mate in {proof.moves} found by the mate search",
        )
        return move


def tablebase_answer(verdict: Verdict, board: chess.Board, why: str) -> tuple[chess.Move, str, str]:
    """The tablebase's move at ``board`` (:func:`~al0.uci.rescue.rescue_move`)
    and its ``info`` lines: its score, and ``why`` it is played."""
    move = rescue_move(verdict, board)
    score, best = verdict.move_score(move), verdict.score()
    note = "" if score == best else f" (its quickest, {best}, would repeat a position)"
    return (
        move,
        f"info depth 1 score {score} pv {move.uci()}",
        f"info string {why}: playing the tablebase move{note}",
    )


def _uncastled(board: chess.Board) -> chess.Board:
    """``board`` without its castling rights: what tells a position of the
    table's material that only its castling rights keep from the table."""
    bare = board.copy(stack=False)
    bare.castling_rights = chess.BB_EMPTY
    return bare
