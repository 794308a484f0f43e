"""The ``al0 practice`` command: you play the winning side against the
tablebase's defence; each move gets a coach's verdict, and the table (or,
for a material with no table, the tablebase) gives hints on request."""

from __future__ import annotations

import re
from typing import Any, Iterator

import chess
import chess.pgn
import click
from click.core import ParameterSource

from al0.board import EpdLine, Material, check_playable, epd_lines, parse_fen
from al0.cli.messages import CommandError, reports_errors
from al0.cli.outputs import OutputPath, check_no_overwrite, write_output
from al0.cli.params import BUDGET, WholeNumber
from al0.cli.positions import start_board
from al0.cli.terminal import build_progress, typed_line
from al0.engine import Match, Tablebases, tree_lines
from al0.errors import PositionError, TableSyntaxError
from al0.human import (
    LIST_WORDS,
    QUIT_WORDS,
    MoveInputError,
    legal_sans,
    parse_move,
    side_name,
    unicode_board_text,
)
from al0.lang import AdviceTable, load_table
from al0.report import plan_lines
from al0.tablebase import Tablebase
from al0.teach import (
    Grade,
    Level,
    Practice,
    Turn,
    add_attempt,
    check_record,
    level_starts,
    moves_text,
    parse_level,
    practice_game,
    practice_pgn_text,
    read_record,
    record_lines,
    record_path,
)

COMMANDS_HELP = (
    "commands: hint (what to play, in the table's words), why (the goal and what "
    "the move does to it), retry or undo (take back your last move and the reply, "
    "also after the game ended), best (the fastest move and the method's), next (the "
    "next exercise), flip (turn the board), board, moves (the legal moves), quit"
)
MATERIAL = re.compile(r"K[QRBN]*K[QRBN]*")
"""A material named in capitals (``KQKR``): practise it with the tablebase alone."""
MAX_EXERCISES = 1000
"""The most exercises --random draws: a set for a class, not the tablebase."""
GRADE_WORDS = {
    Grade.METHOD: "method",
    Grade.FASTEST: "fastest",
    Grade.GOOD: "good",
    Grade.MISTAKE: "MISTAKE",
    Grade.BLUNDER: "BLUNDER",
}


class LevelType(click.ParamType[Level]):
    """``--level A..B``: a band of distances to mate, parsed once."""

    name = "level"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Level:
        if isinstance(value, Level):
            return value
        try:
            return parse_level(str(value))
        except PositionError as error:
            self.fail(str(error), param, ctx)


def practice_prompt(board: chess.Board) -> str:
    return f"Your move as {side_name(board.turn)} (SAN or UCI; hint, why, retry, best, help, quit): "


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
    yield f"hint: play {san} — {table.describe_advice(advice.advice)}{kept}"
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
        yield from _trace(game)


def _trace(game: Practice) -> Iterator[str]:
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


def summary(game: Practice) -> str:
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


def _material_mode(name: str) -> bool:
    """Whether TABLE names a material (capitals: KQKR) rather than a table.
    As a bundled table's name does (al0.bundled.table_path), it does so even
    where the working folder holds a file or folder of that name (./KQKR
    names that one); asking the file system would also fail on a name too
    long to be a file."""
    return MATERIAL.fullmatch(name) is not None


def _table(name: str) -> AdviceTable:
    """The table ``name`` names; a material in small letters that names no
    table gets a hint to write it in capitals."""
    try:
        return load_table(name)
    except TableSyntaxError as error:
        if MATERIAL.fullmatch(name.upper()) and "cannot read table" in str(error):
            raise CommandError(
                f"{error} (to practise {name.upper()} with the tablebase "
                f"alone, name it in capitals: al0 practice {name.upper()})"
            ) from None
        raise


def _starts(
    loaded: AdviceTable | None,
    name: str,
    material: Material,
    tablebase: Tablebase,
    fen: str | None,
    epd: str | None,
    level: Level | None,
    count: int,
    seed: int,
) -> list[EpdLine]:
    """The exercises: an EPD file's positions (with their ``id``, ``bm`` and
    ``am``), a level band's, a FEN, or the table's start."""
    us = loaded.us if loaded is not None else chess.WHITE
    if epd is not None:
        return epd_lines(epd, material, us)
    if level is not None:
        return [EpdLine(0, board) for board in level_starts(tablebase, level, count, seed, us)]
    if loaded is None:
        assert fen is not None  # checked before the tablebase was built
        board = parse_fen(fen)
        check_playable(board, material, us)
        return [EpdLine(0, board)]
    return [EpdLine(0, start_board(loaded, name, fen))]


