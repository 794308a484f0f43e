"""Reversi (Othello) on an 8×8 board, as a :class:`~al0.games.base.Game`, with its players.

Rules: Black moves first from the usual start (White on d4 and e5, Black on
e4 and d5). A move puts a disc on an empty square so that it flanks at least
one line (row, column or diagonal) of opposing discs between it and another
disc of the mover's; every flanked disc flips. A player with no such move
passes (a pass is a move here); the game ends when neither side can move, and
most discs wins.

The board is two bitboards (Python ints), one bit per square:
bit ``8 * row + column``, row 0 being row "1" at the top and column 0 being
file "a", so ``d3`` is bit 19.

Players (built from specs like ``pro`` or ``alphabeta:3`` by :func:`make_player`):

- **novice** plays the move with the highest R(move) = Σ sᵢ + ss over the discs
  it flips (:class:`NoviceWeights`);
- **professional** plays the move with the highest R(move) minus the best R
  the opponent can then get: a 2-ply look-ahead;
- **minimax:D** / **alphabeta:D** search D plies over the novice evaluation
  (the running sum of each side's R, own minus opponent's) or, with the
  ``:discs`` suffix, over the disc difference.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from al0.errors import PositionError, SearchBudgetExceeded
from al0.games.base import Game, IllegalMoveError, Player, PlayerSpecError, ScoredGame, Side, play
from al0.games.players import (
    AlphaBetaPlayer,
    HumanPlayer,
    MinimaxPlayer,
    RandomPlayer,
    ScoredPlayer,
    first_best,
    root_order,
)
from al0.integers import IntegerError, parse_int, shown

BLACK = 0
"""The side that moves first."""
WHITE = 1
"""The second side."""

Move = int
"""A square index 0–63, or :data:`PASS`."""
PASS: Move = 64
"""The move of a player who has no legal disc to place."""

FULL = (1 << 64) - 1
"""Every square."""
_FILE_A = 0x0101010101010101
_FILE_H = _FILE_A << 7
_INNER_FILES = FULL & ~(_FILE_A | _FILE_H)
"""Files b–g: the only places a flanked disc can sit on a line that runs across
files (a line ends at the board's edge, so an edge-file disc can be its end, never
its middle). Masking the opponent's discs with it stops shifts wrapping to the next row."""
_ROW_1 = 0xFF
_ROW_8 = 0xFF << 56
CORNERS = 1 | 1 << 7 | 1 << 56 | 1 << 63
"""a1, h1, a8, h8."""
EDGES = (_FILE_A | _FILE_H | _ROW_1 | _ROW_8) & ~CORNERS
"""The non-corner squares of the board's edge."""
INNER = FULL & ~(EDGES | CORNERS)
"""The 36 squares off the edge."""

# (shift, mask for the opponent's discs along that line); each shift is used
# both ways, left (<<) and right (>>). 1: along a row; 8: along a file;
# 7 and 9: the two diagonals.
_LINES = ((1, True), (8, False), (7, True), (9, True))

_WIN = 10_000
"""What a won game is worth beyond its disc difference: more than any evaluation."""


def legal_moves(mover: int, other: int) -> int:
    """The bitboard of squares where ``mover`` may place a disc.

    Each line direction is followed from the mover's discs through up to six
    opposing discs (no line holds more) to an empty square.
    """
    empty = ~(mover | other) & FULL
    inner = other & _INNER_FILES
    legal = 0
    for d, across in _LINES:
        o = inner if across else other
        x = (mover << d) & o
        x |= (x << d) & o
        x |= (x << d) & o
        x |= (x << d) & o
        x |= (x << d) & o
        x |= (x << d) & o
        legal |= (x << d) & empty
        x = (mover >> d) & o
        x |= (x >> d) & o
        x |= (x >> d) & o
        x |= (x >> d) & o
        x |= (x >> d) & o
        x |= (x >> d) & o
        legal |= (x >> d) & empty
    return legal


