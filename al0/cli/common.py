"""What every command module of the CLI shares: the ``al0`` group, the
options several commands take (defined once here), the parameter types that
parse a spec once, and errors as one line with exit code 2."""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import re
import shlex
import signal
import sys
import threading
import warnings
from types import FrameType
from typing import Any, Callable, Iterable, Iterator, TextIO

import click

import chess

from al0.lang import AdviceTable, DefenderError, DefenderKind, DefenderSpec, PositionsSpec
from al0.errors import AL0Error, PositionError
from al0.integers import IntegerError, parse_int, shown
from al0.engine.plan import DEFAULT_BUDGET
from al0.board.fen import check_not_over, check_playable, parse_fen
from al0.files import check_writable, same_file, write_atomically


LONGEST_ERROR = 1000
"""Most characters of an error line: one that quotes a 3 MB ``start:`` or
EPD line (python-chess's message quotes it again) is cut to this."""


def one_line(message: str) -> str:
    """``message`` with its line ends written as ``\\n``: an error stays one
    line whatever a path or value in it holds."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def shown_path(path: str) -> str:
    """A path as an error shows it: as written, or quoted (``repr``) when it
    holds a line end or another character that does not print."""
    return path if path.isprintable() else repr(path)


def error_line(message: str) -> str:
    """``message`` as an error line: one line (:func:`one_line`) of at most
    :data:`LONGEST_ERROR` characters. A longer one is cut in the middle,
    saying so, since a message names its file or option first and what is
    wrong last (``term 1 '<30,000 characters>':1: a '(' is never closed``)."""
    message = one_line(message)
    if len(message) <= LONGEST_ERROR:
        return message
    kept = LONGEST_ERROR - 50
    return (f"{message[:kept // 2]} … ({len(message) - kept:,} characters cut) … "
            f"{message[-(kept - kept // 2):]}")


class CommandError(click.ClickException):
    """A user-facing failure: one line on stderr, exit code 2 (see
    :func:`error_line`)."""
    exit_code = 2

    def __init__(self, message: str):
        super().__init__(error_line(message))


@contextlib.contextmanager
def _one_line_usage() -> Iterator[None]:
    """A usage error without click's usage block and help hint: the error
    alone, one line, exit code 2 (the usage is one ``--help`` away).

    A group given no command (bare ``al0``) is click's ``NoArgsIsHelpError``,
    a usage error whose message is the help: it keeps its context, which it
    needs to print (click's convention: the help on stderr, exit code 2).
    """
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.UsageError as error:
        error.ctx = None  # what makes click print the usage and the hint
        # One short line whatever a value in it holds (click types the field final).
        setattr(error, "message", error_line(error.message))
        raise


def _warning_line(message: Warning | str, category: type[Warning], filename: str,
                  lineno: int, file: TextIO | None = None, line: str | None = None) -> None:
    """Show a warning (e.g. a tablebase cache that cannot be written) as one
    line for a person, not Python's ``file:line: Category`` and source line."""
    click.echo(f"warning: {message}", err=True)


TERMINATING = (signal.SIGTERM, signal.SIGHUP)
"""What ``timeout``, CI cancellation, systemd and a dropped ssh session
send: a request to stop, taken as Ctrl-C is."""


class Terminated(KeyboardInterrupt):
    """A signal of :data:`TERMINATING`, raised where Ctrl-C raises
    ``KeyboardInterrupt`` so that a command stops the same way (``verify``
    writes what it has); ``signal_number`` says which."""

    def __init__(self, signal_number: int):
        super().__init__(signal.Signals(signal_number).name)
        self.signal_number = signal_number


def _terminate(signal_number: int, frame: FrameType | None) -> None:
    raise Terminated(signal_number)


@contextlib.contextmanager
def terminating_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`Terminated`
    (a ``KeyboardInterrupt``); the handlers before are put back after. Only
    the main thread may set handlers: elsewhere (a test runner's thread)
    the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, _terminate) for number in TERMINATING}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def exit_interrupted(interrupt: KeyboardInterrupt) -> click.exceptions.Exit:
    """The exit of a command stopped by ``interrupt``, after one line on
    stderr: 128 + the signal's number, as a shell reports a process that a
    signal ended (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP)."""
    number = interrupt.signal_number if isinstance(interrupt, Terminated) else signal.SIGINT
    name = "" if number == signal.SIGINT else f" ({signal.Signals(number).name})"
    click.echo(f"\nAborted{name}!", err=True)
    return click.exceptions.Exit(128 + number)


