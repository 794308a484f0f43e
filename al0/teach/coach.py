"""What the coach says in a practice game, line by line, for any front
end: a hint in the table's words, why (the goal and what the move does to
it), the best moves, a turn's verdict, what to do after a slip, and the
game's summary. It prints nothing: ``al0 practice`` prints these lines."""

from __future__ import annotations

from typing import Iterator

import chess

from al0.engine import tree_lines
from al0.report import plan_lines
from al0.teach.session import Practice, Turn
from al0.teach.verdict import Grade, moves_text

GRADE_WORDS = {
    Grade.METHOD: "method",
    Grade.FASTEST: "fastest",
    Grade.GOOD: "good",
    Grade.MISTAKE: "MISTAKE",
    Grade.BLUNDER: "BLUNDER",
}
"""A verdict's grade in a word (the slips in capitals)."""


def hint_lines(game: Practice, verbose: bool = False) -> Iterator[str]:
    """What to play here, in the table's words (its identifiers with
    ``verbose``); with no plan, the tablebase's fastest move."""
    advice = game.advice()
    board = game.board
    if advice.move is None:
        yield "hint: there is no forced mate here any more: retry (take back your move)"
        return
    san = board.san(advice.move)
    if advice.advice is None:
        why = (
            "the table has no plan here; the tablebase's fastest move"
            if advice.plan is not None
            else "the tablebase's fastest move"
        )
        yield f"hint: play {san} ({why})"
        if verbose and advice.plan is not None:
            yield f"      (no plan: {advice.plan.describe_failure()})"
        return
    assert game.planner is not None  # a plan comes from a table
    table = game.planner.table
    kept = "" if advice.new_plan else ", the plan being followed"
    handed = "" if game.planner is game.first else f"{table.name}: "  # a capture or a promotion handed it on
    yield f"hint: play {san} — {handed}{table.describe_advice(advice.advice)}{kept}"
    if game.judge_move(advice.move).grade is Grade.BLUNDER:
        yield "      careful: the table errs here, this move throws the win away (see why)"
    if verbose:
        assert advice.plan is not None
        yield f"      (rule {advice.plan.rule}, advice {advice.advice})"


def why_lines(game: Practice, verbose: bool = False) -> Iterator[str]:
    """Why the hint: the goal in the table's words and what the hinted move
    does to it, computed from the goal's features; the forcing tree and the
    search's figures with ``verbose``."""
    advice = game.advice()
    move = advice.move
    if move is None:
        yield "there is no forced mate here any more: retry (take back your move)"
        return
    verdict = game.judge_move(move)
    san = game.board.san(move)
    if advice.advice is None or game.planner is None:
        yield f"{san}: {verdict.reason}"
    else:
        table = game.planner.table
        assert advice.plan is not None and advice.tree is not None
        rule = advice.plan.rule
        if rule is not None and table.describe_rule(rule) != rule:
            yield f"situation: {table.describe_rule(rule)}"
        yield f"goal: {table.describe_advice(advice.advice)}"
        ours = (advice.tree.height + 1) // 2
        if ours > 1:
            yield (f"  the plan reaches it in at most {ours} of our moves, whatever they reply")
        explanation = verdict.explanation
        if explanation is not None:
            # Measured where the plan's line ends (its longest resistance).
            label = san if explanation.moves == 1 else f"{san}, in {explanation.moves} moves"
            said = explanation.progress_words(every=True)
            measures = {change.words for change in explanation.changes}
            for part in explanation.parts:
                # A part's words not said already (a comparison's are its measures').
                said += [
                    words
                    for words in part.words.split("; ")
                    if part.holds and words and words not in said and words not in measures
                ]
            for words in said:
                yield f"  {label}: {words}"
        yield f"  after {san}: {distance_text(verdict.after)}"
    if verdict.grade is Grade.BLUNDER:
        # The table's own move throws the win away (the book's KRK table
        # stalemates from 11 positions): say so, and what wins.
        fastest = ", ".join(game.board.san(best) for best in verdict.best)
        yield (
            f"  careful: the table errs here, {san} is a blunder ({verdict.reason}); "
            f"the tablebase wins with {fastest}"
        )
    if verbose:
        yield from trace_lines(game)


