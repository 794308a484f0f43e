"""The ``al0 practice`` command: you play the winning side against the
tablebase's defence; each move gets a coach's verdict, and the table (or,
for a material with no table, the tablebase) gives hints on request."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

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
from al0.engine import Match, Tablebases
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
from al0.tablebase import Tablebase
from al0.teach import (
    ADVISORS,
    Grade,
    Lesson,
    Level,
    Practice,
    add_attempt,
    after_a_slip,
    best_lines,
    catalogue_lines,
    catalogue_rows,
    check_record,
    due_reviews,
    find_lesson,
    game_summary,
    goal_moves,
    hint_lines,
    level_starts,
    moves_text,
    now_ms,
    outcome_text,
    parse_level,
    practice_game,
    practice_pgn_text,
    practised_side,
    read_record,
    record_lines,
    record_path,
    review_intro,
    review_lines,
    show_lines,
    turn_line,
    why_lines,
)

COMMANDS_HELP = (
    "commands: hint (what to play, in the table's words), why (the goal and what "
    "the move does to it), retry or undo (take back your last move and the reply, "
    "also after the game ended), show (after a slip: the tablebase plays on from it, "
    "both sides at their best), best (the fastest move and the method's), next (the "
    "next exercise), flip (turn the board), board, moves (the legal moves), quit"
)
MATERIAL = re.compile(r"K[QRBNP]*K[QRBNP]*")
"""A material named in capitals (``KQKR``): practise it with the tablebase alone."""
MAX_EXERCISES = 1000
"""The most exercises --random draws: a set for a class, not the tablebase."""


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
    queued: list[chess.Board],
) -> list[EpdLine]:
    """The exercises: the review queue's positions (``queued``), an EPD
    file's (with their ``id``, ``bm`` and ``am``), a level band's, a FEN,
    or the table's start."""
    if loaded is not None:
        us = loaded.us
    else:
        us, material = practised_side(material)  # the stronger side's, its men first
    if queued:
        return [EpdLine(0, board) for board in queued]
    if epd is not None:
        return epd_lines(epd, material, us)
    if level is not None:
        holds = loaded is not None and loaded.holds
        return [EpdLine(0, board) for board in level_starts(tablebase, level, count, seed, us, holds)]
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
    help="Exercises from the tablebase: positions mating in A to B moves; with a table "
    "that holds, drawn positions where A to B moves keep the draw (1: one move holds).",
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
@click.option(
    "--lessons", "show_lessons", is_flag=True, help="List the lessons, each with its goal, and stop."
)
@click.option("--json", "as_json", is_flag=True, help="With --lessons: the catalogue as JSON.")
@click.option(
    "--lesson",
    "lesson_name",
    metavar="NAME",
    help="Play a lesson (kqk-2): its goal first, judged at the end.",
)
@click.option("--review", is_flag=True, help="Replay the positions of your review queue that are due.")
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
    show_lessons: bool,
    as_json: bool,
    lesson_name: str | None,
    review: bool,
    verbose: bool,
    flipped: bool,
    no_board: bool,
    budget: int,
) -> None:
    """Play the winning side of TABLE's endgame yourself against the
    tablebase's longest resistance. TABLE is a table (krk, kqk, a file) or
    a material in capitals (KQKR): then hints and verdicts come from the
    tablebase alone. With a table that holds (krkb_hold, kpk_hold) you
    defend a drawn position instead, against the tablebase's most testing
    attack (the move that leaves you the fewest moves that keep the draw),
    for 50 moves: each move is the method's, good (the draw kept) or a
    blunder (the draw gone).

    Type your moves in SAN (Rb1, or rb1 in any case when only one move reads
    so) or UCI (a1b1). Each move gets a verdict: method (the table's plan),
    fastest, good, mistake (the mate further away) or blunder (the win
    gone), with its reason. 'hint' says what to play in the table's words;
    'why' names the goal and what the move does to it; 'show', after a
    slip, plays on from it as the tablebase would; 'retry' (or 'undo')
    takes back your last move, also after the game ended; 'best' shows the
    fastest move and the method's; 'next' goes to the next exercise.
    Each exercise is counted in your progress record (--progress shows it);
    a position you miss comes back in --review after 1, 3, 7, 14, 30 days.
    """
    path = record_path()
    _refuse_idle_options(show_progress, level, show_lessons, lesson_name, review)
    if show_progress or show_lessons:
        _show(path, show_progress, as_json, table)
        return
    lesson = find_lesson(lesson_name) if lesson_name is not None else None
    if lesson is not None:
        table, level = lesson.table or lesson.material, lesson.level
    queued: list[chess.Board] = []
    if review:
        table, queued = _due(table, path)
        if not queued:
            return
    if table is None:
        raise click.UsageError("name a TABLE (krk, kqk, a file) or a material (KQKR)")
    given = _exercises_named(fen, epd, level)
    loaded, keep = _load_checked(table, epd, path, pgn_path)
    if loaded is None and not given and not queued:
        raise click.UsageError(f"{table} has no table: give --level A..B, --epd FILE or --fen FEN")
    material = loaded.material if loaded is not None else Material.parse(table)
    tablebases = Tablebases(build_progress())
    match = Match(loaded, budget, tablebases) if loaded is not None else None
    tablebase = tablebases.get(material)
    if tablebase is None:
        raise CommandError(f"practice needs a tablebase, and there is none for {material} (up to four men)")
    starts = _starts(loaded, table, material, tablebase, fen, epd, level, count, seed, queued)
    games: list[chess.pgn.Game] = []
    try:
        _session(
            starts,
            _Session(tablebase, match, loaded, material, lesson, path, review),
            _View(flipped, verbose, not no_board),
            games,
        )
    finally:
        if pgn_path is not None and games:
            write_output(pgn_path, practice_pgn_text(games), "PGN", keep)
            click.echo(f"PGN written to {pgn_path}")


