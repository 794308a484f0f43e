"""The ``al0 solve`` and ``al0 reversi`` commands: the game-search toolkit at the prompt.

Only this module (with :mod:`al0.cli`) prints. Every :class:`~al0.errors.AL0Error`
becomes a one-line message on stderr and exit code 2.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

import chess
import click

from al0.cli.messages import reports_errors
from al0.cli.params import Decimal, WholeNumber
from al0.errors import SearchBudgetExceeded
from al0.games import PROOF_BUDGET, HumanPlayer, Player, Side, mate_in, mate_lines, play
from al0.games import reversi as reversi_game


@click.command()
@click.option("--fen", required=True, help="The position; the side to move is the one trying to mate.")
@click.option(
    "--moves",
    "-n",
    "max_moves",
    type=WholeNumber(minimum=1, maximum=10),
    default=3,
    show_default=True,
    help="Look for a mate within this many moves of the side to move.",
)
@click.option(
    "--nodes",
    "max_nodes",
    type=WholeNumber(minimum=1),
    default=PROOF_BUDGET,
    show_default=True,
    help="Give up (exit 2) after generating this many positions.",
)
@reports_errors
def solve(fen: str, max_moves: int, max_nodes: int) -> None:
    """Prove a forced mate: print "mate in k" and the proof tree (our move, every
    reply), or "no mate in N".

    The AND/OR search: a position with our move is won if some move leads to a
    won position, one with their move if every move does; checkmate is a win,
    stalemate and other draws are not.
    """
    try:
        proof = mate_in(fen, max_moves, max_nodes)
    except SearchBudgetExceeded as error:
        raise SearchBudgetExceeded(f"{error} (--nodes N allows more)") from None
    if proof is None:
        outcome = chess.Board(fen).outcome(claim_draw=False)
        # "no mate in 3" alone would read as a search that found none.
        over = f": the game is over ({outcome.termination.name.lower().replace('_', ' ')})" if outcome else ""
        click.echo(f"no mate in {max_moves}{over}")
        return
    click.echo(f"mate in {proof.moves}")
    for line in mate_lines(proof):
        click.echo(line)


def _reader() -> Callable[[str], str]:
    """A line reader for human players: prompts, returns one line, raises
    :class:`EOFError` at end of input.

    It holds one stdin stream for the whole game: a fresh wrapper per prompt
    would lose the lines the previous one had already buffered from a pipe.
    """
    stream = sys.stdin

    def ask(prompt: str) -> str:
        click.echo(prompt, nl=False)
        line = stream.readline()
        if not line:
            click.echo()
            raise EOFError
        return line

    return ask


@click.command()
@click.option(
    "--black",
    default="human",
    show_default=True,
    help="Black's player: human, random, novice, pro, minimax:D or alphabeta:D (optionally :novice or :discs).",
)
@click.option("--white", default="pro", show_default=True, help="White's player, as for --black.")
@click.option(
    "--games",
    type=WholeNumber(minimum=1),
    default=None,
    help="Play a match of N games between computer players, colours alternating.",
)
@click.option(
    "--seed",
    type=WholeNumber(minimum=None),
    default=0,
    show_default=True,
    help="Seed of the players' tie-breaks.",
)
@click.option(
    "--perft",
    "perft_depth",
    type=WholeNumber(minimum=0, maximum=20),
    default=None,
    help="Only print the number of move sequences of depth D from the start.",
)
@click.option(
    "--edge-value",
    type=Decimal(-1000, 1000),
    default=reversi_game.NoviceWeights.edge,
    show_default=True,
    help="Novice value of a flipped edge disc.",
)
@click.option(
    "--inner-value",
    type=Decimal(-1000, 1000),
    default=reversi_game.NoviceWeights.inner,
    show_default=True,
    help="Novice value of a flipped inner disc.",
)
@reports_errors
def reversi(
    black: str,
    white: str,
    games: int | None,
    seed: int,
    perft_depth: int | None,
    edge_value: float,
    inner_value: float,
) -> None:
    """Play Reversi (Othello): one game, shown move by move, or a match.

    A human types a square like d3, or pass, or quit. With --games N, --black
    is player A and --white player B; A has Black in odd-numbered games.
    """
    if perft_depth is not None:
        started = time.perf_counter()
        count = reversi_game.perft(reversi_game.start_position(), perft_depth)
        click.echo(f"perft {perft_depth}: {count} ({time.perf_counter() - started:.2f} s)")
        return
    weights = reversi_game.NoviceWeights(inner=inner_value, edge=edge_value)
    if games is None:
        _one_game(black, white, seed, weights)
    else:
        _match(black, white, games, seed, weights)


def _one_game(black: str, white: str, seed: int, weights: reversi_game.NoviceWeights) -> None:
    """Play and show one game; a human may quit or end the input at any prompt."""
    human = HumanPlayer(_reader(), click.echo)
    players: dict[Side, Player[reversi_game.ReversiState, reversi_game.Move]] = {
        reversi_game.BLACK: reversi_game.make_player(black, random.Random(seed * 2), weights, human),
        reversi_game.WHITE: reversi_game.make_player(white, random.Random(seed * 2 + 1), weights, human),
    }
    play(reversi_game.Reversi(), players, show=click.echo)


def _match(spec_a: str, spec_b: str, games: int, seed: int, weights: reversi_game.NoviceWeights) -> None:
    """Play a match, a line per game, then the score table."""
    results: list[reversi_game.MatchGame] = []
    started = time.perf_counter()
    for game in reversi_game.match(spec_a, spec_b, games, seed, weights):
        results.append(game)
        black, white = ("A", "B") if game.a_black else ("B", "A")
        click.echo(
            f"game {game.number:3d}: Black {black} {game.black_discs:2d} - {game.white_discs:2d} White {white}"
            f"  ({game.plies} plies)"
        )
    elapsed = time.perf_counter() - started
    a, b = reversi_game.standings(f"A {spec_a}", f"B {spec_b}", results)
    width = max(len(a.name), len(b.name), len("player"))
    click.echo()
    click.echo(f"{'player':<{width}}  games  wins  draws  losses  mean disc diff")
    for row in (a, b):
        click.echo(
            f"{row.name:<{width}}  {row.games:5d}  {row.wins:4d}  {row.draws:5d}  {row.losses:6d}  {row.mean_disc_diff:+14.2f}"
        )
    click.echo(f"seed {seed}, {elapsed:.1f} s")
