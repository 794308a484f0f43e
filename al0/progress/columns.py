"""A potential's values and a condition's truth at every position of an
ending, computed with the vocabulary itself, position by position.

A potential is a lexicographic tuple of terms, the first most significant;
a term is a sum of vocabulary features with whole weights
(``3*corner_dist(k, B) + edge_dist(k)``), or of conditions ``[EXPR]``,
counted 1 where the goal expression holds and 0 elsewhere. A condition is a
goal expression as a table writes it, read and checked by the table loader
(so its names and errors are a table's). Values can be kept in a memo
directory, so a later run that weights or orders known features anew costs
only the min-max.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from al0 import __version__
from al0.board import Material
from al0.errors import AL0Error, TableSyntaxError
from al0.files import read_regular_file, remove_stale_temporaries, write_atomically
from al0.integers import IntegerError, parse_int
from al0.lang.compile_goals import compile_goal
from al0.lang.expr import parse_call
from al0.lang.lint import feature_problems, goal_problems
from al0.lang.loader import parse_table
from al0.lang.model import AdviceTable, Goal
from al0.lang.vocabulary.binding import Binder
from al0.lang.vocabulary.terms import material_pieces
from al0.progress.batch import NO_VALUE, Batch, GoalFunction
from al0.tablebase import FORMAT_VERSION
from al0.tablebase.geometry import Mask
from al0.tablebase.graph import MoveGraph

PerPosition = npt.NDArray[np.int64]
"""A number for each position of the move graph (a potential, a depth);
not the tablebase's ``Values``, its distances to mate."""
INF = np.int64(1 << 50)
"""The value of a failed line (stalemate, a piece lost, or no progress)."""
MATE = np.int64(-1)
"""The value of a mate: lower than every potential."""
MAX_WEIGHT = 1_000_000
"""The largest weight of a feature: far more than a feature's range (at most
64), and small enough that a sum of thousands of them stays exact."""

MEMO_FORMAT = f"m1-al0.{__version__}-tb{FORMAT_VERSION}"
"""In every memo file's name: the layout of its array (over the tablebase's
index, of the given format) and the release that computed it, whose
vocabulary may differ, so an array from elsewhere is never taken for this
one's."""
_MEMO_HEADER = 4096
"""More than the header ``np.save`` writes before an array's bytes."""

_RULE_PREFIX = "  - {name: hold, if: "
_EXPRESSION_COLUMN = len(_RULE_PREFIX) + 2
"""The column (from 1) of a condition's first character in the one-rule
table it is read from: after the prefix and the opening quote."""


def parse_term(term: str) -> list[tuple[int, str, int]]:
    """``"3*corner_dist(k, B) + edge_dist(k)"`` as ``[(3, "corner_dist(k, B)",
    0), (1, "edge_dist(k)", 22)]``: weight, feature and the offset of its
    part in ``term``. A part after ``-`` (or a leading ``-``) has a negative
    weight, as in the sums ``al0 fit`` prints and a ``prefer:`` takes.
    ``[EXPR]`` is a condition, its ``+`` and ``-`` signs its own.

    :raises TableSyntaxError: a part that is not ``[N*]feature``.
    """
    parts: list[tuple[int, str, int]] = []
    nesting, start, sign = 0, 0, 1
    for at, char in enumerate(term + "+"):
        nesting += (char in "([") - (char in ")]")
        if nesting < 0:
            raise TableSyntaxError(f"{at + 1}: {char!r} closes nothing")
        if char in "+-" and nesting == 0:
            part = term[start:at]
            if char == "-" and not parts and sign == 1 and not part.strip():
                sign, start = -1, at + 1  # a leading minus
                continue
            match = re.fullmatch(r"(\s*)(?:([0-9]+)\s*\*\s*)?([A-Za-z_\[].*?)\s*", part)
            if match is None:
                column = start + len(part) - len(part.lstrip()) + 1
                raise TableSyntaxError(f"{column}: expected [N*]feature, found {part.strip()!r}")
            offset = start + len(match.group(1))
            try:
                weight = parse_int(match.group(2) or "1", "a weight", 1, MAX_WEIGHT)
            except IntegerError as error:
                raise TableSyntaxError(f"{offset + 1}: {error}") from None
            parts.append((sign * weight, match.group(3), offset))
            sign, start = (-1 if char == "-" else 1), at + 1
    if nesting:
        # The part with the open bracket was never ended: it was dropped,
        # and the term counted as 0 everywhere.
        rest = term[start:]
        column = start + len(rest) - len(rest.lstrip()) + 1
        raise TableSyntaxError(f"{column}: a '(' or '[' is never closed")
    return parts