def _exercises_named(fen: str | None, epd: str | None, level: Level | None) -> list[str]:
    """The options given that name the exercises (at most one may be)."""
    given = [
        name for name, value in (("--fen", fen), ("--epd", epd), ("--level", level)) if value is not None
    ]
    if len(given) > 1:
        raise click.UsageError(f"give one of {' and '.join(given)}: each names the exercises")
    return given


def _show(path: Path, show_progress: bool, as_json: bool, table: str | None) -> None:
    """``--progress`` (the record and the review queue) or ``--lessons``
    (TABLE's ending's, given one)."""
    if show_progress:
        lines = record_lines(read_record(path), now_ms())
    elif as_json:
        lines = [json.dumps({"lessons": catalogue_rows(table)}, indent=1)]
    else:
        lines = catalogue_lines(table)
    for line in lines:
        click.echo(line)


def _due(table: str | None, path: Path) -> tuple[str | None, list[chess.Board]]:
    """``--review``: the ending to replay (TABLE's, else the one whose
    position has waited longest), named as the table that advises it
    names it, and its due positions (none: said so here)."""
    data = read_record(path)
    ending = table.upper() if table is not None else None
    due = due_reviews(data, now_ms(), ending)
    if not due:
        click.echo(f"nothing to review now{f' in {ending}' if ending else ''}")
        for line in review_lines(data, now_ms())[1:]:
            click.echo(line)
        return table, []
    ending = due[0][1]
    boards = [chess.Board(fen) for fen, material in due if material == ending]
    return ADVISORS.get(ending) or ending, boards


@dataclass(frozen=True)
class _View:
    """How the terminal shows an exercise."""

    flipped: bool
    verbose: bool
    boards: bool


@dataclass(frozen=True)
class _Session:
    """What every exercise of a session shares: the tablebase, the table's
    match (None: the tablebase alone), the ending, the lesson (if one),
    the progress record and whether the exercises are its review queue's."""

    tablebase: Tablebase
    match: Match | None
    loaded: AdviceTable | None
    material: Material
    lesson: Lesson | None
    record: Path
    review: bool