BROKEN_PIPE = 128 + signal.SIGPIPE
"""The exit code of a command whose reader went away (``al0 … | head``):
what a shell reports for a process that SIGPIPE ended (141)."""

_STREAMS = ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w"))


def open_closed_streams() -> None:
    """Give a standard stream that was closed when al0 started (``2>&-``, a
    daemon) the null device, as its descriptor and as ``sys``'s stream:
    Python leaves ``sys.stderr`` None then (a command's first message would
    raise, unseen, exit 1), and the first file al0 opened would take the
    free descriptor and receive what is meant for the stream."""
    for number, name, mode in _STREAMS:
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(number)
            taken = True  # something opened since start holds the number
        except OSError:
            taken = False
        if not taken:
            null = os.open(os.devnull, os.O_RDWR)
            if null != number:
                os.dup2(null, number)
                os.close(null)
            setattr(sys, name, open(number, mode, closefd=False))  # noqa: SIM115 (for the process's life)
        else:
            setattr(sys, name, open(os.devnull, mode))  # noqa: SIM115


def silence_output() -> None:
    """Send whatever is still written to standard output and error (a
    buffer flushed at exit included) to the null device: after a broken
    pipe a command writes nothing more."""
    for number, name, mode in _STREAMS[1:]:
        stream = getattr(sys, name)
        try:
            fileno = stream.fileno()
        except (AttributeError, OSError, ValueError):  # a test runner's buffer
            fileno = -1
        if fileno == number:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, number)
            os.close(null)
        else:
            setattr(sys, name, open(os.devnull, mode))  # noqa: SIM115


@contextlib.contextmanager
def _broken_pipe_exits() -> Iterator[None]:
    """A broken pipe in the block (the reader went away: ``al0 … | head``)
    ends the command with :data:`BROKEN_PIPE` and nothing more written: what
    was asked is cut short, not failed, and there is no one to tell (click
    would exit 1, verify's code for a failed expectation)."""
    try:
        yield
    except BrokenPipeError:
        silence_output()
        raise click.exceptions.Exit(BROKEN_PIPE) from None


class Al0Group(click.Group):
    """The ``al0`` group: every usage error is one line, every warning is
    one line, and SIGTERM and SIGHUP stop a command as Ctrl-C does, with
    exit code 128 + the signal's number, for every subcommand; a broken
    pipe ends it with 141 and nothing more written (its help too); a
    closed standard stream is the null device.

    A command named in :attr:`lazy` is imported when it is run (or listed
    by ``--help``), not when ``al0`` starts: ``al0 uci`` answers a GUI's
    ``uci`` without first importing verify, the tablebases and numpy for
    the other commands (half a second quiet, seconds on a loaded machine).
    """

    lazy: dict[str, str] = {}
    """Command name → ``module:attribute`` of its click command."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        open_closed_streams()
        return super().main(*args, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in self.lazy:
            return super().get_command(ctx, cmd_name)
        module, attribute = self.lazy[cmd_name].split(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command), self.lazy[cmd_name]
        return command

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        with _broken_pipe_exits(), _one_line_usage():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _broken_pipe_exits(), _one_line_usage(), warnings.catch_warnings(), \
                terminating_as_interrupt():
            # catch_warnings restores the usual display when the command ends.
            warnings.showwarning = _warning_line
            try:
                return super().invoke(ctx)
            except KeyboardInterrupt as interrupt:
                raise exit_interrupted(interrupt) from None


def reports_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn every :class:`AL0Error` into a one-line message and exit code 2.

    A ``SystemExit`` that reaches here came from library code (a predicate
    calling ``sys.exit()``; al0's own commands exit through click): it is
    reported too, or the game would stop without a word and exit 0.
    """
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except AL0Error as error:
            # One line, whatever the error text holds (a FEN, a library's message).
            raise CommandError(" ".join(str(error).split())) from None
        except SystemExit as error:
            raise CommandError(f"library code called sys.exit({error.code!r}): a predicate "
                               f"or generator must return, not exit") from None
    return wrapper


