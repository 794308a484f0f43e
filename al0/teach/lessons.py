"""Lessons: a catalogue per ending, each lesson a band of positions drawn
from the tablebase (a :class:`~al0.teach.exercises.Level`) and a goal a
coach states before the first move ("Mate in at most 5 moves", "Win the
rook") and the tablebase judges at the end, as lichess Practice does."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from al0.errors import PositionError
from al0.teach.exercises import Level
from al0.teach.verdict import moves_text

if TYPE_CHECKING:
    from al0.teach.session import Practice


class Goal(enum.Enum):
    """What a lesson asks of the student."""

    MATE = "mate"
    """Mate within the lesson's limit."""
    WIN_ROOK = "win the rook"
    """Take the defender's rook (or mate) within the limit, keeping the win."""
    HOLD = "hold the draw"
    """Defend a draw (a table that holds) to the game's end: 50 moves, or a
    draw by the rules; the level counts the moves that keep the draw."""


@dataclass(frozen=True)
class Lesson:
    """One lesson: ``name`` (typed after ``--lesson``), the ending, the
    bundled table that advises (None: the tablebase alone), a title, the
    level band its positions are drawn from, the goal and the moves the
    goal allows beyond the tablebase's optimum (``slack``)."""

    name: str
    material: str
    table: str | None
    title: str
    level: Level
    goal: Goal = Goal.MATE
    slack: int = 0

    def limit(self, optimal: int) -> int:
        """The most moves the goal allows from a start the tablebase mates in ``optimal``."""
        return optimal + self.slack

    def goal_text(self, optimal: int) -> str:
        """The goal in a coach's words, for a start mating in ``optimal``."""
        limit = self.limit(optimal)
        if self.goal is Goal.HOLD:
            return f"Hold the draw for {moves_text(limit)}: every move must keep it."
        if self.goal is Goal.WIN_ROOK:
            return f"Win the rook, keeping the win: take it (or mate) within {moves_text(limit)}."
        return f"Mate in at most {moves_text(limit)}."

    def summary(self) -> str:
        """The goal as the catalogue lists it, before a position is drawn."""
        if self.goal is Goal.HOLD:
            keep = "moves keep" if self.level.hi > 1 else "move keeps"
            return f"hold the draw for 50 moves; from positions where {self.level} {keep} it and the rook cannot be taken"
        what = "win the rook (or mate)" if self.goal is Goal.WIN_ROOK else "mate"
        spare = f" + {self.slack}" if self.slack else ""
        band = f"{self.level} move{'s' * (self.level.hi > 1)}"
        return f"{what} in at most the fastest mate's moves{spare}; from positions mating in {band}"


def _mates(material: str, table: str | None, short: Level, long: Level, slack: int) -> tuple[Lesson, ...]:
    """An ending's three mating lessons: mate in one, short mates at par,
    the whole way with ``slack`` moves to spare."""
    stem = material.lower()
    return (
        Lesson(f"{stem}-1", material, table, "Mate in one", Level(1, 1)),
        Lesson(f"{stem}-2", material, table, "Short mates", short),
        Lesson(f"{stem}-3", material, table, "The whole way", long, slack=slack),
    )


CATALOGUE: tuple[Lesson, ...] = (
    *_mates("KQK", "kqk", Level(2, 4), Level(5, 10), 2),
    *_mates("KRK", "krk", Level(2, 5), Level(6, 16), 3),
    *_mates("KBBK", "kbbk", Level(2, 6), Level(7, 19), 4),
    *_mates("KBNK", "kbnk", Level(2, 8), Level(9, 33), 6),
    *_mates("KQKB", "kqkb", Level(2, 6), Level(7, 17), 4),
    *_mates("KQKN", "kqkn", Level(2, 6), Level(7, 21), 4),
    Lesson("kpk-1", "KPK", "kpk", "Promote and mate", Level(2, 8), slack=2),
    Lesson("kpk-2", "KPK", "kpk", "Key squares and the opposition", Level(9, 28), slack=6),
    Lesson("kqkr-1", "KQKR", None, "Mate in one", Level(1, 1)),
    Lesson("kqkr-2", "KQKR", None, "Win the rook", Level(2, 10), Goal.WIN_ROOK),
    Lesson("kqkr-3", "KQKR", None, "Against the longest defence", Level(11, 35), slack=5),
    Lesson("kbkr-1", "KBKR", "krkb_hold", "Hold the draw: the only move", Level(1, 1), Goal.HOLD),
    Lesson("kbkr-2", "KBKR", "krkb_hold", "Hold the draw", Level(1, 4), Goal.HOLD),
    Lesson("knkr-1", "KNKR", "krkn_hold", "Hold the draw: the only move", Level(1, 1), Goal.HOLD),
    Lesson("knkr-2", "KNKR", "krkn_hold", "Hold the draw", Level(1, 4), Goal.HOLD),
    Lesson("kkp-1", "KKP", "kpk_hold", "Hold the draw: the only move", Level(1, 1), Goal.HOLD),
    Lesson("kkp-2", "KKP", "kpk_hold", "Hold the draw", Level(1, 4), Goal.HOLD),
)
"""Every lesson: the tablebase's KQK, KRK, KBBK and KQKR and each bundled
table's ending (a table advises where the ending has one; KPK's mate comes
after the promotion, the game going on with the queen's table; KQKR's table
does not yet win where the rook stays beside its king, so the tablebase
alone advises there), the holding tables' too: the student defends, from
positions where one move (or up to four) keeps the draw."""