def condition_table(condition: str, what: str, material: Material) -> AdviceTable:
    """The goal expression ``condition`` as the precondition of a one-rule
    table of ``material``, so its names are checked as a table's are; an
    error names ``what`` and the column in ``condition``.

    :raises TableSyntaxError: an empty or bad condition.
    """
    if not condition.strip():
        raise TableSyntaxError(f"{what}: an empty condition: give a goal expression")
    text = (
        f"name: hold\nmaterial: {material.name}\nrules:\n"
        f"{_RULE_PREFIX}{json.dumps(condition)}, then: [a]}}\n"
        "advice: {a: {better-goal: mate, holding-goal: true, us-moves: {0: legal}, "
        "them-moves: nomove}}\n"
    )
    try:
        return parse_table(text, what, Path("."))
    except AL0Error as error:
        found = re.fullmatch(
            rf"{re.escape(what)}:\d+:(\d+): (?:rule 'hold' precondition: )?(.*)", str(error), re.DOTALL
        )
        if found is None:
            raise TableSyntaxError(f"{what} {condition!r}: {error}") from None
        column = max(1, int(found.group(1)) - _EXPRESSION_COLUMN + 1)
        raise TableSyntaxError(f"{what} {condition!r}:{column}: {found.group(2)}") from None


def term_warnings(terms: Sequence[str], material: Material, label: str = "term") -> Iterator[str]:
    """What the table lint (:mod:`al0.lang.lint`) would warn of in each of
    ``terms``, read before any value is computed (``dist(K, K)``, always 0,
    took a minute to measure and said nothing); each warning names its
    term as an error in it does (``term 1 'dist(K, K)':1: …``).

    :raises TableSyntaxError: a term that does not read, as computing it would.
    """
    pieces = set(material_pieces(material))
    for number, term in enumerate(terms, 1):
        try:
            parts = parse_term(term)
        except TableSyntaxError as error:
            raise TableSyntaxError(f"{label} {number} {term!r}:{error}") from None
        for _, name, offset in parts:
            what = f"{label} {number} {term!r}:{offset + 1}"
            if name.startswith("[") and name.endswith("]"):
                goal = condition_table(name[1:-1], what, material).rules[0].precondition
                problems = list(goal_problems(goal, pieces))
            else:
                try:
                    problems = list(feature_problems(parse_call(name), pieces))
                except AL0Error as error:
                    raise TableSyntaxError(f"{what}: {error}") from None
            yield from (f"{what}: {problem}" for problem in problems)


def condition_warnings(condition: str, what: str, material: Material) -> Iterator[str]:
    """:func:`term_warnings` of a goal expression given as an option
    (``--pre``, ``--hold``, …), named by ``what``."""
    goal = condition_table(condition, what, material).rules[0].precondition
    pieces = set(material_pieces(material))
    yield from (f"{what} {condition!r}: {problem}" for problem in goal_problems(goal, pieces))


