"""al0 as a UCI engine against Stockfish's defence, through python-chess.

Plays ``al0 uci`` (the bundled table of each material, as a GUI starts it)
as White from seeded won starts (one position per symmetry class that the
tablebase says White to move wins, drawn at random with the seed) against
Stockfish as Black, at a fixed time per move and at a clock with increment,
and counts what a match runner would: mates, draws (by kind), illegal moves,
time losses, and al0's moves sent without an ``info … score``.

    python benchmarks/uci_match.py --stockfish /usr/games/stockfish \\
        --materials KRK KQK KBBK --games 10 --movetime 0.1 --clock 10+0.1

``--option TablebaseRescue=false`` measures a table's own play (the
tablebase's move still stands in for a plan not made in time).

``--hold`` plays the other side of the board: al0 as Black, the weaker side,
from seeded drawn starts (Black to move; the bundled table that holds
the material, ``krkn_hold`` for KRKN), against Stockfish trying to win as
White, and counts the games held (any draw) and lost::

    python benchmarks/uci_match.py --stockfish /usr/games/stockfish --hold \
        --materials KRKN KRKB KPK --games 10 --movetime 0 --clock 10+0.1

A time loss at a fixed time per move is a move that took longer than the
time plus ``--margin`` (what a match runner's time margin allows, measured
here around ``engine.play``, so it includes the pipe); on a clock, a clock
that fell below zero. Needs Stockfish (Debian: ``apt-get install stockfish``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field

import chess
import chess.engine

from al0 import tablebase

MAX_PLIES = 300
"""Plies after which a game is stopped and counted a draw (the fifty-move
rule ends any game without progress well before: 100 plies)."""


@dataclass
class Game:
    """One game's outcome, as the match runner saw it."""

    start: str
    control: str
    end: str = ""
    """mate, stalemate, threefold, fifty-moves, insufficient, max-plies,
    illegal, time-loss, engine-error."""
    moves: int = 0
    """al0's moves."""
    unscored: int = 0
    """al0's moves that came without an ``info … score``."""
    slowest: float = 0.0
    """al0's longest move, seconds (measured around ``engine.play``)."""
    their_slowest: float = 0.0
    """Stockfish's longest move: what the machine's load does to an engine
    written in C++ at the same time per move."""
    scores: list[str] = field(default_factory=list)
    moves_played: list[str] = field(default_factory=list)
    """Both sides' moves, in UCI."""


def starts(material: str, games: int, seed: int, hold: bool = False) -> list[chess.Board]:
    """``games`` positions White to move wins, one per symmetry class,
    drawn with ``seed`` (mates in one left out: nothing to play); with
    ``hold``, drawn positions with Black, the weaker side, to move."""
    table = tablebase.load(material)
    classes = table.positions(chess.BLACK, drawn=True) if hold else table.positions(chess.WHITE, won=True)
    rng = random.Random(f"{material}:{seed}")
    chosen: list[chess.Board] = []
    for at in rng.sample(range(len(classes)), len(classes)):
        board = classes[at].board()
        result = table.result(board)
        if hold or (result.plies is not None and result.plies > 1 and not board.is_check()):
            chosen.append(board)
        if len(chosen) == games:
            break
    return chosen


def limit_for(
    control: str, board: chess.Board, clocks: dict[chess.Color, float], increment: float
) -> chess.engine.Limit:
    if control.startswith("movetime"):
        return chess.engine.Limit(time=float(control.split()[1]))
    return chess.engine.Limit(
        white_clock=clocks[chess.WHITE],
        black_clock=clocks[chess.BLACK],
        white_inc=increment,
        black_inc=increment,
    )