ADVISORS = {lesson.material: lesson.table for lesson in CATALOGUE}
"""Each ending's advising bundled table (None: the tablebase alone)."""


def find_lesson(name: str) -> Lesson:
    """The lesson called ``name`` (any case).

    :raises PositionError: no lesson is called so, naming the catalogue.
    """
    for lesson in CATALOGUE:
        if lesson.name == name.lower():
            return lesson
    names = ", ".join(lesson.name for lesson in CATALOGUE)
    raise PositionError(f"{name!r} is not a lesson: the lessons are {names} (al0 practice --lessons)")


def goal_moves(goal: Goal, game: Practice) -> int | None:
    """After how many of the student's moves ``game`` reached ``goal``
    (None: not reached): the mate's, or for :attr:`Goal.WIN_ROOK` the
    move that left the defender without a rook (else a mate), provided
    the game did not then end otherwise than in our mate."""
    mated = game.moves_played if game.solved() else None
    if goal in (Goal.MATE, Goal.HOLD) or (game.ending() is not None and mated is None):
        return mated
    board = game.start.copy()
    for number, turn in enumerate(game.turns, 1):
        board.push(turn.move)
        if not board.pieces(chess.ROOK, not game.us):
            return number
        if turn.reply is not None:
            board.push(turn.reply)
    return mated


def goal_met(limit: int, moves: int | None) -> bool:
    """Whether a goal reached after ``moves`` (None: not reached) meets ``limit``."""
    return moves is not None and moves <= limit


def outcome_text(goal: Goal, limit: int, moves: int | None) -> str:
    """The coach's word on the goal at the lesson's end."""
    if goal is Goal.HOLD:
        if moves is None:
            return "Goal not met: the draw was not held to the game's end."
        return f"Goal met: you held the draw ({moves_text(moves)})."
    reached = "mated" if goal is Goal.MATE else "won the rook"
    if moves is None:
        not_yet = "no mate" if goal is Goal.MATE else "the rook not won"
        return f"Goal not met: {not_yet} (the goal: within {moves_text(limit)})."
    if moves <= limit:
        return f"Goal met: you {reached} in {moves_text(moves)} (at most {limit})."
    return f"Goal not met: you {reached} in {moves_text(moves)}, the goal was at most {limit}."


def lessons_of(material: str | None) -> list[Lesson]:
    """The catalogue, or its lessons of ``material`` (``KRK``; any case)."""
    return [lesson for lesson in CATALOGUE if material is None or lesson.material == material.upper()]


def catalogue_rows(material: str | None = None) -> list[dict[str, object]]:
    """The catalogue (``material``'s lessons, given one) as plain data (``--lessons --json``)."""
    return [
        {
            "name": lesson.name,
            "material": lesson.material,
            "table": lesson.table,
            "title": lesson.title,
            "level": str(lesson.level),
            "goal": lesson.goal.value,
            "slack": lesson.slack,
            "summary": lesson.summary(),
        }
        for lesson in lessons_of(material)
    ]


def catalogue_lines(material: str | None = None) -> list[str]:
    """The catalogue (``material``'s lessons, given one) as text, one line
    a lesson under its ending."""
    lines: list[str] = []
    ending = None
    for lesson in lessons_of(material):
        if lesson.material != ending:
            ending = lesson.material
            advisor = f"the {lesson.table} table advises" if lesson.table else "the tablebase alone"
            lines.append(f"{ending} ({advisor}):")
        lines.append(f"  {lesson.name:8} {lesson.title}: {lesson.summary()}")
    return lines or [f"no lessons for {material}: the catalogue has {', '.join(ADVISORS)}"]