STDOUT = "-"
"""The output path that means standard output."""


class OutputPath(click.ParamType[str]):
    """A file an option writes, checked when the command line is read, so
    that a typo does not lose a long run: a folder (or a name ending in
    ``/``) and a file that cannot be written are refused; ``-`` means
    standard output where the command can write there (``stdout``) and is
    refused where it cannot. See :func:`check_no_overwrite` for the checks
    between paths."""

    name = "file"

    def __init__(self, what: str, stdout: bool):
        self.what = what
        self.stdout = stdout

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        path = str(value)
        if path == STDOUT:
            if not self.stdout:
                self.fail(f"{self.what} cannot go to standard output (-) here: give a file",
                          param, ctx)
            return path
        if path.endswith("/") or os.path.isdir(path):
            self.fail(f"{path!r} is a folder: give a file for {self.what}", param, ctx)
        try:
            check_writable(path)
        except OSError as error:
            self.fail(f"{shown_path(path)}: cannot write {self.what}: {error.strerror}",
                      param, ctx)
        return path


def check_no_overwrite(inputs: dict[str, str | None], outputs: dict[str, str | None]) -> None:
    """Refuse, before any work, an output that would overwrite an input or
    another output (the same file under any name: :func:`~al0.files.same_file`),
    and more than one output on standard output. The keys name each path in
    the message (``TABLE``, ``--json``); None is a path not given.

    :raises click.UsageError: naming both options and the path.
    """
    given = {name: path for name, path in outputs.items() if path is not None}
    to_stdout = [name for name, path in given.items() if path == STDOUT]
    if len(to_stdout) > 1:
        raise click.UsageError(f"{' and '.join(to_stdout)} "
                               f"{'both' if len(to_stdout) == 2 else 'all'} write to standard "
                               f"output (-): give a file to all but one")
    seen = [(name, path) for name, path in inputs.items() if path is not None]
    for name, path in given.items():
        if path == STDOUT:
            continue
        for other, earlier in seen:
            if same_file(path, earlier):
                same = "" if path == earlier else f" ({shown_path(earlier)})"
                raise click.UsageError(f"{name} {shown_path(path)} would overwrite {other}{same}: "
                                       f"give another file")
        seen.append((name, path))


def typed_line(question: str) -> str | None:
    """Ask ``question`` and return the line a person types on standard
    input, stripped; None at the end of input. A line that is not text in
    standard input's encoding is refused with a note and asked again (it
    is read as bytes and decoded here: a strict text stream would raise)."""
    stdin = sys.stdin
    raw = getattr(stdin, "buffer", None)
    encoding = getattr(stdin, "encoding", None) or "utf-8"
    while True:
        click.echo(question, nl=False)
        line = raw.readline() if raw is not None else stdin.readline()
        if not line:
            click.echo()
            return None
        if isinstance(line, bytes):
            try:
                line = line.decode(encoding)
            except UnicodeDecodeError:
                click.echo(f"that line is not {encoding} text: type a move such as Kb2")
                continue
        return str(line).strip()


def build_progress() -> Callable[[str], None] | None:
    """Where a tablebase build tells how it goes: standard error on a
    terminal (as ``al0 tablebase`` shows it), nowhere in a pipe or a log."""
    if not sys.stderr.isatty():
        return None
    return lambda message: click.echo(message, err=True)


def prepare_tablebase(material: str, say: Callable[[str], None] | None) -> None:
    """Build the tablebase of ``material`` now, telling ``say`` how it goes,
    when there is one for it and it is not cached yet: a command that uses
    it would otherwise build it in silence (5 to 40 s for a four-man ending,
    once). Nothing without ``say``: the command builds it as before."""
    from al0 import tablebase  # lazily: numpy
    if say is None:
        return
    try:
        path = tablebase.cache_path(material)
    except PositionError:  # no tablebase for this material
        return
    if path.exists():
        return
    say(f"building the {tablebase.parse_material(material).name} tablebase, once: "
        f"it is kept in {path.parent}")
    tablebase.load(material, progress=say)