def flips(mover: int, other: int, square: int) -> int:
    """The bitboard of opposing discs that flip when ``mover`` plays on ``square``."""
    bit = 1 << square
    inner = other & _INNER_FILES
    flipped = 0
    for d, across in _LINES:
        o = inner if across else other
        run = 0
        x = (bit << d) & o
        while x:
            run |= x
            x = (x << d) & o
        # Only the square after the run's last disc can hold a mover's disc.
        if (run << d) & mover:
            flipped |= run
        run = 0
        x = (bit >> d) & o
        while x:
            run |= x
            x = (x >> d) & o
        if (run >> d) & mover:
            flipped |= run
    return flipped


def _squares(board: int) -> Iterator[int]:
    """The square indices of the set bits of ``board``, lowest first."""
    while board:
        low = board & -board
        yield low.bit_length() - 1
        board ^= low


def square_name(square: Move) -> str:
    """``d3`` for bit 19, ``pass`` for :data:`PASS`."""
    if square == PASS:
        return "pass"
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


def parse_square(text: str) -> Move:
    """The square (or :data:`PASS`) that ``text`` names, like ``d3`` or ``pass``.

    :raises IllegalMoveError: if ``text`` names no square.
    """
    t = text.strip().lower()
    if t == "pass":
        return PASS
    if len(t) == 2 and t[0] in "abcdefgh" and t[1] in "12345678":
        return (int(t[1]) - 1) * 8 + "abcdefgh".index(t[0])
    raise IllegalMoveError(f"not a square: {text!r} (write a file a-h and a row 1-8, like d3, or pass)")


@dataclass(frozen=True, slots=True)
class ReversiState:
    """A Reversi position: Black's and White's discs and the side to move."""

    black: int
    """Bitboard of Black's discs."""
    white: int
    """Bitboard of White's discs."""
    turn: int
    """:data:`BLACK` or :data:`WHITE`."""
    legal: int = field(init=False, compare=False, repr=False)
    """Bitboard of the side to move's legal squares (derived, computed once)."""

    def __post_init__(self) -> None:
        if self.black & self.white or (self.black | self.white) & ~FULL:
            raise PositionError(f"discs overlap or lie off the board: {self!r}")
        if self.turn not in (BLACK, WHITE):
            raise PositionError(f"turn must be BLACK (0) or WHITE (1), not {self.turn!r}")
        object.__setattr__(self, "legal", legal_moves(self.mover, self.other))

    @property
    def mover(self) -> int:
        """The discs of the side to move."""
        return self.black if self.turn == BLACK else self.white

    @property
    def other(self) -> int:
        """The discs of the side not to move."""
        return self.white if self.turn == BLACK else self.black

    @classmethod
    def from_rows(cls, rows: str, turn: int = BLACK) -> ReversiState:
        """A position drawn as eight rows of ``X`` (Black), ``O`` (White) and ``.``,
        row 1 first; blanks between cells are ignored.

        :raises PositionError: if the picture is not 8×8 of those characters.
        """
        lines = ["".join(line.split()) for line in rows.strip().splitlines()]
        if len(lines) != 8 or any(len(line) != 8 for line in lines):
            raise PositionError(f"a Reversi board is 8 rows of 8 cells: {rows!r}")
        black = white = 0
        for row, line in enumerate(lines):
            for col, cell in enumerate(line):
                bit = 1 << (8 * row + col)
                if cell in "Xx":
                    black |= bit
                elif cell in "Oo":
                    white |= bit
                elif cell != ".":
                    raise PositionError(f"bad cell {cell!r} at {square_name(8 * row + col)} in {rows!r}")
        return cls(black, white, turn)


def start_position() -> ReversiState:
    """The usual start: White on d4 and e5, Black on e4 and d5, Black to move."""
    return ReversiState(
        black=1 << parse_square("e4") | 1 << parse_square("d5"),
        white=1 << parse_square("d4") | 1 << parse_square("e5"),
        turn=BLACK,
    )


def disc_difference(state: ReversiState, side: Side) -> float:
    """Discs of ``side`` minus discs of its opponent: the simplest evaluation."""
    diff = state.black.bit_count() - state.white.bit_count()
    return float(diff if side == BLACK else -diff)