@click.command()
@click.argument("table", required=False)
@click.option("--fen", help="Start position (default: the table's start position).")
@click.option(
    "--epd",
    type=click.Path(dir_okay=False),
    help="Exercises: every position of this EPD file (e.g. verify --failures).",
)
@click.option(
    "--level",
    type=LevelType(),
    metavar="A..B",
    help="Exercises from the tablebase: positions mating in A to B moves.",
)
@click.option(
    "--random",
    "count",
    type=WholeNumber(minimum=1, maximum=MAX_EXERCISES),
    default=5,
    show_default=True,
    help="How many exercises --level draws.",
)
@click.option(
    "--seed",
    type=WholeNumber(minimum=None),
    default=0,
    show_default=True,
    help="The seed of --level's draw (the same seed, the same exercises).",
)
@click.option(
    "--pgn",
    "pgn_path",
    type=OutputPath("PGN", stdout=False),
    help="Write your games here: verdicts as comments, [%eval #N], arrows.",
)
@click.option("--progress", "show_progress", is_flag=True, help="Show your progress record and stop.")
@click.option("--verbose", is_flag=True, help="Also the table's identifiers and the search behind each hint.")
@click.option("--flip", "flipped", is_flag=True, help="Show the board from the defending side.")
@click.option(
    "--no-board",
    "no_board",
    is_flag=True,
    help="Draw no board, the start's included (its FEN instead); 'board' still shows it.",
)
@BUDGET
@reports_errors
def practice(
    table: str | None,
    fen: str | None,
    epd: str | None,
    level: Level | None,
    count: int,
    seed: int,
    pgn_path: str | None,
    show_progress: bool,
    verbose: bool,
    flipped: bool,
    no_board: bool,
    budget: int,
) -> None:
    """Play the winning side of TABLE's endgame yourself against the
    tablebase's longest resistance. TABLE is a table (krk, kqk, a file) or
    a material in capitals (KQKR): then hints and verdicts come from the
    tablebase alone.

    Type your moves in SAN (Rb1, or rb1 in any case when only one move reads
    so) or UCI (a1b1). Each move gets a verdict: method (the table's plan),
    fastest, good, mistake (the mate further away) or blunder (the win
    gone), with its reason. 'hint' says what to play in the table's words;
    'why' names the goal and what the move does to it; 'retry' (or 'undo')
    takes back your last move, also after the game ended; 'best' shows the
    fastest move and the method's; 'next' goes to the next exercise.
    Each exercise is counted in your progress record (--progress shows it).
    """
    path = record_path()
    context = click.get_current_context()
    given_options = [
        parameter.opts[0]
        for parameter in context.command.params
        if isinstance(parameter, click.Option)
        and parameter.name is not None
        and context.get_parameter_source(parameter.name) is not ParameterSource.DEFAULT
    ]
    # An option that would change nothing here is refused, not ignored.
    others = [option for option in given_options if option != "--progress"]
    if show_progress and others:
        raise click.UsageError(f"--progress shows the record and stops: give it without {', '.join(others)}")
    if level is None:
        for option in ("--random", "--seed"):
            if option in given_options:
                raise click.UsageError(f"{option} needs --level (it draws --level's exercises)")
    if show_progress:
        for line in record_lines(read_record(path)):
            click.echo(line)
        return
    if table is None:
        raise click.UsageError("name a TABLE (krk, kqk, a file) or a material (KQKR)")
    given = [
        name for name, value in (("--fen", fen), ("--epd", epd), ("--level", level)) if value is not None
    ]
    if len(given) > 1:
        raise click.UsageError(f"give one of {' and '.join(given)}: each names the exercises")
    # Before any exercise: nothing the session writes may replace what it
    # reads, and the record must take the session's counts.
    check_no_overwrite({"TABLE": table, "--epd": epd, "the progress record": str(path)}, {"--pgn": pgn_path})
    check_record(path)
    loaded = None if _material_mode(table) else _table(table)
    if loaded is not None:
        check_no_overwrite(
            {"the table": loaded.path or None, "the table's library": loaded.library.path or None},
            {"--pgn": pgn_path},
        )
    keep = (epd, str(path)) + (
        (loaded.path or None, loaded.library.path or None) if loaded is not None else ()
    )
    if loaded is None and not given:
        raise click.UsageError(f"{table} has no table: give --level A..B, --epd FILE or --fen FEN")
    material = loaded.material if loaded is not None else Material.parse(table)
    tablebases = Tablebases(build_progress())
    match = Match(loaded, budget, tablebases) if loaded is not None else None
    tablebase = tablebases.get(material)
    if tablebase is None:
        raise CommandError(
            f"practice needs a tablebase, and there is none for {material} (pawnless, up to four men)"
        )
    starts = _starts(loaded, table, material, tablebase, fen, epd, level, count, seed)
    planner = match.planner if match is not None else None
    games: list[chess.pgn.Game] = []
    try:
        for number, exercise in enumerate(starts, 1):
            game = Practice(tablebase, exercise.board, planner)
            if len(starts) > 1 or exercise.id is not None:
                named = f" ({exercise.id})" if exercise.id is not None else ""
                click.echo(f"Exercise {number} of {len(starts)}{named}: {exercise.board.fen()}")
            try:
                stop = _exercise(game, loaded, material, flipped, verbose, not no_board, exercise)
            finally:
                # Also when Ctrl-C, SIGTERM or an error ends the session
                # mid-exercise: the moves played so far are kept.
                games.append(_played(game, number, material, loaded))
                if sum(game.given.values()):  # an exercise left untouched is not counted
                    add_attempt(path, game.attempt(material.name))
            if stop:
                break
    finally:
        if pgn_path is not None and games:
            write_output(pgn_path, practice_pgn_text(games), "PGN", keep)
            click.echo(f"PGN written to {pgn_path}")


