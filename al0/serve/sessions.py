"""The practice games of ``al0 serve`` kept between requests, and the
progress record their exercises count in: an exercise counts once, when
the page leaves it, when the session cap drops it, or when the server
stops with it open (the student's work is never dropped uncounted)."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from al0.errors import AL0Error
from al0.serve.api import ApiError
from al0.serve.tables import Served
from al0.teach import Practice, add_attempt, now_ms, read_record, record_lines

MAX_SESSIONS = 64
"""Practice sessions kept; the oldest is counted and dropped beyond (a page
left open for days does not keep every game it ever started)."""


@dataclass
class Session:
    """One practice game of the page, the table it practises, and the lock
    its requests take in turn."""

    game: Practice
    served: Served
    lock: threading.Lock = field(default_factory=threading.Lock)
    left: bool = False
    """Counted in the progress record already (the page left it)."""


class Sessions:
    """The sessions by key (a random token the page holds), and the
    progress ``record`` (``al0 practice``'s; None: none kept), whose review
    queue is kept by ``clock`` (ms: the wall clock unless a test states one)."""

    def __init__(self, record: Path | None = None, clock: Callable[[], int] = now_ms):
        self.record = record
        self.clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self._record_lock = threading.Lock()
        """One read-and-write of the record at a time (the file's own lock
        is per process)."""

    def add(self, session: Session) -> str:
        """Keep ``session``, under a new key; the oldest beyond
        :data:`MAX_SESSIONS` are dropped, each counted first.

        :raises AL0Error: a dropped exercise the record cannot take.
        """
        key = secrets.token_urlsafe(12)
        with self._lock:
            self._sessions[key] = session
            dropped = [self._sessions.popitem(last=False) for _ in range(len(self._sessions) - MAX_SESSIONS)]
        for at, (_, old) in enumerate(dropped):
            try:
                self.leave(old)
            except AL0Error:
                # Not counted: the sessions not yet counted are kept as
                # they were (oldest first, counted when left or when the
                # server stops), and the new one is not started.
                with self._lock:
                    del self._sessions[key]
                    for kept_key, kept in reversed(dropped[at:]):
                        self._sessions[kept_key] = kept
                        self._sessions.move_to_end(kept_key, last=False)
                raise
        return key

    def get(self, key: str) -> Session:
        """The session of ``key``; 404 when there is none (or it was dropped)."""
        with self._lock:
            session = self._sessions.get(key)
        if session is None:
            raise ApiError(404, "no such practice session (it may have been dropped): start a new one")
        return session

    def leave(self, session: Session) -> bool:
        """Count ``session``'s exercise in the record, as ``al0 practice``
        counts one left, unless it was counted already or no move of it got
        a verdict; whether it was counted now. Left only once counted: an
        exercise the record could not take is counted by the next leave (or
        when the server stops), not lost.

        :raises AL0Error: the record could not take the exercise.
        """
        with session.lock:
            game = session.game
            counted = not session.left and self.record is not None and sum(game.given.values()) > 0
            if counted and self.record is not None:
                with self._record_lock:
                    add_attempt(self.record, game.attempt(session.served.material.name), self.clock())
            session.left = True
        return counted

    def close(self) -> None:
        """Count every exercise still open (the server stops): the page
        cannot say it left them.

        :raises AL0Error: the first exercise the record could not take.
        """
        with self._lock:
            open_ones = list(self._sessions.values())
        failed: AL0Error | None = None
        for session in open_ones:
            try:
                self.leave(session)
            except AL0Error as error:  # the others are counted all the same
                failed = failed or error
        if failed is not None:
            raise failed

    def progress(self) -> list[str]:
        """The progress record, one line an ending."""
        if self.record is None:
            return ["no progress record is kept by this server"]
        with self._record_lock:
            return record_lines(read_record(self.record), self.clock())
