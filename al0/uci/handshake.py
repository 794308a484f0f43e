"""What the engine says before it is made: the answer to ``uci`` (its name
and options) and :func:`serve`, which gives that answer at once and makes
the engine (importing the tables, the tablebases and numpy) only when the
first other command comes. A GUI waits for ``uciok`` with a short timeout;
on a loaded machine those imports took seconds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from al0 import __version__

if TYPE_CHECKING:
    from al0.uci.go import Send
    from al0.uci.protocol import UciEngine

AUTO = "auto"
"""The Table option's value for the bundled table of the position's material."""
MAX_BUDGET = 1_000_000_000
"""The largest node budget the Budget option takes: far beyond any table's need."""
COMMANDS = frozenset(
    {
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "go",
        "stop",
        "ponderhit",
        "quit",
        "setoption",
        "debug",
        "register",
    }
)
"""The protocol's commands (a GUI → engine line starts with one, after
any unknown words, which the protocol says to skip)."""


def command_of(words: list[str]) -> int | None:
    """Where the line's command is among ``words``, None when it has none."""
    return next((at for at, word in enumerate(words) if word in COMMANDS), None)


def identify(budget: int, table_spec: str, rescue: bool) -> list[str]:
    """The answer to ``uci``: the engine's name, its options, ``uciok``."""
    return [
        f"id name al0 {__version__}",
        "id author al0",
        f"option name Budget type spin default {budget} min 1 max {MAX_BUDGET}",
        f"option name Table type string default {table_spec}",
        f"option name TablebaseRescue type check default {str(rescue).lower()}",
        "uciok",
    ]


def serve_handshake_first(
    lines: Iterable[str], send: Send, make: Callable[[], UciEngine], budget: int, table_spec: str
) -> None:
    """Answer every line until ``quit`` or the end of the input: ``uci``
    from :func:`identify` while no engine is needed, everything else by
    the engine ``make`` returns, made at the first other command."""
    engine: UciEngine | None = None
    for line in lines:
        if engine is None:
            words = line.split()
            at = command_of(words)
            command = None if at is None else words[at]
            if command == "uci":
                for answer in identify(budget, table_spec, True):
                    send(answer)
                continue
            if command == "quit":
                return
            engine = make()
        engine.handle(line)
        if engine.finished:
            return
    if engine is not None:
        engine.close()
