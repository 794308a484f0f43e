"""Reading positions and checking them against a table's material."""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

import chess

from al0.board.material import Material
from al0.board.position import from_board
from al0.errors import PositionError
from al0.files import read_regular_file

FIFTY_MOVE_PLIES = 100
"""The half-move clock at which the 50-move rule draws the game: al0's play
loop ends it there, as an arbiter would on the claim."""

MAX_EPD_BYTES = 100_000_000
"""The largest EPD file read: one line per KBNK class (1.35 million) is
about 60 MB; each position read takes about 1 KB of memory, so a file
larger still would fill the memory of a small machine."""

LAST_PLIES_SEARCHED = 3
"""How close to the 50-move rule a start is searched for a mate (or a
capture or pawn move, which resets the clock) in the half-moves left: a
few plies cost milliseconds, and with more left a mate is possible from
nearly every position, while the search would cost more than the game."""


def halfmove_clock(fen: str) -> int:
    """The half-move clock of ``fen`` (its fifth field): 0 where it has
    none, as in an EPD line's position."""
    fields = fen.split()
    return int(fields[4]) if len(fields) > 4 and fields[4].isdigit() else 0


def material_of(board: chess.Board, us: chess.Color) -> str:
    """The material as a signature, ours first: ``KRK`` for White K+R vs K
    (the name of :meth:`Material.of <al0.board.material.Material.of>`)."""
    return Material.of(board, us).name


def piece_counts(board: chess.Board, color: chess.Color) -> tuple[int, ...]:
    """How many pawns, knights, bishops, rooks, queens and kings ``color``
    has: a cheap material comparison for the play loop's every ply."""
    return tuple(chess.popcount(board.pieces_mask(piece_type, color)) for piece_type in chess.PIECE_TYPES)


def material_counts(material: Material) -> tuple[int, ...]:
    """:func:`piece_counts` of our side of ``material`` (``KRK`` → one rook, one king)."""
    return material.counts()


def canonical_material(material: Material) -> str:
    """``material``'s name, each side's pieces in the order KQRBN (see
    :meth:`Material.parse <al0.board.material.Material.parse>`)."""
    return material.name


def played_by(board: chess.Board, wanted: Material, us: chess.Color) -> bool:
    """A table of material ``wanted`` plays ``board``: our men are the
    table's and theirs the table's or fewer (a game of KQKR goes on as KQK
    once we take the rook)."""
    found = Material.of(board, us)
    return found.first == wanted.first and Counter(found.second) <= Counter(wanted.second)


def parse_fen(fen: str) -> chess.Board:
    """A board from ``fen``; rejects unparsable and illegal positions.

    :raises PositionError: naming the FEN and what is wrong with it.
    """
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise PositionError(f"bad FEN {fen!r}: {error}") from None
    check_legal(board, fen)
    return board


def check_legal(board: chess.Board, fen: str) -> None:
    """:raises PositionError: when ``board`` (read from ``fen``, which the
    message names) is not a legal position."""
    status = board.status()
    if status != chess.STATUS_VALID:
        problems = [
            flag.name.lower().replace("_", " ")
            for flag in chess.Status
            if flag and flag in status and flag.name
        ]
        raise PositionError(f"illegal position {fen!r}: {', '.join(problems)}")


def check_material(board: chess.Board, wanted: Material, us: chess.Color) -> None:
    """:raises PositionError: when ``board`` is not of material ``wanted``."""
    found = Material.of(board, us)
    if found != wanted:
        raise PositionError(f"position {board.fen()!r} has material {found}, but the table is for {wanted}")


def check_playable(board: chess.Board, material: Material, us: chess.Color) -> None:
    """:raises PositionError: when ``board`` is not of ``material`` (``us``
    holding our side), or has castling rights, which al0's search does not
    play. The loader checks a table's ``start:`` with it before the table
    exists."""
    check_material(board, material, us)
    from_board(board)


def file_in_folder(name: str, folder: str | os.PathLike[str]) -> Path:
    """The file ``name`` in ``folder``, for a file that a file names (a
    table's ``expect: positions:``, an ini option): it may read a regular
    file in its own folder or below it, and nothing else, so that a table
    from a stranger cannot have al0 read (and echo, in an error about a bad
    line) ``/etc/shadow``, ``../../.ssh/id_rsa`` or a link to either, nor
    block on a FIFO or a device. A missing file passes: reading it says so.

    :raises PositionError: naming ``name`` alone, never the file's content.
    """
    base = Path(folder).resolve()
    try:
        path = (base / name).resolve()  # symbolic links followed: a link out is out
    except (OSError, ValueError):  # a NUL byte, a loop of links
        raise PositionError(f"positions file {name!r}: not a file name") from None
    if os.path.isabs(name) or not path.is_relative_to(base):
        raise PositionError(
            f"positions file {name!r}: a table reads positions only from "
            f"files in its own folder (a relative path such as "
            f"positions.epd), or use all, every or sample:N"
        )
    try:
        mode = path.stat().st_mode
    except OSError:
        return path
    if not stat.S_ISREG(mode):
        raise PositionError(f"positions file {name!r}: not a regular file")
    return path


