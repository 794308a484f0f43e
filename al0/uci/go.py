"""One ``go``: its limits as the GUI gives them (:func:`parse_go`), the
share of the clock a move may take, and the search's state between the
worker thread that thinks and the line reader that may stop it
(:class:`Search`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

import chess

from al0.integers import IntegerError, parse_int

Send = Callable[[str], None]
"""Where a line to the GUI goes."""

MOVES_TO_GO = 20
"""The moves a clock without ``movestogo`` is shared among."""
MARGIN = 0.05
"""Seconds kept back from each move's time for the pipe and the GUI."""
LONGEST_THINK = 7 * 24 * 3600.0
"""The most seconds one move is given, whatever the clock says: a week is
beyond any game, and a timer cannot wait much past 2**33 s (``wtime
10**18`` killed the clock's thread with an OverflowError)."""


@dataclass(frozen=True)
class Go:
    """What one ``go`` asks for."""

    seconds: float | None = None
    """The time to think: ``movetime``, or a share of our clock."""
    nodes: int | None = None
    """Most positions one search may visit."""
    depth: int | None = None
    """Plies of the short search."""
    mate: int | None = None
    """Look for a mate in this many moves first."""
    held: bool = False
    """``infinite`` or ``ponder``: the move waits for ``stop`` or ``ponderhit``."""


_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate")


def parse_go(args: list[str], turn: chess.Color) -> tuple[Go, list[str]]:
    """The ``go`` of these arguments for ``turn`` to move, and an ``info
    string`` for each part ignored (a value that is no whole number, an
    unknown word, ``searchmoves``)."""
    numbers: dict[str, int] = {}
    held = False
    notes: list[str] = []
    at = 0
    while at < len(args):
        word = args[at]
        at += 1
        if word in _NUMBERS:
            value = args[at] if at < len(args) else ""
            at += 1
            try:
                numbers[word] = parse_int(value, f"go {word}", minimum=None)
            except IntegerError as error:
                notes.append(f"info string ignored: {error}")
        elif word in ("infinite", "ponder"):
            held = True
        elif word == "searchmoves":
            while at < len(args) and args[at] not in _NUMBERS + ("infinite", "ponder"):
                at += 1
            notes.append("info string ignored searchmoves: every move is searched")
        else:
            notes.append(f"info string ignored go {word!r}")
    for name in ("depth", "nodes", "mate", "movetime"):
        if numbers.get(name, 1) < 1:
            notes.append(f"info string ignored go {name} {numbers.pop(name)}: use 1 or more")
    seconds = None
    if "movetime" in numbers:
        seconds = numbers["movetime"] / 1000
    else:
        left, increment = ("wtime", "winc") if turn == chess.WHITE else ("btime", "binc")
        if left in numbers:
            seconds = clock_share(
                numbers[left], numbers.get(increment, 0), numbers.get("movestogo", MOVES_TO_GO)
            )
    if seconds is not None:
        seconds = min(max(0.01, seconds - MARGIN), LONGEST_THINK)
    return Go(seconds, numbers.get("nodes"), numbers.get("depth"), numbers.get("mate"), held), notes


def clock_share(left_ms: int, increment_ms: int, moves_to_go: int) -> float:
    """Seconds for this move: the clock shared among the moves to go, plus
    half the increment, never more than half of what is left."""
    left, increment = max(left_ms, 0) / 1000, max(increment_ms, 0) / 1000
    return min(left / max(moves_to_go, 1) + increment / 2, left / 2)


class Search:
    """One ``go``: the worker's stop flag and the best move known so far.

    The ``bestmove`` goes out exactly once: from the worker when it is done,
    or on ``stop``, ``quit`` or the clock, whichever comes first; after it
    the worker's ``info`` lines are dropped. A ``held`` search
    (``infinite``, ``ponder``) keeps its move until ``stop`` or ``ponderhit``.

    Until the worker has a move of its own (:meth:`floor`: the tablebase's
    move, probed before the plan is searched), a ``stop`` or the clock does
    not answer the placeholder it was made with but waits for that move:
    loading a table and probing its tablebase take milliseconds once
    ``isready`` has loaded them, and the placeholder (the first legal move
    in UCI order) can throw a won game away.
    """

    def __init__(self, send: Send, held: bool, best: chess.Move | None):
        self.stop = threading.Event()
        """Set to end the worker's search early; the searches look at it."""
        self.best = best
        self.held = held
        self.done = False
        self.answered = False
        self.known = False
        """Whether the worker has given a move (else ``best`` is the placeholder)."""
        self.waiting = False
        """Whether an answer was asked for before a move was known."""
        self._lines: tuple[str, ...] = ()
        """The ``info`` lines of a floor move, sent only if it is the one played."""
        self._send = send
        self._lock = threading.Lock()
        self.worker: threading.Thread | None = None
        self.clock: threading.Timer | None = None

    def say(self, line: str) -> None:
        """An ``info`` line from the worker, unless the move has gone out."""
        with self._lock:
            if not self.answered:
                self._send(line)

    def floor(self, move: chess.Move, *lines: str) -> None:
        """The move to play if the search is cut before it finds one, with
        its ``info`` lines (its score), sent only if it is played."""
        with self._lock:
            self.best, self._lines, self.known = move, lines, True
            if self.waiting:
                self._answer()

    def improve(self, move: chess.Move, *lines: str) -> None:
        """A better move is known, the one ``stop`` will answer, with the
        ``info`` lines about it: sent together, so a ``bestmove`` never
        goes out between a line and its move."""
        with self._lock:
            self.best, self._lines, self.known = move, (), True
            if not self.answered:
                for line in lines:
                    self._send(line)
            if self.waiting:
                self._answer()

    def finish(self, move: chess.Move | None) -> None:
        """The worker is done (``move`` None: it keeps the best known)."""
        with self._lock:
            if move is not None and move != self.best:
                self.best, self._lines = move, ()
            self.done = True
            if not self.held:
                self._answer()

    def expire(self) -> None:
        """The move's time is up: answer now (once a move is known), unless held."""
        self.stop.set()
        with self._lock:
            if not self.held:
                self._answer_when_known()

    def halt(self) -> None:
        """``stop`` or ``quit``: answer now (once a move is known)."""
        self.stop.set()
        with self._lock:
            self.held = False
            self._answer_when_known()

    def ponderhit(self) -> None:
        """The GUI played the move we pondered on: the search is ours now."""
        with self._lock:
            self.held = False
            if self.done:
                self._answer()

    def wait(self) -> None:
        """Until the worker has ended."""
        if self.worker is not None:
            self.worker.join()

    def _answer_when_known(self) -> None:
        if self.known or self.done:
            self._answer()
        else:
            self.waiting = True

    def _answer(self) -> None:
        if not self.answered:
            for line in self._lines:
                self._send(line)
            self._send(f"bestmove {self.best.uci() if self.best else '(none)'}")
            self.answered = True