def write_output(path: str, text: str, what: str, keep: Iterable[str | None] = ()) -> None:
    """Write an output atomically (standard output for ``-``), or fail with
    a one-line error; never over a file of ``keep`` (the run's inputs: the
    path may have become a link to one since :func:`check_no_overwrite`)."""
    if path == STDOUT:
        click.echo(text, nl=False)
        return
    try:
        write_atomically(path, text.encode("utf-8"), keep)
    except OSError as error:
        raise CommandError(f"{shown_path(path)}: cannot write {what}: {error.strerror}") from None


class DefenderParam(click.ParamType[DefenderSpec]):
    """A defender spec on the command line, parsed once into a
    :class:`DefenderSpec` of one of the ``allowed`` kinds."""

    name = "defender"

    def __init__(self, allowed: tuple[DefenderKind, ...]):
        self.allowed = allowed

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> DefenderSpec:
        if isinstance(value, DefenderSpec):
            return value
        try:
            return DefenderSpec.parse(str(value), self.allowed)
        except DefenderError as error:
            self.fail(str(error), param, ctx)


class WholeNumber(click.ParamType[int]):
    """A whole number on the command line, read by the one parser of
    numbers (:func:`al0.integers.parse_int`): ASCII digits only (click's
    ``int`` takes ``٣`` and ``1_000``), at most 18 of them, from
    ``minimum`` to ``maximum`` (None: unbounded)."""

    name = "integer"

    def __init__(self, minimum: int | None = 0, maximum: int | None = None):
        self.minimum, self.maximum = minimum, maximum

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int):  # a default
            return value
        try:
            return parse_int(str(value), "it", self.minimum, self.maximum)
        except IntegerError as error:
            self.fail(str(error), param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        low = "" if self.minimum is None else f"{self.minimum}<="
        high = "" if self.maximum is None else f"<={self.maximum}"
        return f"INTEGER {low}x{high}" if low or high else "INTEGER"


class Decimal(click.ParamType[float]):
    """A decimal number on the command line (``0.05``, ``-2``, ``.5``),
    finite and from ``minimum`` to ``maximum``: click's ``float`` takes
    ``inf``, ``nan`` and ``1e999``, which a UCI engine's clock turned into an
    asyncio traceback and a run that never ends."""

    name = "number"
    TEXT = re.compile(r"-?(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")
    """ASCII digits, at most nine each side of the point: no exponent, no
    ``inf`` or ``nan``, nothing ``float()`` reads beyond what a person writes."""

    def __init__(self, minimum: float, maximum: float, unit: str = ""):
        self.minimum, self.maximum, self.unit = minimum, maximum, unit

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)):  # a default
            return float(value)
        text = str(value).strip(" \t\r\n")
        if not self.TEXT.fullmatch(text):
            self.fail(f"it must be a decimal number such as 0.05, not {shown(str(value))}",
                      param, ctx)
        number = float(text)
        if not self.minimum <= number <= self.maximum:
            self.fail(f"it must be from {self.minimum:g} to {self.maximum:g}{self.unit}, "
                      f"not {text}", param, ctx)
        return number

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return f"{self.minimum:g}..{self.maximum:g}"


MAX_ENGINE_SECONDS = 3600.0
"""The longest a UCI engine may think per move: an hour, far beyond any
use, and a bound on how long a run can wait for one move."""

ENGINE_SECONDS = Decimal(0.001, MAX_ENGINE_SECONDS, " s")
"""The type of every option that gives an engine's seconds per move."""


class MaterialParam(click.ParamType[str]):
    """A pawnless material of at most four men (``KRK``, ``kbnk``, ``KNKR``),
    checked once and given as its canonical name (``KRKN``: the stronger side
    first)."""

    name = "material"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        from al0.tablebase import parse_material  # lazily: numpy
        try:
            return parse_material(str(value).upper()).name
        except PositionError as error:
            self.fail(str(error), param, ctx)


