"""Games as PGN as chess tools read it: standard headers, movetext wrapped
at 80 columns, the advice behind each of our moves as its comment and, when
a tablebase knows it, the distance to mate after every move as an
``[%eval #N]`` command (lichess, SCID and ChessBase draw the evaluation
graph from it).

The ``Termination`` header takes the PGN standard's values (``normal``,
``unterminated``, ``abandoned``); how al0 saw the game end (stalemate, no
plan, repetition, …) goes in the ``Al0Ending`` header and, in words, in the
comment after the last move.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

import chess
import chess.engine
import chess.pgn

from al0.engine.play import Ending

if TYPE_CHECKING:
    from al0.tablebase import Tablebase

COLUMNS = 80
"""The longest movetext line: the PGN standard's export format keeps lines
under 80 columns, and python-chess's exporter wraps at a given width."""

ENDING_TAG = "Al0Ending"
"""The header naming the game's end as al0 saw it (an :class:`Ending` value)."""


@dataclass(frozen=True)
class PgnGame:
    """What a PGN game is made of: the start, the moves each with its
    comment (the advice for ours, '' for theirs) and the headers' facts."""

    start: chess.Board
    moves: tuple[tuple[chess.Move, str], ...]
    result: str
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    ending: Ending
    event: str
    white: str
    black: str
    us: chess.Color
    """The side the table plays: the distances to mate are its."""
    detail: str = ""
    """The ending in words (``no plan: no rule's precondition holds``),
    written after the last move; '' for none."""


def termination(ending: Ending, result: str) -> str:
    """The PGN standard's ``Termination`` for a game that ended so: a game
    with a result ended by the rules (``normal``: mate, stalemate, a draw
    by repetition, the 50-move rule or too little material); one the
    opponent left is ``abandoned``; one stopped without a result (no plan,
    the move limit, a piece lost with mating material left) is
    ``unterminated``."""
    if ending is Ending.QUIT:
        return "abandoned"
    return "unterminated" if result == "*" else "normal"


def today() -> str:
    """Today's date (UTC) as PGN writes it: ``2026.11.22``."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y.%m.%d")


def distance_note(board: chess.Board, table: Tablebase | None, us: chess.Color) -> str:
    """``mate in N`` (or ``no forced mate``) for ``us`` at ``board`` by the
    tablebase; '' when there is none."""
    if table is None:
        return ""
    dtm = table.dtm(board, us)
    if dtm is None:
        return "no forced mate"
    return "mated" if dtm == 0 else f"mate in {dtm}"


def _verdict(
    board: chess.Board, table: Tablebase | None, us: chess.Color
) -> tuple[str, chess.engine.PovScore | None]:
    """The tablebase's verdict on ``board`` for ``us``: the score ``mate in
    N`` when ``us`` mates in N, the words ``no forced mate`` when it cannot;
    nothing at mate (the board says it) or without a tablebase."""
    dtm = table.dtm(board, us) if table is not None else None
    if table is not None and dtm is None:
        return "no forced mate", None
    if dtm:
        return "", chess.engine.PovScore(chess.engine.Mate(dtm), us)
    return "", None


def header_value(text: str) -> str:
    """``text`` as one header's value: a PGN header is one line of printing
    characters, so every run of others (a newline, a tab, U+2028) and of
    spaces is one space. A table's name is its author's to choose, and one
    with a newline ended the header and began a game of its own."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def to_pgn(game: PgnGame, table: Tablebase | None, date: str | None = None) -> chess.pgn.Game:
    """``game`` as python-chess's PGN game: each move's comment, then the
    tablebase's verdict after it (see :func:`_verdict`), and the ending in
    words after the last move (before the moves, for a game without any)."""
    pgn = chess.pgn.Game()
    pgn.setup(game.start)
    pgn.headers["Event"] = header_value(game.event)
    pgn.headers["Date"] = date or today()
    pgn.headers["White"] = header_value(game.white)
    pgn.headers["Black"] = header_value(game.black)
    pgn.headers["Result"] = game.result
    pgn.headers["Termination"] = termination(game.ending, game.result)
    pgn.headers[ENDING_TAG] = game.ending.value
    board = game.start.copy()
    node: chess.pgn.GameNode = pgn
    for number, (move, comment) in enumerate(game.moves, 1):
        board.push(move)
        words, score = _verdict(board, table, game.us)
        last = game.detail if number == len(game.moves) else ""
        node = node.add_variation(move, comment="; ".join(p for p in (comment, words, last) if p))
        # python-chess writes the score as [%eval #N], N positive when White mates.
        node.set_eval(score)
    if not game.moves:
        pgn.comment = game.detail
    return pgn


def escaped(value: str) -> str:
    """A header's value as the PGN standard quotes it: each ``\\`` and ``"``
    after a backslash. python-chess writes it as it is, so a table named
    ``x"] [Result "0-1`` added a ``Result`` tag for a tokenising reader."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


class _Exporter(chess.pgn.StringExporter):
    """python-chess's exporter, with each header's value escaped
    (:func:`escaped`), which wraps movetext at ``columns`` between
    tokens, where a comment longer than a line is broken between its words
    (an ``[%eval …]`` command kept whole): python-chess writes a comment as
    one token, which would overflow the line."""

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        super().visit_header(tagname, escaped(tagvalue))

    def visit_comment(self, comment: str) -> None:
        text = comment.replace("}", "").strip()
        if self.columns is None or len(f"{{ {text} }}") <= self.columns:
            super().visit_comment(comment)
        elif self.comments and (self.variations or not self.variation_depth):
            for token in ["{", *re.findall(r"\[%[^\]]*\]|\S+", text), "}"]:
                self.write_token(token + " ")
            self.force_movenumber = True


def pgn_text(games: Iterable[PgnGame], table: Tablebase | None, date: str | None = None) -> str:
    """Every game as PGN, movetext wrapped at :data:`COLUMNS`, a blank line
    between games."""
    texts = []
    for game in games:
        exporter = _Exporter(columns=COLUMNS)
        texts.append(to_pgn(game, table, date).accept(exporter) + "\n\n")
    return "".join(texts)


def players(us: chess.Color, ours: str, theirs: str) -> tuple[str, str]:
    """(White, Black) for the table's side ``us``."""
    return (ours, theirs) if us == chess.WHITE else (theirs, ours)