def _played(game: Practice, number: int, material: Material, loaded: AdviceTable | None) -> chess.pgn.Game:
    """Exercise ``number`` as played so far, as a PGN game ("*" while it has no result)."""
    end = game.ending()
    return practice_game(
        game.start,
        game.turns,
        game.us,
        {
            "Event": f"al0 practice {material}",
            "Round": str(number),
            "Annotator": loaded.name if loaded is not None else "tablebase",
        },
        end.result if end is not None else "*",
        game.taken_back,
    )


def _exercise(
    game: Practice,
    loaded: AdviceTable | None,
    material: Material,
    flipped: bool,
    verbose: bool,
    boards: bool,
    exercise: EpdLine,
) -> bool:
    """One exercise at the terminal; True when the person quit (no more
    exercises). ``boards``: draw the board after each move; the first move
    is held against the ``exercise``'s ``bm`` and ``am``, when it has them."""
    board = game.board
    you = game.us
    orientation = not you if flipped else you
    opening = board.fen()  # where the exercise starts: where its bm and am speak

    def drawn() -> list[str]:
        return [unicode_board_text(board, orientation)] if boards else []

    advisor = f"{loaded.name} advises" if loaded is not None else "the tablebase advises"
    click.echo(
        f"You play {side_name(you)} ({material}) against the tablebase's defence; "
        f"{advisor}. From here the fastest mate takes {moves_text(game.optimal)}."
    )
    click.echo(COMMANDS_HELP)
    if game.opening_reply is not None:
        click.echo(f"the defence opens: {game.opening_reply}")
    click.echo(unicode_board_text(board, orientation) if boards else f"start: {board.fen()}")
    told = False
    while True:
        if game.ending() is not None and not told:
            click.echo(summary(game))
            told = True
        question = (
            "Game over: retry, undo, next or quit: " if game.ending() is not None else practice_prompt(board)
        )
        text = typed_line(question)
        if text is None or text.lower() in QUIT_WORDS:
            if not told:
                click.echo(summary(game))
            return True
        word = text.lower()
        if not text:
            continue
        if word in ("next", "skip"):
            if not told:
                click.echo(summary(game))
            return False
        if word in ("undo", "retry"):
            if game.undo():
                told = False
                lines = ["taken back: your move again" if word == "retry" else "taken back", *drawn()]
            else:
                lines = ["nothing to undo"]
        elif game.ending() is not None and word not in ("flip", "board", "help"):
            lines = [
                "the game is over: retry or undo to take your last move back, "
                "next for the next exercise, quit to stop"
            ]
        elif word == "hint":
            game.hint()
            lines = list(hint_lines(game, verbose))
        elif word == "why":
            lines = list(why_lines(game, verbose))
        elif word == "best":
            lines = list(best_lines(game))
        elif word in ("flip", "board"):
            orientation = not orientation if word == "flip" else orientation
            lines = [unicode_board_text(board, orientation)]
        elif word == "help":
            lines = [COMMANDS_HELP, f"legal moves: {', '.join(legal_sans(board))}"]
        elif word in LIST_WORDS:
            lines = [f"legal moves: {', '.join(legal_sans(board))}"]
        else:
            try:
                move = parse_move(board, text)
            except MoveInputError as error:
                click.echo(str(error))
                continue
            number = (
                f"{board.fullmove_number}." if board.turn == chess.WHITE else f"{board.fullmove_number}..."
            )
            before = board.copy()
            turn = game.play(move)
            lines = [turn_line(turn, number, verbose), *drawn()]
            if turn.verdict.grade in (Grade.MISTAKE, Grade.BLUNDER):
                lines += list(_after_a_slip(game, before, turn))
            if before.fen() == opening:
                lines += list(_the_sets_moves(exercise, before, move))
        for line in lines:
            click.echo(line)


def _the_sets_moves(exercise: EpdLine, board: chess.Board, move: chess.Move) -> Iterator[str]:
    """The exercise set's own word on the first move: its ``bm`` where the
    student played another, its ``am`` where the student played one."""
    if exercise.best and move not in exercise.best:
        yield f"  the exercise's move (bm) was {', '.join(board.san(best) for best in exercise.best)}"
    if move in exercise.avoid:
        yield f"  the exercise warns against {board.san(move)} (am)"


def _after_a_slip(game: Practice, before: chess.Board, turn: Turn) -> Iterator[str]:
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