class PositionsParam(click.ParamType[PositionsSpec]):
    """``all``, ``every``, ``sample:N`` (N >= 1) or ``FILE.epd`` on the
    command line, parsed once into a :class:`~al0.lang.specs.PositionsSpec`."""

    name = "positions"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> PositionsSpec:
        if isinstance(value, PositionsSpec):
            return value
        text = str(value)
        try:
            spec = PositionsSpec.parse(text)
        except PositionError as error:
            self.fail(str(error), param, ctx)
        if spec.path is not None and not os.path.lexists(spec.path):
            # A typo (ALL, sample 500, sampel:5) is no file either: say what is taken.
            self.fail(f"{shown(text)} is no file: give all, every, sample:N or an EPD file",
                      param, ctx)
        return spec


def command_line(context: click.Context) -> str:
    """The command that ``context`` runs, every parameter spelled out, so a
    report can say how to reproduce it."""
    words = context.command_path.split()
    for param in context.command.params:
        value = context.params.get(param.name or "")
        if isinstance(param, click.Argument):
            words.append(str(value))
        elif isinstance(param, click.Option) and value not in (None, False, ()):
            option = max(param.opts, key=len)
            words += [option] if param.is_flag else [option, str(value)]
    return shlex.join(words)


def _print_version(context: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``: al0's version and which search core runs (and why)."""
    if not value or context.resilient_parsing:
        return
    from importlib.metadata import version

    from al0.core import status
    click.echo(f"al0, version {version('al0')}")
    try:
        click.echo(f"core: {status()}")
    except AL0Error as error:  # AL0_CORE names no core
        raise CommandError(str(error)) from None
    context.exit()


@click.group(cls=Al0Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show the version and the search core, and exit.")
def cli() -> None:
    """al0 — play chess endgames from advice tables (Advice Language 0).

    An advice table (YAML) lists rules, pieces of advice, goals and move
    constraints; al0 builds forcing trees from it and plays, explains and
    checks the strategy. TABLE is a bundled table's name (al0 tables lists
    them) or a YAML file. Start with:

    \b
      al0 play krk              watch the KRK table mate the tablebase's defence
      al0 practice krk          play it yourself, with the table's hints
      al0 check kqk             what a table says, rule by rule

    \b
    Exit codes (every command):
      0  done: the command ran and every expectation held
      1  an expectation failed (verify: the table's expect: block)
      2  bad input or an error: a one-line message on stderr; verify
         stopped early (Ctrl-C, SIGTERM, SIGHUP) after writing its report
      128+N  stopped by signal N: 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP,
         141 the reader of its output went away (al0 ... | head)
    """


TABLE = click.argument("table", type=click.Path(dir_okay=False))
BUDGET = click.option("--budget", type=WholeNumber(minimum=1), default=DEFAULT_BUDGET,
                      show_default=True, metavar="NODES",
                      help="Most nodes one forcing-tree search may evaluate.")


def position_for(table: AdviceTable, fen: str) -> chess.Board:
    """The board of ``fen``, checked against the table's material (and to
    have no castling rights, which the search does not play)."""
    board = parse_fen(fen)
    check_playable(board, table.material, table.us)
    return board


def start_board(table: AdviceTable, name: str, fen: str | None) -> chess.Board:
    """Where a game of ``table`` (given as ``name``) starts: ``fen`` when
    given, else the table's ``start:``, checked as :func:`position_for` does.

    :raises click.UsageError: when neither is there.
    """
    if fen is None:
        if table.start_fen is None:
            raise click.UsageError(f"{name} has no start position: give one with --fen, "
                                   "or add a start: line (a FEN) to the table")
        fen = table.start_fen
    return position_for(table, fen)


def plannable(table: AdviceTable, board: chess.Board) -> chess.Board:
    """``board``, checked to be one the table can plan at.

    Every position is checked before any is planned, so a bad one late in an
    EPD file fails at once rather than after the others' output.

    :raises PositionError: when it is not the table's side to move or the
        game is over (:func:`~al0.board.fen.check_not_over`).
    """
    if board.turn != table.us:
        raise PositionError(f"{board.fen()!r}: it is not the table's side to move")
    check_not_over(board)
    return board