def check_not_over(board: chess.Board) -> None:
    """:raises PositionError: when the game at ``board`` is over (mate,
    stalemate, bare kings, the 50-move rule), or its half-move clock ends it
    before any mate is possible: playing it would count the clock against
    the table."""
    outcome = board.outcome()
    # The 75-move rule is an outcome too: the 50-move rule's message says more.
    if outcome is not None and outcome.termination != chess.Termination.SEVENTYFIVE_MOVES:
        raise PositionError(f"{board.fen()!r}: the game is already over")
    clock = board.halfmove_clock
    if clock >= FIFTY_MOVE_PLIES:
        raise PositionError(
            f"{board.fen()!r}: the 50-move rule has already ended the game (half-move clock {clock})"
        )
    left = FIFTY_MOVE_PLIES - clock
    if left <= LAST_PLIES_SEARCHED and not _mate_or_reset_within(board, left):
        raise PositionError(
            f"{board.fen()!r}: the 50-move rule ends the game before any "
            f"mate is possible (half-move clock {clock})"
        )


def _mate_or_reset_within(board: chess.Board, plies: int) -> bool:
    """Some line of at most ``plies`` half-moves, by either side, mates or
    resets the half-move clock; ``board`` is left as it was."""
    if plies <= 0:
        return False
    for move in board.legal_moves:
        if board.is_zeroing(move):
            return True
        board.push(move)
        try:
            if board.is_checkmate() or _mate_or_reset_within(board, plies - 1):
                return True
        finally:
            board.pop()
    return False


@dataclass(frozen=True)
class EpdLine:
    """One position of an EPD file, with what its operations say of it."""

    number: int
    """Its line in the file."""
    board: chess.Board
    id: str | None = None
    """``id "…"``: the position's name in its set."""
    best: tuple[chess.Move, ...] = ()
    """``bm``: the moves the set holds best here."""
    avoid: tuple[chess.Move, ...] = ()
    """``am``: the moves the set warns against here."""


def read_epd(path: str) -> list[tuple[int, chess.Board]]:
    """The positions of an EPD file with their line numbers (:func:`read_epd_lines`
    without the operations)."""
    return [(line.number, line.board) for line in read_epd_lines(path)]


def read_epd_lines(path: str) -> list[EpdLine]:
    """The positions of an EPD file with their line numbers and the
    operations ``id``, ``bm`` and ``am`` (others are read and left); blank
    lines and ``#`` comments are skipped. A line may also be a full FEN (with
    move counters), as position files often hold.

    :raises PositionError: ``file:line: …`` for an unreadable or bad line.
    """
    try:
        # utf-8-sig: a byte order mark, as some Windows editors write, is not
        # part of the first position.
        lines = read_regular_file(path, MAX_EPD_BYTES).decode("utf-8-sig").splitlines()
    except OSError as error:
        raise PositionError(f"{path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise PositionError(f"{path}: not a UTF-8 text file") from None
    positions = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        fields = text.split()
        operations: Mapping[str, object] = {}
        try:
            if len(fields) == 6 and all(re.fullmatch("[0-9]+", field) for field in fields[4:]):
                # EPD proper has no move counters: from_epd would read them as
                # (bad) opcodes.
                board = chess.Board(text)
            else:
                board, operations = chess.Board.from_epd(text)
        except ValueError as error:
            raise PositionError(f"{path}:{number}: bad EPD line {text!r}: {error}") from None
        try:
            checked = parse_fen(board.fen())
        except PositionError as error:
            raise PositionError(f"{path}:{number}: {error}") from None
        name = operations.get("id")
        positions.append(
            EpdLine(
                number,
                checked,
                str(name) if name is not None else None,
                _moves(operations.get("bm")),
                _moves(operations.get("am")),
            )
        )
    return positions


def _moves(operand: object) -> tuple[chess.Move, ...]:
    """The moves of a ``bm`` or ``am`` operation as python-chess read them
    (checked legal at the position): a list of moves, else none."""
    if isinstance(operand, list):
        return tuple(move for move in operand if isinstance(move, chess.Move))
    return ()


def epd_positions(
    path: str, material: Material, us: chess.Color, check: Callable[[chess.Board], object] | None = None
) -> list[chess.Board]:
    """The positions of an EPD file, each of ``material`` with ``us`` (the
    side a table plays) to move and a game not over (:func:`check_not_over`),
    and passing ``check`` if one is given.

    :raises PositionError: ``file:line: …`` for the first bad line, or a
        file with no position (a run over nothing would pass vacuously).
    """
    return [line.board for line in epd_lines(path, material, us, check)]


def epd_lines(
    path: str, material: Material, us: chess.Color, check: Callable[[chess.Board], object] | None = None
) -> list[EpdLine]:
    """:func:`epd_positions` with each line's number, ``id``, ``bm`` and ``am``:
    an exercise set's names and the moves it expects."""
    lines = []
    for line in read_epd_lines(path):
        board = line.board
        try:
            check_playable(board, material, us)
            if board.turn != us:
                raise PositionError(f"{board.fen()!r}: it is not the table's side to move")
            check_not_over(board)
            if check is not None:
                check(board)
        except PositionError as error:
            raise PositionError(f"{path}:{line.number}: {error}") from None
        lines.append(line)
    if not lines:
        raise PositionError(f"{path}: no positions in it (only blank lines and comments)")
    return lines
