"""A practice game as PGN (python-chess's writer): the verdict of each move
as its comment (a mistake marked ``?``, a blunder ``??``), the distance to
mate as ``[%eval #N]``, and arrows and
squares (``[%cal]``, ``[%csl]``) that lichess studies and ChessBase draw:
green the method's move, blue the tablebase's fastest, red a blunder's
square, yellow the box their king is held in after our move."""

from __future__ import annotations

from typing import Callable, Iterable, Protocol

import chess
import chess.engine
import chess.pgn
import chess.svg

from al0.board import Material
from al0.lang.node import Node
from al0.lang.vocabulary.boxes import area_squares
from al0.lang.vocabulary.terms import material_pieces
from al0.teach.verdict import Grade, Verdict

RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
NAGS = {Grade.MISTAKE: chess.pgn.NAG_MISTAKE, Grade.BLUNDER: chess.pgn.NAG_BLUNDER}
"""The PGN marks (``?``, ``??``, written ``$2``, ``$4``) of the two slips."""
LARGEST_BOX = 24
"""The largest box of their king drawn (yellow squares): a bigger one
covers most of the board and says nothing a student can see."""


class Played(Protocol):
    """A move of the student with its verdict and the defence's reply."""

    @property
    def move(self) -> chess.Move: ...
    @property
    def reply(self) -> chess.Move | None: ...
    @property
    def verdict(self) -> Verdict: ...


def _arrows(verdict: Verdict, move: chess.Move) -> list[chess.svg.Arrow]:
    """The method's move (green) and the fastest (blue) where the student
    played neither; a blunder's target square (red)."""
    arrows = []
    if verdict.grade in (Grade.GOOD, Grade.MISTAKE, Grade.BLUNDER):
        if verdict.method is not None and verdict.method != move:
            arrows.append(
                chess.svg.Arrow(verdict.method.from_square, verdict.method.to_square, color="green")
            )
        fastest = next((best for best in verdict.best if best not in (move, verdict.method)), None)
        if fastest is not None:
            arrows.append(chess.svg.Arrow(fastest.from_square, fastest.to_square, color="blue"))
    if verdict.grade is Grade.BLUNDER:
        arrows.append(chess.svg.Arrow(move.to_square, move.to_square, color="red"))
    return arrows


def practice_game(
    start: chess.Board,
    turns: Iterable[Played],
    us: chess.Color,
    headers: dict[str, str],
    result: str = "*",
    taken_back: Iterable[tuple[int, str, Played]] = (),
) -> chess.pgn.Game:
    """The game from ``start`` (our move) as a python-chess game tree; the
    moves ``taken_back`` (each with its place among ``turns`` and the FEN
    it was played at) as variations beside the move played there, with
    their verdicts, where the game as played passes that position. A mate
    taken back last, where the game as kept stops, is the game's end: the
    student won, and looked back (``undo``) without playing on."""
    played = list(turns)
    taken = list(taken_back)
    if result == "*" and taken and taken[-1][0] == len(played) and taken[-1][2].verdict.after == 0:
        played.append(taken.pop()[2])
        result = "1-0" if us == chess.WHITE else "0-1"
    aside: dict[int, list[tuple[str, Played]]] = {}
    for index, fen, turn in taken:
        aside.setdefault(index, []).append((fen, turn))
    game = chess.pgn.Game()
    for key, value in headers.items():
        game.headers[key] = value
    game.headers["White" if us else "Black"] = "student"
    game.headers["Black" if us else "White"] = "al0 (tablebase defence)"
    game.setup(start)
    game.headers["Result"] = result if result in RESULTS else "*"
    node: chess.pgn.GameNode = game
    region = area_squares(material_pieces(Material.of(start, us))["k"])

    def box(board: chess.Board) -> chess.Bitboard:
        return region(Node(board, 1, us))

    for index in range(len(played) + 1):
        parent = node
        here = parent.board().fen()
        if index < len(played):
            child = _annotated(parent, played[index], us, box)
            node = child if played[index].reply is None else child.variations[0]
        for fen, turn in aside.get(index, []):
            if fen == here:
                _annotated(parent, turn, us, box)
    return game


def _annotated(
    parent: chess.pgn.GameNode, turn: Played, us: chess.Color, box: Callable[[chess.Board], chess.Bitboard]
) -> chess.pgn.GameNode:
    """``turn`` added under ``parent`` with its verdict, eval, arrows and
    their king's box (and the reply)."""
    verdict = turn.verdict
    child = parent.add_variation(turn.move)
    child.comment = f"{verdict.grade.value}: {verdict.reason}"
    if verdict.grade in NAGS:
        child.nags.add(NAGS[verdict.grade])
    if verdict.after:  # a mate in N; none after mate (played) or after a blunder
        child.set_eval(chess.engine.PovScore(chess.engine.Mate(verdict.after), us))
    elif verdict.lost is not None:  # the move loses: they mate, their reply counted
        child.set_eval(chess.engine.PovScore(chess.engine.Mate(-(verdict.lost + 1)), us))
    arrows = _arrows(verdict, turn.move)
    squares = box(child.board())
    if verdict.grade is not Grade.BLUNDER and 0 < chess.popcount(squares) <= LARGEST_BOX:
        arrows += [chess.svg.Arrow(square, square, color="yellow") for square in chess.scan_forward(squares)]
    child.set_arrows(arrows)
    if turn.reply is not None:
        child.add_variation(turn.reply)
    return child


def practice_pgn_text(games: Iterable[chess.pgn.Game]) -> str:
    """The games as one PGN file's text."""
    return "\n".join(str(game) + "\n" for game in games)
