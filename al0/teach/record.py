"""The student's progress record: a small JSON file in the platform's data
folder for al0 (``$AL0_DATA_DIR`` overrides it, as the tests do), counting
exercises tried and solved, moves over the optimum and hints, by ending,
and a review queue: the positions the student missed, brought back after
spaced intervals. The clock is always passed in (``now``, milliseconds
since the epoch), never read here, so the schedule is a pure function."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import platformdirs

from al0.errors import AL0Error
from al0.files import check_writable, read_regular_file, write_atomically

try:
    import fcntl
except ImportError:  # Windows: no lock
    fcntl = None  # type: ignore[assignment]

FILE_NAME = "progress.json"
VERSION = 1
COUNTS = ("tried", "solved", "moves", "over_optimum", "hints", "mistakes", "blunders")
"""What the record counts for each ending."""
MAX_BYTES = 1 << 20
"""The largest record read: a few hundred bytes an ending (a larger file,
or a device, is not one al0 wrote)."""
REVIEW_DAYS = (1, 3, 7, 14, 30)
"""The review queue's intervals in days: a position missed (a mistake or a
blunder) comes back after the first; each clean replay once it is due
moves it to the next; a clean replay after the last takes it off the
queue; a miss at any time starts it over."""
DAY_MS = 86_400_000
REVIEW_KEYS = {"material", "step", "due"}


def record_path() -> Path:
    """``$AL0_DATA_DIR/progress.json``, else the platform's data folder for al0."""
    explicit = os.environ.get("AL0_DATA_DIR")
    folder = Path(explicit) if explicit else Path(platformdirs.user_data_dir("al0", appauthor=False))
    return folder / FILE_NAME


@dataclass(frozen=True)
class Attempt:
    """One exercise as the student left it."""

    material: str
    fen: str
    solved: bool
    moves: int
    optimal: int
    hints: int
    mistakes: int
    blunders: int


def read_record(path: Path) -> dict[str, Any]:
    """The record at ``path`` (an empty one when there is no file yet),
    checked whole: each ending a material with every count a whole number
    at least 0, so that counting and showing it cannot fail half-way.

    :raises AL0Error: a file that cannot be read (a FIFO or device
        included: it would block or never end) or is not a record of this
        version, naming the file and what is wrong.
    """
    try:
        data = json.loads(read_regular_file(path, MAX_BYTES).decode("utf-8"))
    except FileNotFoundError:
        return {"version": VERSION, "endings": {}}
    except OSError as error:
        raise AL0Error(f"{path}: cannot read the progress record: {error.strerror}") from None
    except ValueError as error:
        raise AL0Error(f"{path}: cannot read the progress record: {error}") from None
    problem = _shape_problem(data)
    if problem:
        raise AL0Error(f"{path}: not a progress record of al0 (version {VERSION}): {problem}")
    return data  # type: ignore[no-any-return]


def _shape_problem(data: Any) -> str:
    """What makes ``data`` not a record of this version ('' when it is one)."""
    if not isinstance(data, dict):
        return "its top level is not an object"
    version = data.get("version")
    # bool is an int to Python (True == 1): a record's version is a number.
    if type(version) is not int or version != VERSION:
        return f"version {version!r}"
    endings = data.get("endings")
    if not isinstance(endings, dict):
        return "no 'endings' object"
    for material, counts in endings.items():
        if not isinstance(counts, dict) or set(counts) != set(COUNTS):
            return f"ending {material!r} does not hold the counts {', '.join(COUNTS)}"
        for name in COUNTS:
            if type(counts[name]) is not int or counts[name] < 0:
                return f"ending {material!r}: {name} is {counts[name]!r}, not a count"
    return _review_problem(data.get("review", {}))


def _review_problem(review: Any) -> str:
    """What makes ``review`` not a review queue ('' when it is one); a
    record written before the queue existed has none, and is read as
    having an empty one."""
    if not isinstance(review, dict):
        return "'review' is not an object"
    for fen, entry in review.items():
        if not isinstance(entry, dict) or set(entry) != REVIEW_KEYS:
            return f"review {fen!r} does not hold {', '.join(sorted(REVIEW_KEYS))}"
        if not isinstance(entry["material"], str):
            return f"review {fen!r}: material is {entry['material']!r}"
        for name in ("step", "due"):
            if type(entry[name]) is not int or entry[name] < 0:
                return f"review {fen!r}: {name} is {entry[name]!r}, not a count"
        if entry["step"] >= len(REVIEW_DAYS):
            return f"review {fen!r}: step {entry['step']} beyond the {len(REVIEW_DAYS)} intervals"
    return ""


def next_review(
    entry: dict[str, Any] | None, material: str, missed: bool, solved: bool, now: int
) -> dict[str, Any] | None:
    """A position's review entry after an exercise from it at ``now``
    (ms): a miss (re)starts it at the first interval; a success (mated
    with no miss) on a due position moves it to the next interval, off
    the queue (None) after the last; anything else (not yet due, not
    queued, left unsolved) changes nothing."""
    if missed:
        return {"material": material, "step": 0, "due": now + REVIEW_DAYS[0] * DAY_MS}
    if entry is None or not solved or now < entry["due"]:
        return entry
    step = entry["step"] + 1
    if step >= len(REVIEW_DAYS):
        return None
    return {"material": entry["material"], "step": step, "due": now + REVIEW_DAYS[step] * DAY_MS}