class Terms:
    """Evaluates features and conditions over ``graph``'s ending, keeping
    each column in ``memo`` (a directory) when given."""

    def __init__(self, graph: MoveGraph, memo: Path | None = None):
        self.graph = graph
        self.memo = memo
        self.binder = Binder(graph.table.material)
        self.batch = Batch(graph)

    def goal(self, condition: str, what: str) -> tuple[Goal, GoalFunction]:
        """The goal expression ``condition`` (:func:`condition_table`) and
        its function."""
        table = condition_table(condition, what, self.graph.table.material)
        goal = table.rules[0].precondition
        return goal, compile_goal(goal, table.library)

    def _kept(
        self, key: list[str], compute: Callable[[], npt.NDArray[np.generic]], shape: tuple[int, ...]
    ) -> npt.NDArray[np.generic]:
        """``compute()``, an array of ``shape``, kept in the memo directory
        under a name made of ``key`` (readable, and a hash of it and of the
        memo's format and al0's version, so two keys, layouts or releases
        never share a file).

        :raises AL0Error: the directory cannot be written, or a file in it
            is not an array of ``shape`` that this command wrote.
        """
        if self.memo is None:
            return compute()
        text = " ".join([self.graph.table.name, *key])
        digest = hashlib.sha256(f"{MEMO_FORMAT} {text}".encode()).hexdigest()[:12]
        readable = re.sub(r"[^\w.=<>+*-]+", "_", text)[:120]
        path = self.memo / f"{readable}-{MEMO_FORMAT}-{digest}.npy"
        try:
            if path.exists():
                # Read as every input is (a FIFO there would block np.load),
                # and no larger than an array of this shape can be.
                value = np.asarray(
                    np.load(io.BytesIO(read_regular_file(path, _MEMO_HEADER + 8 * math.prod(shape))))
                )
                if value.shape != shape:
                    raise ValueError(f"shape {value.shape}, not {shape}")
                return value
            self.memo.mkdir(parents=True, exist_ok=True)
            value = compute()
            saved = io.BytesIO()
            np.save(saved, value)
            # Whole or not at all: a run stopped while saving leaves no half
            # array, and one killed leaves a temporary file removed later.
            remove_stale_temporaries(path)
            write_atomically(path, saved.getvalue())
        except OSError as error:
            raise AL0Error(f"--memo: {path}: {error.strerror or error}") from None
        except ValueError:
            raise AL0Error(
                f"--memo: {path}: not an array al0 progress wrote (delete it, or give another directory)"
            ) from None
        return value

    def where(self, condition: str, what: str = "--pre") -> Mask:
        """Where the goal expression ``condition`` holds at the positions
        with us to move (a phase's precondition, a target, an ``[EXPR]``
        term), over the index; false elsewhere."""

        def compute() -> Mask:
            goal, twin = self.goal(condition, what)
            where = np.zeros(self.graph.size, dtype=bool)
            where[self.graph.roots] = self.batch.goal(goal, twin, self.graph.roots, 0, 0)
            return where

        return self._kept(["where", condition], compute, (self.graph.size,)).astype(bool)

    def holds(self, condition: str) -> tuple[Mask, Mask]:
        """Where the goal expression ``condition`` (as a table's holding-goal
        writes it) holds: after our move (them to move, depth 1) and after
        their reply (us to move, depth 2), as two arrays over the index."""

        def compute() -> Mask:
            goal, twin = self.goal(condition, "--hold")
            after_ours = np.unique(np.concatenate([end for _, end in self.graph.ours]))
            found = []
            for side, indices in ((1, after_ours), (0, self.graph.roots)):  # at depths 1 and 2
                where = np.zeros(self.graph.size, dtype=bool)
                where[indices] = self.batch.goal(goal, twin, indices, side, 2 - side)
                found.append(where)
            return np.stack(found)

        both = self._kept(["hold", condition], compute, (2, self.graph.size)).astype(bool)
        return both[0], both[1]

    def feature(self, name: str, what: str = "term") -> PerPosition:
        """A feature's values at the positions with us to move, in the order
        of ``graph.roots``."""
        try:
            call = parse_call(name)
            feature = self.binder.bind(call, "feature")
        except AL0Error as error:
            raise TableSyntaxError(f"{what}: {error}") from None
        if feature is None:
            raise TableSyntaxError(
                f"{what}: {name!r} is not a feature of the vocabulary (see docs/language.md)"
            )

        def compute() -> PerPosition:
            roots = self.graph.roots
            column = self.batch.feature(call, feature, roots)
            missing = np.flatnonzero(column == NO_VALUE)
            if len(missing):
                node = next(self.batch.nodes(roots[missing[:1]], 0))
                raise TableSyntaxError(f"{what}: {name} has no value at {node.fen}")
            return column

        return self._kept([name], compute, (len(self.graph.roots),)).astype(np.int64)

    def potential(self, terms: list[str], say: Callable[[str], None] | None = None) -> PerPosition:
        """The potential at every position with us to move (``INF``
        elsewhere): the terms' values combined so that they compare
        lexicographically, the first most significant."""
        columns = []
        for number, term in enumerate(terms, 1):
            try:
                parts = parse_term(term)
            except TableSyntaxError as error:
                raise TableSyntaxError(f"term {number} {term!r}:{error}") from None
            column = np.zeros(len(self.graph.roots), dtype=np.int64)
            for weight, name, offset in parts:
                if say is not None:
                    say(f"evaluating {name} over {len(self.graph.roots):,} positions")
                what = f"term {number} {term!r}:{offset + 1}"
                if name.startswith("[") and name.endswith("]"):
                    column += weight * self.where(name[1:-1], what)[self.graph.roots].astype(np.int64)
                else:
                    column += weight * self.feature(name, what)
            columns.append(column)
        spans = [int(column.max()) - int(column.min()) + 1 for column in columns]
        if math.prod(spans) >= INF:
            # Combined, the values would pass INF (or wrap around int64 unseen).
            raise TableSyntaxError(
                f"the terms take {' × '.join(map(str, spans))} values "
                f"together, too many to compare as one (at most "
                f"{int(INF):,}): use smaller weights or fewer terms"
            )
        potential = np.zeros(len(self.graph.roots), dtype=np.int64)
        for column in columns:
            low = column.min()
            potential = potential * (column.max() - low + 1) + (column - low)
        result = np.full(self.graph.size, INF, dtype=np.int64)
        result[self.graph.roots] = potential
        return result
