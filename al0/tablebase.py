"""Exact distance-to-mate tablebases for the pawnless three-man endings K+X vs K.

``load("KRK")`` returns a :class:`Tablebase` that answers, for any legal
position with White king and X against the lone Black king, how many White
moves it takes to mate with best play by both sides: an exact oracle to judge
an advice table's strategy against (does it win what is won, and how far from
the fastest mate).

The table is built by retrograde analysis over plain square indices, using
python-chess's attack tables (no ``Board`` per position: pushing and popping
moves for half a million positions would be far slower), and cached on disk with an integrity header so a
truncated or tampered file is rebuilt rather than trusted.

DTM convention (in White moves):
- Black to move and already mated: 0.
- White to move: 1 + the smallest DTM among White's moves.
- Black to move, not mated: the largest DTM among Black's replies.
- ``None`` when White cannot force mate: stalemate, Black can take the piece,
  or X cannot mate at all (bishop, knight).
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TypedDict

import chess

from al0.errors import PositionError
from al0.files import write_atomically

Square = int
Bitboard = int

#: Bumped whenever the table layout or the build changes, so that an old cache
#: is rebuilt instead of being read with the wrong meaning.
FORMAT_VERSION = 1

#: Entry of a legal position that White cannot win.
DRAW = 254
#: Entry of an index that is no legal position (pieces on one square, kings
#: adjacent, or the side not to move in check).
ILLEGAL = 255

#: Entries per side to move: (white king, piece, black king) squares.
SIDE_SIZE = 64 * 64 * 64
#: Entries in a whole table: White to move first, then Black to move.
TABLE_SIZE = 2 * SIDE_SIZE

#: The materials we can build: the letter of X maps to its piece type.
PIECES: Mapping[str, chess.PieceType] = MappingProxyType(
    {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT}
)

_MAGIC = b"AL0TB"

#: A Black king never has more than 8 moves, so a counter starting here never
#: reaches zero: used for positions that can never be lost (Black can take the
#: piece) and for illegal indices, so the retrograde pass needs no extra test.
_NEVER = 100


def index(white_king: Square, piece: Square, black_king: Square, white_to_move: bool) -> int:
    """The table index of a position; White-to-move entries come first.

    Every combination of squares has an index, legal or not, so a position is
    found by arithmetic alone; illegal ones hold :data:`ILLEGAL`.
    """
    return (0 if white_to_move else SIDE_SIZE) | white_king << 12 | piece << 6 | black_king


def parse_material(material: str) -> chess.PieceType:
    """The piece type X of a material string ``"KXK"``.

    :raises PositionError: for anything but K+Q, R, B or N against a lone king.
    """
    if len(material) != 3 or material[0] != "K" or material[2] != "K" or material[1] not in PIECES:
        raise PositionError(
            f"unsupported material {material!r}: expected one of "
            + ", ".join(f"'K{letter}K'" for letter in PIECES)
        )
    return PIECES[material[1]]


def _attacks(piece_type: chess.PieceType, square: Square, occupied: Bitboard) -> Bitboard:
    """Squares attacked by a white piece of ``piece_type`` on ``square``.

    The same lookups as ``chess.BaseBoard.attacks_mask``, without a board, so
    the build can ask about any occupancy it likes (e.g. with the Black king
    lifted off to see which squares behind it are attacked).
    """
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    attacks = 0
    if piece_type in (chess.ROOK, chess.QUEEN):
        attacks |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        attacks |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    if piece_type in (chess.BISHOP, chess.QUEEN):
        attacks |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    return attacks


def build(material: str) -> bytes:
    """Compute the table of ``material`` by retrograde analysis.

    First every index is classified: illegal, Black mated (DTM 0), or pending,
    and every Black-to-move position gets a counter of its legal king moves.
    Then level by level: un-moving White from the Black-to-move positions of
    DTM ``d - 1`` finds the White-to-move positions of DTM ``d`` (the first
    level that reaches them is their minimum); un-moving Black from those
    decrements the counters of their predecessors, and a predecessor whose last
    reply has just been resolved has DTM ``d`` (its maximum). What stays
    pending is a draw.

    :raises PositionError: if ``material`` is not supported.
    """
    piece_type = parse_material(material)
    king_attacks = chess.BB_KING_ATTACKS
    neighbours = [list(chess.scan_forward(king_attacks[square])) for square in chess.SQUARES]
    bb = chess.BB_SQUARES

    # Pending legal entries start as DRAW; what retrograde analysis never
    # reaches keeps that value.
    wtm = bytearray([ILLEGAL]) * SIDE_SIZE
    btm = bytearray([ILLEGAL]) * SIDE_SIZE
    replies = bytearray([_NEVER]) * SIDE_SIZE
    frontier: list[int] = []  # Black-to-move indices of the current DTM

    for wk in chess.SQUARES:
        wk_attacks = king_attacks[wk]
        for p in chess.SQUARES:
            if p == wk:
                continue
            # The piece is safe from the Black king when its own king guards it.
            guarded = bool(wk_attacks & bb[p])
            # Squares the piece attacks are the same for every Black king square
            # off its lines; with the Black king lifted off they are what Black
            # may not step onto (a slider x-rays through the square it leaves).
            x_ray = _attacks(piece_type, p, bb[wk] | bb[p])
            forbidden = wk_attacks | x_ray | bb[p]
            base = wk << 12 | p << 6
            for bk in chess.SQUARES:
                if bk == wk or bk == p or wk_attacks & bb[bk]:
                    continue
                i = base | bk
                in_check = bool(_attacks(piece_type, p, bb[wk] | bb[p] | bb[bk]) & bb[bk])
                if not in_check:
                    wtm[i] = DRAW  # legal: Black, not to move, is not in check
                btm[i] = DRAW  # Black to move is always legal: a lone king never checks
                if not guarded and king_attacks[bk] & bb[p]:
                    continue  # Black takes the piece: a draw, its counter stays _NEVER
                moves = (king_attacks[bk] & ~forbidden).bit_count()
                replies[i] = moves
                if moves == 0 and in_check:
                    btm[i] = 0
                    frontier.append(i)
                # moves == 0 without check is stalemate: it stays a draw.

    dtm = 0
    while frontier:
        dtm += 1
        # White-to-move positions with a move into the frontier: DTM ``dtm``.
        won: list[int] = []
        for i in frontier:
            wk, p, bk = i >> 12, i >> 6 & 63, i & 63
            rest = p << 6 | bk
            for origin in neighbours[wk]:
                # An illegal origin (on the piece, next to the Black king) is
                # ILLEGAL in the table, so the DRAW test covers legality.
                j = origin << 12 | rest
                if wtm[j] == DRAW:
                    wtm[j] = dtm
                    won.append(j)
            # The piece came from a square it attacks now, the kings blocking.
            origins = _attacks(piece_type, p, bb[wk] | bb[bk]) & ~(bb[wk] | bb[bk])
            for origin in chess.scan_forward(origins):
                j = wk << 12 | origin << 6 | bk
                if wtm[j] == DRAW:
                    wtm[j] = dtm
                    won.append(j)
        # Black-to-move positions whose every reply is now known to lose.
        frontier = []
        for j in won:
            top = j & ~63
            for origin in neighbours[j & 63]:
                # Illegal origins and capture draws hold _NEVER: never zero.
                i = top | origin
                left = replies[i] - 1
                replies[i] = left
                if left == 0:
                    btm[i] = dtm
                    frontier.append(i)
    return bytes(wtm + btm)


def default_cache_dir() -> Path:
    """Where tables are cached: ``$AL0_CACHE_DIR``, else ``$XDG_CACHE_HOME/al0``,
    else ``~/.cache/al0``."""
    explicit = os.environ.get("AL0_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "al0"


def _header(material: str, payload: bytes) -> bytes:
    """The cache header: what the payload is and a digest to check it against."""
    digest = hashlib.sha256(payload).hexdigest()
    return b"%s %d %s %d %s\n" % (_MAGIC, FORMAT_VERSION, material.encode(), len(payload), digest.encode())


def _read_cache(path: Path, material: str) -> bytes | None:
    """The payload cached at ``path``, or ``None`` if it is missing, of another
    version or material, truncated or corrupt: a cache is never trusted blindly."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header, newline, payload = data.partition(b"\n")
    if not newline or len(payload) != TABLE_SIZE:
        return None
    if header + newline != _header(material, payload):
        return None
    return payload