def play(
    al0: chess.engine.SimpleEngine,
    stockfish: chess.engine.SimpleEngine,
    start: chess.Board,
    control: str,
    number: int,
    margin: float,
    ours: chess.Color = chess.WHITE,
) -> Game:
    """One game from ``start``: al0 plays ``ours`` (White unless it holds), Stockfish the other side."""
    game = Game(start.fen(), control)
    board = start.copy()
    movetime = float(control.split()[1]) if control.startswith("movetime") else None
    base, increment = (0.0, 0.0) if movetime else map(float, control.split()[1].split("+"))
    clocks = {chess.WHITE: base, chess.BLACK: base}
    while True:
        if board.is_checkmate():
            game.end = "mate"
            break
        if board.is_stalemate():
            game.end = "stalemate"
            break
        if board.is_insufficient_material():
            game.end = "insufficient"
            break
        if board.is_repetition(3):
            game.end = "threefold"
            break
        if board.halfmove_clock >= 100:
            game.end = "fifty-moves"
            break
        if len(board.move_stack) >= MAX_PLIES:
            game.end = "max-plies"
            break
        engine = al0 if board.turn == ours else stockfish
        limit = limit_for(control, board, clocks, increment)
        began = time.perf_counter()
        try:
            result = engine.play(board, limit, game=number, info=chess.engine.INFO_SCORE)
        except chess.engine.EngineError as error:
            game.end = "illegal" if "illegal" in str(error).lower() else "engine-error"
            print(f"  {error}", file=sys.stderr)
            break
        spent = time.perf_counter() - began
        if result.move is None or result.move not in board.legal_moves:
            game.end = "illegal"
            break
        if board.turn != ours:
            game.their_slowest = max(game.their_slowest, spent)
        else:
            game.moves += 1
            game.slowest = max(game.slowest, spent)
            score = result.info.get("score")
            if score is None:
                game.unscored += 1
            else:
                game.scores.append(str(score.white()))
        if movetime is not None:
            if spent > movetime + margin and board.turn == ours:
                game.end = "time-loss"
                board.push(result.move)
                break
        else:
            clocks[board.turn] -= spent
            if clocks[board.turn] < 0:
                game.end = "time-loss" if board.turn == ours else "their-time-loss"
                break
            clocks[board.turn] += increment
        board.push(result.move)
    game.moves_played = [move.uci() for move in board.move_stack]
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--materials", nargs="+", default=["KRK", "KQK", "KBBK"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds a move (0: no such run)")
    parser.add_argument("--clock", default="10+0.1", help="BASE+INCREMENT seconds ('' for no such run)")
    parser.add_argument(
        "--margin", type=float, default=0.1, help="seconds a fixed-time move may run over before it loses"
    )
    parser.add_argument(
        "--al0",
        default=f"{shlex.quote(sys.executable)} -m al0 uci",
        help="the command that starts al0 as a UCI engine",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a UCI option for al0 (TablebaseRescue=false: the table's own play)",
    )
    parser.add_argument("--stockfish", default="stockfish")
    parser.add_argument(
        "--hold", action="store_true", help="al0 holds drawn starts as Black against Stockfish as White"
    )
    parser.add_argument("--json", help="write every game here")
    args = parser.parse_args()

    controls = ([f"movetime {args.movetime:g}"] if args.movetime else []) + (
        [f"clock {args.clock}"] if args.clock else []
    )
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    games: list[Game] = []
    with (
        chess.engine.SimpleEngine.popen_uci(shlex.split(args.al0)) as al0,
        chess.engine.SimpleEngine.popen_uci(args.stockfish) as stockfish,
    ):
        stockfish.configure({"Threads": 1, "Hash": 16})
        al0.configure(dict(option.split("=", 1) for option in args.option))
        # As a GUI does before the first game (al0 makes its engine then).
        al0.ping()
        stockfish.ping()
        ours = chess.BLACK if args.hold else chess.WHITE
        print(
            f"al0 as {chess.COLOR_NAMES[ours]}: {al0.id.get('name')} {' '.join(args.option)}; "
            f"{chess.COLOR_NAMES[not ours]}: {stockfish.id.get('name')}"
        )
        number = 0
        for material in args.materials:
            positions = starts(material, args.games, args.seed, args.hold)
            for control in controls:
                ends: Counter[str] = Counter()
                row = []
                for start in positions:
                    number += 1
                    game = play(al0, stockfish, start, control, number, args.margin, ours)
                    games.append(game)
                    row.append(game)
                    ends[game.end] += 1
                    print(
                        f"  {material} {control}: {game.end} in {game.moves} moves "
                        f"(slowest {game.slowest:.3f} s, unscored {game.unscored}) "
                        f"from {game.start}",
                        flush=True,
                    )
                if args.hold:
                    lost = ends["mate"] + ends["illegal"] + ends["time-loss"] + ends["engine-error"]
                    print(
                        f"{material} {control}: {len(row) - lost}/{len(row)} held {dict(ends)}, "
                        f"slowest move {max(g.slowest for g in row):.3f} s (Stockfish's "
                        f"{max(g.their_slowest for g in row):.3f} s)",
                        flush=True,
                    )
                    continue
                mated = [g.moves for g in row if g.end == "mate"]
                print(
                    f"{material} {control}: {ends['mate']}/{len(row)} mated"
                    f" (mean {sum(mated) / max(len(mated), 1):.1f} moves), "
                    f"draws {sum(n for e, n in ends.items() if e not in ('mate', 'illegal', 'time-loss', 'engine-error'))}"
                    f" {dict((e, n) for e, n in ends.items() if e != 'mate')}, "
                    f"illegal {ends['illegal']}, time losses {ends['time-loss']}, "
                    f"moves without score {sum(g.unscored for g in row)} of "
                    f"{sum(g.moves for g in row)}, slowest move "
                    f"{max(g.slowest for g in row):.3f} s (Stockfish's "
                    f"{max(g.their_slowest for g in row):.3f} s)",
                    flush=True,
                )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump([asdict(game) for game in games], out, indent=1)


if __name__ == "__main__":
    main()