def trace_lines(game: Practice) -> Iterator[str]:
    """The search behind the hint: the plan made here or the rest of the
    tree being followed (identifiers, nodes, times)."""
    advice = game.advice()
    if advice.plan is None or game.planner is None:
        return
    if advice.new_plan or advice.tree is None:
        yield from plan_lines(advice.plan, game.board.copy(), game.planner.table)
        return
    yield (
        f"following rule {advice.plan.rule}, advice {advice.plan.advice}: the rest of its "
        f"forcing tree, depth {advice.tree.height}"
    )
    for line in tree_lines(advice.tree, game.board.copy()):
        yield "  " + line


def best_lines(game: Practice) -> Iterator[str]:
    """The tablebase's fastest moves and the method's move here."""
    board = game.board
    advice = game.advice()
    fastest = ", ".join(board.san(move) for move in advice.fastest)
    if not fastest:
        yield "best: no forced mate here"
        return
    after = game.distance()
    yield f"best: {fastest} (mate in {after})" if after else f"best: {fastest}"
    if advice.advice is not None and advice.tree is not None and game.planner is not None:
        move = advice.tree.branches[0][0]
        yield (f"the method: {board.san(move)} — {game.planner.table.describe_advice(advice.advice)}")


def distance_text(moves: int | None) -> str:
    """``mate in 7``, ``mated`` or ``no forced mate``."""
    if moves is None:
        return "no forced mate"
    return "mated" if moves == 0 else f"mate in {moves}"


def turn_line(turn: Turn, number: str, verbose: bool = False) -> str:
    """The person's move, the reply, the distance to mate before and after,
    and the verdict with its reason."""
    line = f"{number} {turn.san}"
    if turn.reply_san is not None:
        line += f"  {turn.reply_san}"
    verdict = turn.verdict
    after = verdict.after_words() if verdict.lost is not None else distance_text(turn.after)
    line = (
        f"{line:<18} {distance_text(turn.before)} → {after}  {GRADE_WORDS[verdict.grade]}: {verdict.reason}"
    )
    if verbose and verdict.explanation is not None:
        parts = ", ".join(
            f"{part.source}: {'yes' if part.holds else 'no'}" for part in verdict.explanation.parts
        )
        line += f"  [{verdict.explanation.advice}: {parts}]"
    return line


def game_summary(game: Practice) -> str:
    """The game's length against the tablebase's optimum from the start."""
    played, optimal = game.moves_played, game.optimal
    end = game.ending()
    if game.solved():
        if played == optimal:
            return f"You mated in {moves_text(played)}: the fastest mate there is."
        return (
            f"You mated in {moves_text(played)}; the fastest mate from the start takes "
            f"{optimal} (tablebase): {played - optimal} over."
        )
    what = f"Game over: {end.detail} ({end.result})" if end is not None else "Stopped"
    return f"{what} after {played} of your moves; from the start the tablebase mates in {optimal}."


def after_a_slip(game: Practice, before: chess.Board, turn: Turn) -> Iterator[str]:
    """After a mistake or blunder: the best move and the method's there,
    and what the student may do."""
    verdict = turn.verdict
    fastest = ", ".join(before.san(move) for move in verdict.best)
    if fastest and verdict.before:
        # Counted after the move and its reply, as the verdict counts.
        then = f"mate in {verdict.before - 1} after it" if verdict.before > 1 else "checkmate"
        yield f"  best was {fastest} ({then})"
    if verdict.method is not None and verdict.method not in verdict.best:
        yield f"  the method's move was {before.san(verdict.method)}"
    elif verdict.method is not None:
        yield f"  the method's move was {before.san(verdict.method)} too"
    if verdict.grade is Grade.BLUNDER:
        yield "  type retry to take it back and try again"
    else:
        yield "  type retry to take it back, or play on: the win is kept"