def review_intro(entry: dict[str, Any]) -> str:
    """What a review says before its position: why it is back and what a
    clean mate earns (the next interval, or leaving the queue)."""
    step = entry["step"] + 1
    earns = f"it comes back in {REVIEW_DAYS[step]} days" if step < len(REVIEW_DAYS) else "it leaves the queue"
    return f"Review: a position you missed (interval {entry['step'] + 1} of {len(REVIEW_DAYS)}); mate with no mistake and {earns}."


def due_reviews(data: dict[str, Any], now: int, material: str | None = None) -> list[tuple[str, str]]:
    """The queued positions due at ``now`` as (FEN, material), the longest
    due first; only ``material``'s when it is given."""
    review = data.get("review", {})
    due = [
        (entry["due"], fen, entry["material"])
        for fen, entry in review.items()
        if entry["due"] <= now and material in (None, entry["material"])
    ]
    return [(fen, ending) for _, fen, ending in sorted(due)]


def now_ms() -> int:
    """The wall clock in milliseconds, for a front end to read and pass to
    the review queue, whose logic never reads it (so tests state their own)."""
    return time.time_ns() // 1_000_000


def review_lines(data: dict[str, Any], now: int) -> list[str]:
    """The review queue as text: how many positions are due at ``now``,
    by ending, and when the next of the others comes."""
    review = data.get("review", {})
    if not review:
        return ["review queue: empty (a position you miss comes back after 1, 3, 7, 14 and 30 days)"]
    due = due_reviews(data, now)
    endings = sorted({material for _, material in due})
    by_ending = ", ".join(f"{sum(m == e for _, m in due)} {e}" for e in endings)
    lines = [
        f"review queue: {len(due)} of {len(review)} positions due now" + (f" ({by_ending})" if due else "")
    ]
    later = [entry["due"] for entry in review.values() if entry["due"] > now]
    if later:
        lines.append(f"  the next due {_when(min(later), now)}")
    if due:
        lines.append("  al0 practice --review plays them")
    return lines


def _when(due: int, now: int) -> str:
    """``in 2 days (2026-12-09 05:00 UTC)``: a time ahead of ``now``, both in ms."""
    ahead = due - now
    days = round(ahead / DAY_MS)
    hours = max(1, round(ahead / 3_600_000))
    span = f"{days} day{'s' * (days != 1)}" if days else f"{hours} hour{'s' * (hours != 1)}"
    stamp = datetime.fromtimestamp(due / 1000, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"in {span} ({stamp})"


def check_record(path: Path) -> None:
    """Fail now, before any exercise, if the record at ``path`` cannot be
    read or written: a student's work is not lost at the end of a session.

    :raises AL0Error: naming the file and why.
    """
    read_record(path)
    # The file, or the first folder on its way that exists (al0 makes the rest).
    target = path
    while not target.parent.exists():
        target = target.parent
    try:
        check_writable(target)
    except OSError as error:
        raise AL0Error(f"{path}: cannot write the progress record: {error.strerror}") from None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """The record at ``path`` to this process alone while the block runs:
    two sessions (a terminal's practice and ``al0 serve``'s page) that
    each read the record, count an exercise and write it back would
    otherwise lose one's count. An exclusive lock on a file beside the
    record (``flock``: released when the process dies); where the system
    has none (Windows), no lock."""
    if fcntl is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def add_attempt(path: Path, attempt: Attempt, now: int | None = None) -> dict[str, Any]:
    """Count ``attempt`` in the record at ``path`` (made with its folder if
    needed) and return the record, read and written under a lock; given
    the clock ``now`` (ms), the attempt's start is also scheduled in the
    review queue (:func:`next_review`).

    :raises AL0Error: the file cannot be read or written.
    """
    try:
        with _locked(path):
            return _count(path, attempt, now)
    except AL0Error:
        raise
    except OSError as error:
        raise AL0Error(f"{path}: cannot lock the progress record: {error.strerror}") from None


def _count(path: Path, attempt: Attempt, now: int | None) -> dict[str, Any]:
    """:func:`add_attempt`'s read, count and write."""
    data = read_record(path)
    counts = data["endings"].setdefault(attempt.material, dict.fromkeys(COUNTS, 0))
    counts["tried"] += 1
    counts["solved"] += attempt.solved
    counts["hints"] += attempt.hints
    counts["mistakes"] += attempt.mistakes
    counts["blunders"] += attempt.blunders
    if attempt.solved:
        counts["moves"] += attempt.moves
        counts["over_optimum"] += max(0, attempt.moves - attempt.optimal)
    if now is not None:
        review = data.setdefault("review", {})
        missed = attempt.mistakes + attempt.blunders > 0
        entry = next_review(review.get(attempt.fen), attempt.material, missed, attempt.solved, now)
        if entry is None:
            review.pop(attempt.fen, None)
        else:
            review[attempt.fen] = entry
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
    except OSError as error:
        raise AL0Error(f"{path}: cannot write the progress record: {error.strerror}") from None
    return data


def record_lines(data: dict[str, Any], now: int | None = None) -> list[str]:
    """The record as text, one line an ending; given the clock ``now``
    (ms), the review queue after it when it holds a position."""
    queue = review_lines(data, now) if now is not None and data.get("review") else []
    if not data["endings"]:
        return ["no exercises recorded yet", *queue]
    lines = []
    for material, counts in sorted(data["endings"].items()):
        solved = counts["solved"]
        over = f", {counts['over_optimum'] / solved:.1f} moves over the optimum a mate" if solved else ""
        lines.append(
            f"{material}: {solved} of {counts['tried']} exercises solved{over}; "
            f"{counts['hints']} hints, {counts['mistakes']} mistakes, "
            f"{counts['blunders']} blunders"
        )
    return [*lines, *queue]
