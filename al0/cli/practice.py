"""The ``al0 practice`` command: you play the winning side against the
tablebase's defence, with the table's advice on request."""

from __future__ import annotations

from typing import Iterator

import chess
import click

from al0.cli.common import (BUDGET, TABLE, CommandError, build_progress, start_board,
                            prepare_tablebase, reports_errors, typed_line)
from al0.cli.plan import plan_lines
from al0.human import (LIST_WORDS, QUIT_WORDS, MoveInputError, legal_sans, parse_move,
                       side_name, unicode_board_text)
from al0.engine.plan import Planner
from al0.engine.play import Ending
from al0.engine.tree import tree_lines
from al0.lang.loader import load_table
from al0.practice import Practice, Turn
from al0.tablebase import load_if_any

COMMANDS = ("commands: hint (al0's advice and move), why (its forcing tree), undo (take "
            "back your last move and the reply), flip (turn the board), board, moves (the "
            "legal moves), quit")


def practice_prompt(board: chess.Board) -> str:
    return (f"Your move as {side_name(board.turn)} (SAN or UCI; hint, why, undo, flip, "
            f"help, quit): ")


def hint_lines(game: Practice) -> Iterator[str]:
    """al0's advice here in one line: rule, advice, move; or, with no plan,
    why not and the tablebase's fastest move instead."""
    advice = game.advice()
    plan = advice.plan
    if advice.move is None:
        best = ", ".join(game.board.san(move) for move in game.best_moves())
        yield f"hint: the table has no plan here ({plan.describe_failure()})"
        yield (f"      the tablebase's fastest: {best}" if best
               else "      and the tablebase finds no forced mate here")
        return
    kept = "" if advice.new_plan else " (the plan being followed)"
    yield (f"hint: rule {plan.rule}, advice {plan.advice}{kept}: "
           f"play {game.board.san(advice.move)}")


def why_lines(game: Practice) -> Iterator[str]:
    """Why the hint: the plan made here (the advice tried and the forcing
    tree), or the rest of the tree al0 is following."""
    advice = game.advice()
    if advice.new_plan or advice.tree is None:
        yield from plan_lines(advice.plan, game.board.copy())
        return
    yield (f"following rule {advice.plan.rule}, advice {advice.plan.advice}: the rest of its "
           f"forcing tree, depth {advice.tree.height}")
    for line in tree_lines(advice.tree, game.board.copy()):
        yield "  " + line


def distance_text(moves: int | None) -> str:
    if moves is None:
        return "no forced mate"
    return "mated" if moves == 0 else f"mate in {moves}"


def turn_line(turn: Turn, number: str) -> str:
    """The person's move, the reply, and what the move did to the distance
    to mate (an optimal move takes one move off)."""
    line = f"{number} {turn.san}"
    if turn.reply_san is not None:
        line += f"  {turn.reply_san}"
    line = f"{line:<18} {distance_text(turn.before)} → {distance_text(turn.after)}"
    if turn.after is None and turn.before is not None:
        line += ": that move lets the win go"
    elif turn.before is not None and turn.after is not None and turn.after >= turn.before \
            and turn.after > 0:
        line += ": that move did not bring the mate nearer"
    return line


def summary(game: Practice) -> str:
    """The game's length against the tablebase's optimum from the start."""
    played, optimal = game.moves_played, game.optimal
    end = game.ending()
    if end is not None and end.ending is Ending.MATE and game.board.turn != game.table.us:
        if played == optimal:
            return f"You mated in {played} moves: the fastest mate there is."
        return (f"You mated in {played} moves; the fastest mate from the start takes "
                f"{optimal} (tablebase): {played - optimal} over.")
    what = f"Game over: {end.detail} ({end.result})" if end is not None else "Stopped"
    return (f"{what} after {played} of your moves; from the start the tablebase mates "
            f"in {optimal}.")


@click.command()
@TABLE
@click.option("--fen", help="Start position (default: the table's start position).")
@click.option("--flip", "flipped", is_flag=True, help="Show the board from the defending side.")
@BUDGET
@reports_errors
def practice(table: str, fen: str | None, flipped: bool, budget: int) -> None:
    """Play the winning side of TABLE's endgame yourself against the
    tablebase's longest resistance, with the table's advice on request.

    Type your moves in SAN (Rb1, or rb1 in any case when only one move reads
    so) or UCI (a1b1). 'hint' names al0's rule, advice and move; 'why'
    shows its forcing tree; 'undo' takes back your last move and the reply;
    'flip' turns the board; 'moves' lists the legal moves; 'quit' stops.
    After each move the tablebase's distance to mate shows whether it
    brought the mate nearer; at the end your game is measured against the
    fastest mate from the start.
    """
    loaded = load_table(table)
    board = start_board(loaded, table, fen)
    prepare_tablebase(loaded.material, build_progress())
    tablebase = load_if_any(loaded.material)
    if tablebase is None:
        raise CommandError(f"practice needs a tablebase, and there is none for "
                           f"{loaded.material} (pawnless, up to four men)")
    game = Practice(loaded, Planner(loaded, budget), tablebase, board)
    you = loaded.us
    orientation = not you if flipped else you
    click.echo(f"You play {side_name(you)} ({loaded.material}) against the tablebase's "
               f"defence; {loaded.name} advises. From here the fastest mate takes "
               f"{game.optimal} moves.")
    click.echo(COMMANDS)
    if game.opening_reply is not None:
        click.echo(f"the defence opens: {game.opening_reply}")
    click.echo(unicode_board_text(board, orientation))
    while game.ending() is None:
        text = typed_line(practice_prompt(board))
        if text is None or text.lower() in QUIT_WORDS:
            break
        word = text.lower()
        if not text:
            continue
        if word == "hint":
            lines = list(hint_lines(game))
        elif word == "why":
            lines = list(why_lines(game))
        elif word == "undo":
            lines = ([unicode_board_text(board, orientation)] if game.undo()
                     else ["nothing to undo"])
        elif word in ("flip", "board"):
            orientation = not orientation if word == "flip" else orientation
            lines = [unicode_board_text(board, orientation)]
        elif word == "help":
            lines = [COMMANDS, f"legal moves: {', '.join(legal_sans(board))}"]
        elif word in LIST_WORDS:
            lines = [f"legal moves: {', '.join(legal_sans(board))}"]
        else:
            try:
                move = parse_move(board, text)
            except MoveInputError as error:
                click.echo(str(error))
                continue
            number = f"{board.fullmove_number}." if board.turn == chess.WHITE \
                else f"{board.fullmove_number}..."
            lines = [turn_line(game.play(move), number), unicode_board_text(board, orientation)]
        for line in lines:
            click.echo(line)
    click.echo(summary(game))