class Reversi(Game[ReversiState, Move]):
    """The rules of Reversi. Moves are listed by square index (a1, b1, …, h8)."""

    def initial(self) -> ReversiState:
        return start_position()

    def to_move(self, state: ReversiState) -> int:
        return state.turn

    def moves(self, state: ReversiState) -> Sequence[Move]:
        if state.legal:
            return list(_squares(state.legal))
        # No disc to place: pass if the opponent can move, else the game is over.
        return [PASS] if legal_moves(state.other, state.mover) else []

    def result(self, state: ReversiState, move: Move) -> ReversiState:
        return play_move(state, move)

    def is_terminal(self, state: ReversiState) -> bool:
        return not state.legal and not legal_moves(state.other, state.mover)

    def winner(self, state: ReversiState) -> int | None:
        diff = disc_difference(state, BLACK)
        return None if diff == 0 else BLACK if diff > 0 else WHITE

    def utility(self, state: ReversiState, side: Side) -> float:
        """A won game is worth more than any evaluation; among wins, more discs is better."""
        diff = disc_difference(state, side)
        return diff + (_WIN if diff > 0 else -_WIN if diff < 0 else 0)

    def side_name(self, side: Side) -> str:
        return "Black" if side == BLACK else "White"

    def move_name(self, state: ReversiState, move: Move) -> str:
        return square_name(move)

    def parse_move(self, state: ReversiState, text: str) -> Move:
        move = parse_square(text)
        if move not in self.moves(state):
            legal = " ".join(square_name(m) for m in self.moves(state))
            raise IllegalMoveError(f"illegal move: {text.strip()!r} (legal: {legal})")
        return move

    def display(self, state: ReversiState) -> str:
        """The board (``X`` Black, ``O`` White, ``*`` a legal move), the score and the turn."""
        rows = ["   a b c d e f g h"]
        for row in range(8):
            cells = []
            for col in range(8):
                bit = 1 << (8 * row + col)
                cells.append(
                    "X"
                    if state.black & bit
                    else "O"
                    if state.white & bit
                    else "*"
                    if state.legal & bit
                    else "."
                )
            rows.append(f"{row + 1}  " + " ".join(cells))
        nb, nw = state.black.bit_count(), state.white.bit_count()
        rows.append(f"Black (X) {nb}, White (O) {nw}; {self.side_name(state.turn)} to move")
        return "\n".join(rows)

    def outcome_text(self, state: ReversiState) -> str:
        nb, nw = state.black.bit_count(), state.white.bit_count()
        verdict = "draw" if nb == nw else "Black wins" if nb > nw else "White wins"
        return f"game over: Black {nb}, White {nw}: {verdict}"


def play_move(state: ReversiState, move: Move) -> ReversiState:
    """The position after ``move`` (assumed legal): the disc placed, the flanked discs flipped."""
    if move == PASS:
        return ReversiState(state.black, state.white, 1 - state.turn)
    mover, other = state.mover, state.other
    flipped = flips(mover, other, move)
    mover |= flipped | 1 << move
    other &= ~flipped
    if state.turn == BLACK:
        return ReversiState(mover, other, WHITE)
    return ReversiState(other, mover, BLACK)


PERFT_BUDGET = 5_000_000
"""Positions a perft makes (each counted once, the last ply's only counted)
before it gives up: depth 10 from the start makes about 3.5 million (half a
minute), depth 11 ten times as many."""


def perft(state: ReversiState, depth: int, max_nodes: int = PERFT_BUDGET) -> int:
    """The number of move sequences of ``depth`` plies from ``state``.

    A pass counts as a ply, and a game that ends before ``depth`` plies counts
    as one sequence (as if both sides passed to the end). This is the
    convention of the published Othello figures: from the start, depth 10 is
    24,571,284, of which 228 are games finished at ply 9 by a wipe-out. Works
    on raw bitboards and counts the last ply without playing it, so depth 8
    takes about a second.

    :raises SearchBudgetExceeded: past ``max_nodes`` positions made.
    """
    made = 0

    def count(mover: int, other: int, left: int) -> int:
        nonlocal made
        made += 1
        if made > max_nodes:
            raise SearchBudgetExceeded(
                f"perft {depth}: gave up after making {max_nodes:,} positions undecided"
            )
        legal = legal_moves(mover, other)
        if not legal:
            if not legal_moves(other, mover):
                return 1  # Game over: one finished sequence, however deep we were to go.
            return 1 if left == 1 else count(other, mover, left - 1)  # Pass.
        if left == 1:
            return legal.bit_count()
        total = 0
        for square in _squares(legal):
            flipped = flips(mover, other, square)
            total += count(other & ~flipped, mover | flipped | 1 << square, left - 1)
        return total

    if depth == 0:
        return 1
    return count(state.mover, state.other, depth)