def _session(starts: list[EpdLine], session: _Session, view: _View, games: list[chess.pgn.Game]) -> None:
    """Each exercise in turn, played into ``games`` (also when an
    interruption ends it mid-way) and counted in the record; a lesson's
    goal stated before its first move and judged at its end."""
    planner = session.match.planner if session.match is not None else None
    lesson = session.lesson
    for number, exercise in enumerate(starts, 1):
        game = Practice(session.tablebase, exercise.board, planner)
        if len(starts) > 1 or exercise.id is not None:
            named = f" ({exercise.id})" if exercise.id is not None else ""
            click.echo(f"Exercise {number} of {len(starts)}{named}: {exercise.board.fen()}")
        queued = (
            read_record(session.record).get("review", {}).get(game.start.fen()) if session.review else None
        )
        if queued is not None:
            click.echo(review_intro(queued))
        if lesson is not None:
            click.echo(f"Lesson {lesson.name}, {lesson.title}. Your goal: {lesson.goal_text(game.optimal)}")
        try:
            stop = _exercise(game, session, view, exercise)
        finally:
            # Also when Ctrl-C, SIGTERM or an error ends the session
            # mid-exercise: the moves played so far are kept.
            games.append(_played(game, number, session.material, session.loaded))
            if sum(game.given.values()):  # an exercise left untouched is not counted
                add_attempt(session.record, game.attempt(session.material.name), now_ms())
        if stop:
            break


def _load_checked(
    table: str, epd: str | None, record: Path, pgn_path: str | None
) -> tuple[AdviceTable | None, tuple[str | None, ...]]:
    """The table TABLE names (None for a material) and the files the
    session reads, checked before any exercise: nothing the session
    writes may replace what it reads, and the record must take the
    session's counts."""
    check_no_overwrite(
        {"TABLE": table, "--epd": epd, "the progress record": str(record)}, {"--pgn": pgn_path}
    )
    check_record(record)
    loaded = None if _material_mode(table) else _table(table)
    if loaded is None:
        return None, (epd, str(record))
    read = {"the table": loaded.path or None, "the table's library": loaded.library.path or None}
    check_no_overwrite(read, {"--pgn": pgn_path})
    return loaded, (epd, str(record), *read.values())


def _refuse_idle_options(
    show_progress: bool, level: Level | None, show_lessons: bool, lesson: str | None, review: bool
) -> None:
    """An option that would change nothing here is refused, not ignored:
    any with ``--progress`` or ``--lessons`` (which show and stop),
    ``--random`` and ``--seed`` without ``--level`` or ``--lesson``, and
    ``--json`` without ``--lessons``; what names the exercises is refused
    with ``--lesson`` and ``--review``, which name their own."""
    context = click.get_current_context()
    given_options = [
        parameter.opts[0]
        for parameter in context.command.params
        if isinstance(parameter, click.Option)
        and parameter.name is not None
        and context.get_parameter_source(parameter.name) is not ParameterSource.DEFAULT
    ]
    for shown, alone, what in (
        (show_progress, "--progress", "the record"),
        (show_lessons, "--lessons", "the lessons"),
    ):
        others = [option for option in given_options if option not in (alone, "--json")]
        if shown and others:
            raise click.UsageError(f"{alone} shows {what} and stops: give it without {', '.join(others)}")
    if "--json" in given_options and not show_lessons:
        raise click.UsageError("--json needs --lessons (it prints the catalogue)")
    for named, option in ((lesson is not None, "--lesson"), (review, "--review")):
        table = context.params["table"] is not None and option == "--lesson"
        exercises: tuple[str, ...] = ("--fen", "--epd", "--level", "--lesson")
        clashing = [o for o in exercises if o in given_options and o != option] + ["a TABLE"] * table
        if named and clashing:
            raise click.UsageError(f"{option} names its own exercises: give it without {', '.join(clashing)}")
    if level is None and lesson is None:
        for option in ("--random", "--seed"):
            if option in given_options:
                raise click.UsageError(f"{option} needs --level (it draws --level's exercises)")


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


