"""Playing against a person at a terminal: reading their moves as people
type them, and showing the position as they need to see it.

Nothing here reads or prints; the CLI does, with these texts.
"""

from __future__ import annotations

import chess

from al0.errors import AL0Error
from al0.integers import shown

LIST_WORDS = ("moves", "?", "help", "legal")
"""What a player types at the prompt to see the legal moves."""
QUIT_WORDS = ("quit", "exit", "q")


class MoveInputError(AL0Error):
    """What a player typed is not one legal move here: unknown, illegal or
    ambiguous (the message says which, with the moves it could be)."""


def legal_sans(board: chess.Board) -> list[str]:
    """The legal moves in SAN, sorted."""
    return sorted(board.san(move) for move in board.legal_moves)


def _folded(text: str) -> str:
    """``text`` without case, capture and check marks: ``Kxa1+`` → ``ka1``."""
    return "".join(c for c in text.lower() if c not in "x+#!?=-")


def _readings(board: chess.Board, move: chess.Move) -> tuple[str, ...]:
    """How ``move`` may be typed, folded: its SAN, its UCI, for a piece the
    letter and target alone (``bd4`` for ``Bcd4``: ambiguous if another
    bishop also reaches d4; '' for a pawn), and for a promotion its SAN and
    UCI without the piece (``e8``, ``e7e8``: every promotion reads so, and
    the player is asked which, not told the move is illegal)."""
    piece = board.piece_type_at(move.from_square)
    short = (
        chess.piece_symbol(piece) + chess.square_name(move.to_square)
        if piece is not None and piece != chess.PAWN
        else ""
    )
    san = _folded(board.san(move))
    if move.promotion is None:
        return san, move.uci(), short
    return san, move.uci(), short, san[:-1], move.uci()[:4]


def parse_move(board: chess.Board, text: str) -> chess.Move:
    """The legal move ``text`` names: SAN (``Kb2``), UCI (``c2b2``), or SAN
    in any case when only one legal move reads so (``ka1``, ``KB2``).

    :raises MoveInputError: naming the text and the legal moves, or the
        moves it could be when it is ambiguous.
    """
    for parse in (board.parse_san, chess.Move.from_uci):
        try:
            move = parse(text)
        except ValueError:
            continue
        # parse_san reads "--" and "0000" as a null move: it may not pass.
        if move in board.legal_moves:
            return move
    folded = _folded(text)
    matches = [move for move in board.legal_moves if folded and folded in _readings(board, move)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        could_be = ", ".join(sorted(board.san(move) for move in matches))
        raise MoveInputError(f"{shown(text)} is ambiguous here: {could_be}")
    raise MoveInputError(
        f"{shown(text)} is not a legal move here; legal moves: {', '.join(legal_sans(board))}"
    )


def side_name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def last_move_text(board: chess.Board) -> str:
    """The last move in numbered SAN (``12. Kd3`` or ``12... Kc1``), '' at the start."""
    if not board.move_stack:
        return ""
    move = board.pop()
    try:
        number = f"{board.fullmove_number}." if board.turn == chess.WHITE else f"{board.fullmove_number}..."
        return f"{number} {board.san(move)}"
    finally:
        board.push(move)


def board_text(board: chess.Board) -> str:
    """The board with coordinates, then the last move and the side to move."""
    rows = [f"{8 - i} {row}" for i, row in enumerate(str(board).splitlines())]
    rows.append("  a b c d e f g h")
    rows.append(status_text(board))
    return "\n".join(rows)


def unicode_board_text(board: chess.Board, orientation: chess.Color = chess.WHITE) -> str:
    """The board in chess symbols (python-chess's ``unicode()``), seen from
    ``orientation``'s side, with coordinates, then the last move and the
    side to move."""
    ranks = "87654321" if orientation == chess.WHITE else "12345678"
    files = "a b c d e f g h" if orientation == chess.WHITE else "h g f e d c b a"
    drawn = board.unicode(empty_square="·", orientation=orientation).splitlines()
    rows = [f"{rank} {row}" for rank, row in zip(ranks, drawn)]
    rows.append(f"  {files}")
    rows.append(status_text(board))
    return "\n".join(rows)


def status_text(board: chess.Board) -> str:
    """The last move (when there is one) and the side to move, with check."""
    last = last_move_text(board)
    status = f"{side_name(board.turn)} to move"
    if board.is_check():
        status += " (in check)"
    return f"last move: {last}; {status}" if last else status


def prompt(board: chess.Board) -> str:
    """What the player is asked at their turn."""
    return f"Your move as {side_name(board.turn)} (SAN or UCI; 'moves' lists the legal moves, 'quit' stops): "