@dataclass(frozen=True)
class NoviceWeights:
    """The constants of the novice's move value R(move) = Σ sᵢ + ss.

    The source's exact sᵢ are lost; these are our documented choice. An inner
    disc can be flanked along four lines, an edge disc only along the edge, so
    it is harder to take back and is worth more; a corner disc can never be
    flipped, so it never appears among the flipped discs at all.
    """

    inner: float = 1.0
    """sᵢ of a flipped disc off the edge."""
    edge: float = 2.0
    """sᵢ of a flipped disc on a (non-corner) edge square: twice an inner one (our choice)."""
    corner_bonus: float = 0.8
    """ss for playing on a corner."""
    edge_bonus: float = 0.4
    """ss for playing on a non-corner edge square."""

    def gain(self, state: ReversiState, move: Move) -> float:
        """R(move): the values of the discs ``move`` flips plus the bonus for its square.

        A pass is worth 0.
        """
        if move == PASS:
            return 0.0
        flipped = flips(state.mover, state.other, move)
        bit = 1 << move
        bonus = self.corner_bonus if bit & CORNERS else self.edge_bonus if bit & EDGES else 0.0
        return (flipped & INNER).bit_count() * self.inner + (flipped & EDGES).bit_count() * self.edge + bonus


class NovicePlayer:
    """Plays the move with the highest R (see :class:`NoviceWeights`): one ply, no look-ahead."""

    def __init__(
        self, weights: NoviceWeights, rng: random.Random | None = None, name: str = "novice"
    ) -> None:
        self.weights = weights
        self.rng = rng
        self.name = name

    def choose(self, game: Game[ReversiState, Move], state: ReversiState) -> Move:
        return first_best(root_order(game, state, self.rng), lambda m: self.weights.gain(state, m))


class ProfessionalPlayer:
    """Plays the move with the highest R(move) minus the best R of the opponent's reply.

    A 2-ply look-ahead: a move that flips many discs but hands the opponent a
    big reply (or a corner) is marked down. A reply that is a pass, or no reply
    because the game is over, is worth 0.
    """

    def __init__(self, weights: NoviceWeights, rng: random.Random | None = None, name: str = "pro") -> None:
        self.weights = weights
        self.rng = rng
        self.name = name

    def value(self, game: Game[ReversiState, Move], state: ReversiState, move: Move) -> float:
        """R(move) minus the opponent's best R in the position after it."""
        after = game.result(state, move)
        replies = game.moves(after)
        best_reply = max((self.weights.gain(after, r) for r in replies), default=0.0)
        return self.weights.gain(state, move) - best_reply

    def choose(self, game: Game[ReversiState, Move], state: ReversiState) -> Move:
        return first_best(root_order(game, state, self.rng), lambda m: self.value(game, state, m))


PLAYER_KINDS = (
    "human",
    "random",
    "novice",
    "pro",
    "minimax:D[:novice|:discs]",
    "alphabeta:D[:novice|:discs]",
)
"""The player specs :func:`make_player` accepts."""

MAX_DEPTH = 8
"""The deepest search a spec may ask for: deeper is impractically slow in Python."""