def _exercise(game: Practice, session: _Session, view: _View, exercise: EpdLine) -> bool:
    """One exercise at the terminal; True when the person quit (no more
    exercises). ``view``: how to show it (the board after each move or not); the first move
    is held against the ``exercise``'s ``bm`` and ``am``, when it has them."""
    board = game.board
    verbose = view.verbose
    orientation = not game.us if view.flipped else game.us

    def drawn() -> list[str]:
        return [unicode_board_text(board, orientation)] if view.boards else []

    for line in _opening_lines(game, session.loaded, session.material, orientation, view.boards):
        click.echo(line)
    told = False
    while True:
        if game.ending() is not None and not told:
            _summary(game, session.lesson)
            told = True
        question = (
            "Game over: retry, undo, next or quit: " if game.ending() is not None else practice_prompt(board)
        )
        text = typed_line(question)
        if text is None or text.lower() in QUIT_WORDS:
            if not told:
                _summary(game, session.lesson)
            return True
        word = text.lower()
        if not text:
            continue
        if word in ("next", "skip"):
            if not told:
                _summary(game, session.lesson)
            return False
        if word in ("undo", "retry"):
            if game.undo():
                told = False
                lines = ["taken back: your move again" if word == "retry" else "taken back", *drawn()]
            else:
                lines = ["nothing to undo"]
        elif game.ending() is not None and word not in ("flip", "board", "help", "show"):
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
        elif word == "show":
            lines = list(show_lines(game))
        elif word in ("flip", "board"):
            orientation = not orientation if word == "flip" else orientation
            lines = [unicode_board_text(board, orientation)]
        elif word == "help":
            lines = [COMMANDS_HELP, f"legal moves: {', '.join(legal_sans(board))}"]
        elif word in LIST_WORDS:
            lines = [f"legal moves: {', '.join(legal_sans(board))}"]
        else:
            try:
                lines = _move_lines(game, text, verbose, drawn, exercise)
            except MoveInputError as error:
                lines = [str(error)]
        for line in lines:
            click.echo(line)


def _summary(game: Practice, lesson: Lesson | None) -> None:
    """The game measured against the optimum and, in a lesson, whether its goal was met."""
    click.echo(game_summary(game))
    if lesson is not None:
        click.echo(outcome_text(lesson.goal, lesson.limit(game.optimal), goal_moves(lesson.goal, game)))


def _opening_lines(
    game: Practice, loaded: AdviceTable | None, material: Material, orientation: chess.Color, boards: bool
) -> Iterator[str]:
    """An exercise's start: who plays what, the commands, the defence's
    first reply and the board (its FEN without ``boards``)."""
    advisor = f"{loaded.name} advises" if loaded is not None else "the tablebase advises"
    if game.holds:
        yield (
            f"You hold the draw with {side_name(game.us)} ({material}) against the tablebase's most "
            f"testing attack; {advisor}. Keep the draw for {moves_text(game.optimal)} (or take "
            f"their piece: too little is left to mate)."
        )
    else:
        yield (
            f"You play {side_name(game.us)} ({material}) against the tablebase's defence; "
            f"{advisor}. From here the fastest mate takes {moves_text(game.optimal)}."
        )
    yield COMMANDS_HELP
    if game.opening_reply is not None:
        yield f"the {'attack' if game.holds else 'defence'} opens: {game.opening_reply}"
    yield unicode_board_text(game.board, orientation) if boards else f"start: {game.board.fen()}"


def _move_lines(
    game: Practice, text: str, verbose: bool, drawn: Callable[[], list[str]], exercise: EpdLine
) -> list[str]:
    """The person's move ``text`` played: its turn's line, the board
    (``drawn``), after a slip what was best, and on the exercise's first
    move what its ``bm`` and ``am`` say.

    :raises MoveInputError: ``text`` is no legal move here.
    """
    board = game.board
    move = parse_move(board, text)
    number = f"{board.fullmove_number}." if board.turn == chess.WHITE else f"{board.fullmove_number}..."
    before = board.copy()
    turn = game.play(move)
    lines = [turn_line(turn, number, verbose), *drawn()]
    if turn.verdict.grade in (Grade.MISTAKE, Grade.BLUNDER):
        lines += [*after_a_slip(game, before, turn), "  type show to see the tablebase play on from it"]
    if before.fen() == game.start.fen():  # the exercise's first move: where bm and am speak
        lines += list(_the_sets_moves(exercise, before, move))
    return lines


def _the_sets_moves(exercise: EpdLine, board: chess.Board, move: chess.Move) -> Iterator[str]:
    """The exercise set's own word on the first move: its ``bm`` where the
    student played another, its ``am`` where the student played one."""
    if exercise.best and move not in exercise.best:
        yield f"  the exercise's move (bm) was {', '.join(board.san(best) for best in exercise.best)}"
    if move in exercise.avoid:
        yield f"  the exercise warns against {board.san(move)} (am)"
