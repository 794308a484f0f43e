"""The ``al0 play`` command: play the endgame with a table against an
opponent, a person at the keyboard included."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import chess
import click

from al0.cli.messages import CommandError, reports_errors, shown_path
from al0.cli.outputs import OutputPath, check_no_overwrite, write_output
from al0.cli.params import BUDGET, ENGINE_SECONDS, TABLE, DefenderParam, WholeNumber
from al0.cli.positions import not_playable_why, start_board, unfit_start_verdict
from al0.cli.terminal import build_progress, typed_line
from al0.engine import Ending, GameEnd, Match, Opponent, OurMove, Tablebases, TheirMove
from al0.errors import AL0Error, one_line
from al0.human import LIST_WORDS, QUIT_WORDS, MoveInputError, board_text, legal_sans, parse_move, prompt
from al0.lang import AdviceTable, DefenderSpec
from al0.report import (
    PgnGame,
    clear_board_svgs,
    distance_note,
    pgn_text,
    plan_lines,
    players,
    write_board_svg,
)
from al0.teach import Explainer


def human_opponent() -> Callable[[chess.Board], chess.Move | None]:
    """Reads their moves from standard input (see :func:`al0.human.parse_move`
    and :func:`al0.cli.terminal.typed_line`); None on ``quit`` or end of
    input. Lists the legal moves on request and re-prompts on an illegal,
    ambiguous or unparsable move."""

    def choose(board: chess.Board) -> chess.Move | None:
        while True:
            text = typed_line(prompt(board))
            if text is None or text.lower() in QUIT_WORDS:
                return None
            if text.lower() in LIST_WORDS:
                click.echo(f"legal moves: {', '.join(legal_sans(board))}")
                continue
            if not text:
                continue
            try:
                return parse_move(board, text)
            except MoveInputError as error:
                click.echo(str(error))

    return choose


def move_label(board: chess.Board) -> str:
    """The number of the move just played on ``board``: ``7.`` or ``7...``."""
    if board.turn == chess.BLACK:
        return f"{board.fullmove_number}."
    return f"{board.fullmove_number - 1}..."


def write_pgn(
    path: str,
    start: chess.Board,
    moves: list[tuple[chess.Move, str]],
    end: GameEnd,
    match: Match,
    opponent: str,
) -> None:
    """Write the game to ``path`` as PGN (atomically), with today's date
    and, when the material has a tablebase, the distance to mate after each
    move in the comments."""
    table = match.table
    white, black = players(table.us, f"al0 ({table.name})", opponent)
    game = PgnGame(
        start,
        tuple(moves),
        end.result,
        end.ending,
        f"al0 play {table.name}",
        white,
        black,
        table.us,
        end.detail,
    )
    write_output(path, pgn_text([game], match.tablebase), "PGN", inputs_of(table))


def inputs_of(table: AdviceTable) -> tuple[str | None, ...]:
    """The files a game reads that nothing it writes may replace."""
    return table.path or None, table.library.path or None


@click.command()
@TABLE
@click.option("--fen", help="Start position (default: the table's start position).")
@click.option(
    "--opponent",
    type=DefenderParam(("human", "random", "tablebase", "uci")),
    default=None,
    metavar="human|random|tablebase|uci:COMMAND",
    help="Who plays the other side: you, a seeded random mover, the tablebase's "
    "longest resistance (with the optimal distance to mate shown after each "
    "of our moves), or a UCI engine. Default: the tablebase when the "
    "material has one, else random: you watch. Play yourself with "
    "--opponent human.",
)
@click.option(
    "--seed",
    type=WholeNumber(minimum=None),
    default=0,
    show_default=True,
    help="Seed of the random opponent.",
)
@click.option(
    "--engine-time",
    type=ENGINE_SECONDS,
    default=0.1,
    show_default=True,
    help="Seconds per move for a UCI opponent.",
)
@click.option(
    "--max-moves", type=WholeNumber(minimum=1), default=None, help="Stop after this many of our moves."
)
@click.option(
    "--pgn",
    "pgn_path",
    type=OutputPath("PGN", stdout=False),
    help="Write the game as PGN, with the advice as move comments (to a file: "
    "standard output shows the game).",
)
@click.option(
    "--explain", is_flag=True, help="Show, for each new plan, the advice tried and the forcing tree."
)
@click.option(
    "--board/--no-board",
    "show_board",
    default=True,
    show_default=True,
    help="Show the board at the start and after each of our moves.",
)
@click.option(
    "--svg",
    "svg_dir",
    type=click.Path(file_okay=False),
    help="Write the board after each move, captioned with the move and advice, as "
    "DIR/ply-NNN.svg (000: the start), removing an earlier game's ply-NNN.svg.",
)
@BUDGET
@reports_errors
def play(
    table: str,
    fen: str | None,
    opponent: DefenderSpec | None,
    seed: int,
    engine_time: float,
    max_moves: int | None,
    pgn_path: str | None,
    explain: bool,
    show_board: bool,
    svg_dir: str | None,
    budget: int,
) -> None:
    """Play the endgame with TABLE against an opponent.

    Every move of ours names the rule and piece of advice it comes from.
    With --opponent human you type their moves in SAN (Kb2, or kb2 in any
    case when only one move reads so) or UCI (c2b2); 'moves' lists the
    legal moves, 'quit' stops. To play the table's side yourself, with its
    advice on request, use `al0 practice`.
    """
    outputs = {"--pgn": pgn_path, "--svg": svg_dir}
    check_no_overwrite({"TABLE": table}, outputs)
    match = Match.load(table, budget, Tablebases(build_progress()))
    loaded = match.table
    check_no_overwrite({"the table's library": loaded.library.path or None}, outputs)
    board = start_board(loaded, table, fen)
    if opponent is None:
        opponent = match.default_opponent()
    if pgn_path is not None:
        match.tablebase  # loaded (or built) before the game, not at its end
    show = Show(explain, show_board, board_pictures(svg_dir, inputs_of(loaded)), pgn_path)
    if opponent.kind == "human":
        play_out(match, board, human_opponent(), "human", max_moves, show)
        return
    made = match.opponent(opponent, seed, engine_time)
    name = f"random (seed {seed})" if opponent.kind == "random" else opponent.name
    try:
        play_out(match, board, made, name, max_moves, show, distances=opponent.kind == "tablebase")
    finally:
        made.close()


Picture = Callable[[chess.Board, list[str]], None]
"""Shows a board with its caption lines (``--svg DIR``)."""


def board_pictures(svg_dir: str | None, keep: tuple[str | None, ...] = ()) -> Picture:
    """What ``--svg DIR`` does with each board: write it as SVG into DIR
    (made if missing, and cleared of the boards of an earlier game, its
    other files left alone; each written whole, never over a file of
    ``keep``), or nothing without the option."""
    if svg_dir is None:
        return lambda board, caption: None
    directory = Path(svg_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CommandError(f"{shown_path(svg_dir)}: cannot make the folder: {error.strerror}") from None
    try:
        removed = clear_board_svgs(directory)
    except OSError as error:
        raise CommandError(
            f"{shown_path(svg_dir)}: cannot remove an earlier game's boards: {error.strerror}"
        ) from None
    if removed:
        click.echo(f"{shown_path(svg_dir)}: removed the {removed} boards of an earlier game (ply-NNN.svg)")

    def write(board: chess.Board, caption: list[str]) -> None:
        try:
            write_board_svg(directory, board, caption, keep=keep)
        except OSError as error:
            raise CommandError(f"{shown_path(svg_dir)}: cannot write: {error.strerror}") from None

    return write


@dataclass(frozen=True)
class Show:
    """What ``al0 play`` shows and writes of a game besides its moves."""

    explain: bool
    """The advice tried and the forcing tree of each new plan (--explain)."""
    board: bool
    """The board at the start and after each of our moves (--board)."""
    picture: Picture
    """Shows every board, captioned (--svg)."""
    pgn_path: str | None
    """Where the game is written as PGN (--pgn)."""


def _show_our_move(
    event: OurMove,
    board: chess.Board,
    first: AdviceTable,
    show: Show,
    explainer: Explainer,
    distances: tuple[str | None, str | None],
) -> str:
    """Print our move just played on ``board``: its rule and advice (of its
    table, named where it is not the game's ``first``: a capture or a
    promotion handed the game on), the tablebase's distances before and
    after it, when given, what it does with ``show.explain``, the board
    with ``show.board``; picture it. Its PGN comment."""
    loaded = event.table
    words = loaded.describe_advice(event.plan.advice)
    said = words != event.plan.advice
    table = "" if loaded is first else f"{loaded.name}: "
    show.picture(
        board,
        [
            f"{move_label(board)} {event.san}",
            f"{table}{event.plan.rule} / {event.plan.advice}",
            *([words] if said else []),
        ],
    )
    how = "new plan" if event.new_plan else "following the tree"
    if distances[1] is not None:
        how += f"  (optimal {distances[0]}, now {distances[1]})"
    how += f" — {words}" if said else ""
    click.echo(f"{move_label(board)} {event.san:<7} [{table}{event.plan.rule} / {event.plan.advice}]  {how}")
    if show.explain and event.plan.advice is not None:
        before = board.copy()
        before.pop()
        because = explainer.explain(event.plan.advice, before, event.move).because()
        if because:
            click.echo(f"    {event.san}: {because}")
        if event.new_plan:
            for line in plan_lines(event.plan, before, loaded):
                click.echo("    " + line)
    if show.board:
        click.echo(board_text(board))
    return f"{table}{event.plan.rule}: {event.plan.advice}" + (f" ({words})" if said else "")


def start_note(match: Match, board: chess.Board) -> str | None:
    """One line on the start ``board`` when the tablebase (where the
    material has one) says it is not what the table is for: a position its
    side does not win, or, for a table that holds, one already lost. The
    game is played all the same; the line tells why it may end without a
    mate, in "no plan". A start whose half-move clock leaves no mate
    possible is said so first (:func:`~al0.cli.positions.not_playable_why`)."""
    why = not_playable_why(match.table, board)
    if why is not None:
        # A game over already (clock 100 and more) has no move to play: "plays it
        # all the same" before "Game over" read as a contradiction.
        over = board.outcome() is not None or board.is_fifty_moves()
        return f"note: {why}" + ("" if over else f": {match.table.name} plays it all the same")
    table, tablebase = match.table, match.tablebase
    verdict = None if tablebase is None else unfit_start_verdict(table, board, tablebase)
    if verdict is None:
        return None
    ours, theirs = chess.COLOR_NAMES[table.us].capitalize(), chess.COLOR_NAMES[not table.us].capitalize()
    if table.holds:
        return f"note: the tablebase says {theirs} wins here: {table.name} holds drawn positions, this one is lost"
    return f"note: the tablebase says this position is {verdict}, not a win for {ours}: {table.name} plays it all the same"


def play_out(
    match: Match,
    board: chess.Board,
    defender: Opponent,
    opponent_name: str,
    max_moves: int | None,
    show: Show,
    distances: bool = False,
) -> None:
    """Play the game and print it; with ``distances``, the tablebase's
    optimal distance to mate before and after each of our moves; ``show``
    says what else is shown (each board, the start's included, captioned
    with the move just played and, for ours, its rule and advice) and
    written."""
    loaded, picture, pgn_path = match.table, show.picture, show.pgn_path
    tablebase = match.tablebase if distances else None
    start = board.copy()
    explainers = {id(loaded): Explainer(loaded)}
    """An explainer for each table the game has played (a capture or a
    promotion hands it on)."""
    picture(board, [f"start: {board.fen()}"])
    played: list[tuple[chess.Move, str]] = []
    dtm_before = (
        distance_note(board, tablebase, loaded.us)
        if tablebase is not None and board.turn == loaded.us
        else None
    )
    ended: GameEnd | None = None
    try:
        click.echo(f"al0 plays {loaded.name} ({loaded.material}) against {opponent_name}")
        note = start_note(match, board)
        if note is not None:
            click.echo(note)
        if show.board:
            click.echo(board_text(board))
        for event in match.play(board, defender, max_moves):
            if isinstance(event, OurMove):
                if id(event.table) not in explainers:
                    explainers[id(event.table)] = Explainer(event.table)
                    click.echo(
                        f"the game goes on with {event.table.name} ({event.table.material})"
                        + (f": {event.table.description}" if event.table.description else "")
                    )
                now = distance_note(board, tablebase, loaded.us) if tablebase is not None else None
                explainer = explainers[id(event.table)]
                played.append(
                    (event.move, _show_our_move(event, board, loaded, show, explainer, (dtm_before, now)))
                )
            elif isinstance(event, TheirMove):
                played.append((event.move, ""))
                picture(board, [f"{move_label(board)} {event.san}"])
                note = "" if event.in_tree or not show.explain else "  (tree dropped: replan)"
                click.echo(f"   ... {event.san}{note}")
                if tablebase is not None and not board.is_game_over():
                    dtm_before = distance_note(board, tablebase, loaded.us)
            else:
                ended = event
                click.echo(f"Game over: {event.detail} ({event.result})")
    except (KeyboardInterrupt, OSError, AL0Error) as stop:
        # Ctrl-C (or SIGTERM, SIGHUP), a reader gone (``| head``), an
        # output with no room left or an opponent that died stops the game,
        # not its record: the moves so far are written, as verify writes
        # its partial report.
        if pgn_path:
            if ended is None:
                why = (
                    "output closed"
                    if isinstance(stop, BrokenPipeError)
                    else "stopped"
                    if isinstance(stop, KeyboardInterrupt)
                    else f"stopped ({one_line(stop)})"
                )
                ended = GameEnd(Ending.INTERRUPTED, f"{why} after {len(played)} plies")
            write_pgn(pgn_path, start, played, ended, match, opponent_name)
            if not isinstance(stop, BrokenPipeError):  # no one to tell
                click.echo(f"\nPGN of the game so far written to {pgn_path}", err=True)
        raise
    if pgn_path and ended is not None:
        write_pgn(pgn_path, start, played, ended, match, opponent_name)
        click.echo(f"PGN written to {pgn_path}")
