"""What a person at a terminal types and sees outside a command's own
output: a typed line, and a tablebase build's progress."""

from __future__ import annotations

import sys
from typing import Callable

import click

from al0.board import Material
from al0.engine import Tablebases
from al0.errors import PositionError

LONGEST_TYPED = 10_000
"""Most characters of a line read as typed (a move or a command is a few):
a stream with no line end (``< /dev/zero``) was read whole into memory
until the system killed the process; a longer line ends the input."""


def typed_line(question: str) -> str | None:
    """Ask ``question`` and return the line a person types on standard
    input, stripped; None at the end of input. A line that is not text in
    standard input's encoding is refused with a note and asked again (it
    is read as bytes and decoded here: a strict text stream would raise)."""
    stdin = sys.stdin
    raw = getattr(stdin, "buffer", None)
    encoding = getattr(stdin, "encoding", None) or "utf-8"
    editing = _line_editing(stdin)
    while True:
        if editing:
            try:  # readline's: the arrow keys edit the line and recall earlier ones
                line: str | bytes = input(question)
            except EOFError:
                click.echo()
                return None
            except UnicodeDecodeError:
                click.echo(f"that line is not {encoding} text: type a move such as Kb2")
                continue
        else:
            click.echo(question, nl=False)
            line = raw.readline(LONGEST_TYPED + 1) if raw is not None else stdin.readline(LONGEST_TYPED + 1)
            if len(line) > LONGEST_TYPED:
                click.echo(
                    f"\na line of more than {LONGEST_TYPED:,} characters is not typed: the input ends here"
                )
                return None
            if not line:
                click.echo()
                return None
        if isinstance(line, bytes):
            try:
                line = line.decode(encoding)
            except UnicodeDecodeError:
                click.echo(f"that line is not {encoding} text: type a move such as Kb2")
                continue
        if "\x1b" in line:
            # A terminal's key codes (the Up arrow is ESC [ A) where no line editing reads them.
            click.echo("that line holds a key's codes (an arrow key?), not a move: type a move such as Kb2")
            continue
        return str(line).strip()


def _line_editing(stdin: object) -> bool:
    """Whether a person types at a terminal where Python's ``readline`` can
    give the prompt line editing and history (imported here, once: on a
    system without it, and in a pipe, lines are read as they come)."""
    if not (hasattr(stdin, "isatty") and stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        import readline  # noqa: F401  (importing it is what turns editing on for input())
    except ImportError:
        return False
    return True


def build_progress() -> Callable[[str], None] | None:
    """Where a tablebase build tells how it goes: standard error on a
    terminal (as ``al0 tablebase`` shows it), nowhere in a pipe or a log."""
    if not sys.stderr.isatty():
        return None
    return lambda message: click.echo(message, err=True)


def prepare_tablebase(material: Material, say: Callable[[str], None] | None) -> None:
    """Build the tablebase of ``material`` now, telling ``say`` how it goes,
    when there is one for it and it is not cached yet: a command that uses
    it would otherwise build it in silence, once: a second or two for a
    four-man ending on the native core, some 6 to 10 s on the Python twin
    (docs/tablebase.md). Nothing without ``say``: the command builds it as
    before."""
    from al0 import tablebase  # lazily: numpy

    if say is None:
        return
    try:
        path = tablebase.cache_path(material.name)
    except PositionError:  # no tablebase for this material
        return
    if not path.exists():
        Tablebases(say).get(material)  # says it builds, and how it goes