def _write_cache(path: Path, material: str, payload: bytes) -> None:
    """Write the cache atomically: a reader sees the old file or the new one,
    never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, _header(material, payload) + payload)


def cache_path(material: str, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The file that caches the table of ``material``."""
    directory = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    return directory / f"{material}.dtm"


def load(material: str, cache_dir: str | os.PathLike[str] | None = None) -> Tablebase:
    """The tablebase of ``material`` (e.g. ``"KRK"``), from the cache or built.

    A missing or invalid cache file is rebuilt and rewritten; if it cannot be
    written the table is still returned, with a ``RuntimeWarning``, since the
    cache only saves time.

    :raises PositionError: if ``material`` is not supported.
    """
    parse_material(material)
    path = cache_path(material, cache_dir)
    table = _read_cache(path, material)
    if table is None:
        table = build(material)
        try:
            _write_cache(path, material, table)
        except OSError as error:
            warnings.warn(f"cannot cache tablebase at {path}: {error}", RuntimeWarning, stacklevel=2)
    return Tablebase(material, table)


class SideStats(TypedDict):
    """Counts for one side to move."""

    legal: int
    draws: int
    wins: int
    max_dtm: int | None
    by_dtm: list[int]
    """``by_dtm[d]``: positions of DTM ``d`` (index 0: Black already mated)."""