def make_player(
    spec: str,
    rng: random.Random | None,
    weights: NoviceWeights | None = None,
    human: HumanPlayer | None = None,
) -> Player[ReversiState, Move]:
    """The player a spec names: ``human``, ``random``, ``novice``, ``pro``
    (``professional``), ``minimax:D`` or ``alphabeta:D``, the last two
    optionally followed by ``:novice`` (the default) or ``:discs`` for their
    evaluation.

    :raises PlayerSpecError: if the spec names no player, or ``human`` is asked
        for but no human player was supplied.
    """
    w = NoviceWeights() if weights is None else weights
    kind, _, rest = spec.strip().lower().partition(":")
    if kind == "human" and not rest:
        if human is None:
            raise PlayerSpecError(f"no human can play here (a match is between computer players): {spec!r}")
        return human
    if kind == "random" and not rest:
        return RandomPlayer(rng if rng is not None else random.Random(0))
    if kind == "novice" and not rest:
        return NovicePlayer(w, rng)
    if kind in ("pro", "professional") and not rest:
        return ProfessionalPlayer(w, rng)
    if kind in ("minimax", "alphabeta"):
        depth_text, _, evaluation = rest.partition(":")
        try:
            depth = parse_int(depth_text, f"the depth of {kind}:D", minimum=1, maximum=MAX_DEPTH)
        except IntegerError as error:
            raise PlayerSpecError(f"{shown(spec)}: {error}, like {kind}:3") from None
        search = MinimaxPlayer if kind == "minimax" else AlphaBetaPlayer
        name = f"{kind}:{depth}" + (f":{evaluation}" if evaluation else "")
        if evaluation in ("", "novice"):
            scored = ScoredGame(Reversi(), w.gain)
            return ScoredPlayer(search(depth, scored.evaluate, rng), scored, name=name)
        if evaluation == "discs":
            return search(depth, disc_difference, rng, name=name)
        raise PlayerSpecError(f"unknown evaluation {evaluation!r} (novice or discs): {spec!r}")
    raise PlayerSpecError(f"unknown player {spec!r} (one of: {', '.join(PLAYER_KINDS)})")


@dataclass(frozen=True)
class MatchGame:
    """One finished game of a :func:`match`."""

    number: int
    """1-based game number."""
    a_black: bool
    """Whether player A had Black (colours alternate, A first)."""
    black_discs: int
    """Black's discs at the end."""
    white_discs: int
    """White's discs at the end."""
    plies: int
    """Moves played, passes included."""

    @property
    def a_diff(self) -> int:
        """A's discs minus B's at the end."""
        diff = self.black_discs - self.white_discs
        return diff if self.a_black else -diff


def match(
    spec_a: str,
    spec_b: str,
    games: int,
    seed: int,
    weights: NoviceWeights | None = None,
) -> Iterator[MatchGame]:
    """Play ``games`` games between two computer players, colours alternating
    (A has Black in odd-numbered games), yielding each result as it finishes.

    Each player gets a fresh :class:`random.Random` per game, seeded from
    ``seed``, the game number and the colour, so the whole match is
    reproducible and any game can be replayed alone.

    :raises PlayerSpecError: if a spec is unknown or names a human.
    """
    game = Reversi()
    for number in range(1, games + 1):
        a_black = number % 2 == 1
        black_spec, white_spec = (spec_a, spec_b) if a_black else (spec_b, spec_a)
        players: dict[Side, Player[ReversiState, Move]] = {
            BLACK: make_player(black_spec, random.Random(_game_seed(seed, number, BLACK)), weights),
            WHITE: make_player(white_spec, random.Random(_game_seed(seed, number, WHITE)), weights),
        }
        record = play(game, players)
        final = record.final
        yield MatchGame(number, a_black, final.black.bit_count(), final.white.bit_count(), len(record.moves))


def _game_seed(seed: int, number: int, side: int) -> int:
    """A distinct, reproducible seed for one side in one game of a match."""
    return (seed * 1_000_003 + number) * 2 + side


@dataclass(frozen=True)
class Standing:
    """One player's line in a match's score table."""

    name: str
    wins: int
    draws: int
    losses: int
    disc_diff: int
    """Sum over the games of the player's discs minus the opponent's."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def mean_disc_diff(self) -> float:
        return self.disc_diff / self.games if self.games else 0.0


def standings(name_a: str, name_b: str, results: Sequence[MatchGame]) -> tuple[Standing, Standing]:
    """The score table of a match: A's line and B's line."""
    wins = sum(1 for r in results if r.a_diff > 0)
    losses = sum(1 for r in results if r.a_diff < 0)
    draws = len(results) - wins - losses
    diff = sum(r.a_diff for r in results)
    return Standing(name_a, wins, draws, losses, diff), Standing(name_b, losses, draws, wins, -diff)