class Stats(TypedDict):
    """What :meth:`Tablebase.stats` returns: plain data, ready for JSON."""

    material: str
    white: SideStats
    black: SideStats


def _move_key(move: chess.Move) -> str:
    """Sort key that makes move lists independent of generation order."""
    return move.uci()


def _unmirror(move: chess.Move, flipped: bool) -> chess.Move:
    """``move`` on the real board, when it was found on the mirrored one."""
    if not flipped:
        return move
    return chess.Move(chess.square_mirror(move.from_square), chess.square_mirror(move.to_square))


@dataclass(frozen=True)
class Tablebase:
    """A complete DTM table for one material, answering questions about boards."""

    material: str
    """The material string, e.g. ``"KRK"``."""
    table: bytes
    """:data:`TABLE_SIZE` entries: DTM in White moves, :data:`DRAW` or :data:`ILLEGAL`."""

    def __post_init__(self) -> None:
        parse_material(self.material)
        if len(self.table) != TABLE_SIZE:
            raise ValueError(f"a table has {TABLE_SIZE} entries, not {len(self.table)}")

    @property
    def piece_type(self) -> chess.PieceType:
        """The type of White's extra piece."""
        return PIECES[self.material[1]]

    def _as_white(self, board: chess.Board) -> tuple[chess.Board, bool]:
        """``board`` with the stronger side as White: mirrored (colours swapped,
        ranks flipped, which keeps every distance to mate) when Black has the
        piece. Also tells whether it was mirrored."""
        if board.pieces_mask(self.piece_type, chess.BLACK) and not board.pieces_mask(
                self.piece_type, chess.WHITE):
            return board.mirror(), True
        return board, False

    def _index(self, board: chess.Board) -> int:
        """The index of ``board``, after checking it belongs to this table.

        :raises PositionError: for an invalid board, one with castling rights
            (the table knows no castling), or other material.
        """
        white = board.occupied_co[chess.WHITE]
        black = board.occupied_co[chess.BLACK]
        pieces = board.pieces_mask(self.piece_type, chess.WHITE)
        if (
            black != board.kings & black
            or white != (board.kings & white) | pieces
            or chess.popcount(pieces) != 1
            or chess.popcount(board.kings) != 2
        ):
            raise PositionError(f"not a {self.material} position: {board.fen()}")
        if not board.is_valid():
            raise PositionError(f"illegal position ({board.status()!r}): {board.fen()}")
        if board.castling_rights:
            raise PositionError(f"castling rights are not supported: {board.fen()}")
        return index(chess.lsb(board.kings & white), chess.lsb(pieces), chess.lsb(board.kings & black),
                     board.turn == chess.WHITE)

    def dtm(self, board: chess.Board) -> int | None:
        """Moves of the stronger side to mate with best play, or ``None`` if it
        cannot force mate. (White's moves; a board where Black has the piece is
        read mirrored.)

        :raises PositionError: if ``board`` is not a legal position of this material.
        """
        value = self.table[self._index(self._as_white(board)[0])]
        if value == ILLEGAL:
            # Only possible if our legality rules disagreed with python-chess.
            raise PositionError(f"position missing from the {self.material} table: {board.fen()}")
        return None if value == DRAW else value

    def _after(self, board: chess.Board, move: chess.Move) -> int | None:
        """DTM after ``move``; a capture of the piece leaves K vs K, a draw."""
        if board.is_capture(move):
            return None
        board.push(move)
        try:
            return self.dtm(board)
        finally:
            board.pop()

    def best_moves(self, board: chess.Board) -> list[chess.Move]:
        """The stronger side's moves that mate soonest, in UCI order; empty if
        none wins.

        :raises PositionError: if it is not the stronger side to move or the
            board does not fit the table.
        """
        oriented, flipped = self._as_white(board)
        value = self.dtm(oriented)
        if oriented.turn != chess.WHITE:
            raise PositionError(f"best_moves needs the side with the {self.material[1]} "
                                f"to move: {board.fen()}")
        if value is None:
            return []
        oriented = oriented.copy(stack=False)
        scored = [(self._after(oriented, move), move) for move in oriented.legal_moves]
        best = min(value for value, _ in scored if value is not None)
        moves = [_unmirror(move, flipped) for value, move in scored if value == best]
        return sorted(moves, key=_move_key)

    def best_defence(self, board: chess.Board) -> chess.Move:
        """The lone king's reply that delays mate longest; one that draws if
        there is one. Ties are broken by UCI order, so the answer is
        deterministic.

        :raises PositionError: if it is not the lone king's side to move, it
            has no move, or the board does not fit the table.
        """
        oriented, flipped = self._as_white(board)
        self.dtm(oriented)  # validates the board
        if oriented.turn != chess.BLACK:
            raise PositionError(f"best_defence needs the lone king's side to move: "
                                f"{board.fen()}")
        oriented = oriented.copy(stack=False)
        moves = sorted(oriented.legal_moves, key=_move_key)
        if not moves:
            raise PositionError(f"the lone king has no legal move: {board.fen()}")

        def badness(move: chess.Move) -> int:
            # Lower is better for the defender: a draw first, then the longest mate.
            value = self._after(oriented, move)
            return -1_000 if value is None else -value

        return _unmirror(min(moves, key=badness), flipped)

    def stats(self) -> Stats:
        """Counts of legal, drawn and won positions, by side to move and DTM."""

        def side(part: bytes) -> SideStats:
            counts = [part.count(value) for value in range(DRAW)]
            max_dtm = max((d for d, count in enumerate(counts) if count), default=None)
            by_dtm = counts[: max_dtm + 1] if max_dtm is not None else []
            return {
                "legal": SIDE_SIZE - part.count(ILLEGAL),
                "draws": part.count(DRAW),
                "wins": sum(by_dtm),
                "max_dtm": max_dtm,
                "by_dtm": by_dtm,
            }

        return {
            "material": self.material,
            "white": side(self.table[:SIDE_SIZE]),
            "black": side(self.table[SIDE_SIZE:]),
        }
