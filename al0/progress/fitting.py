"""A preference fitted to the tablebase: the whole weights of chosen
vocabulary features whose sum, after our move, follows the tablebase's
distance to mate, written as a table's ``prefer:``.

Over a seeded sample of a phase's won positions (us to move), every legal
move of ours that keeps the win is one row: the features of the position
it leads to and the tablebase's moves to mate from there. A least-squares
fit (numpy) gives real weights, scaled so that the largest is 1, 2, …
or ``scale``, rounded and divided by their greatest common divisor — of
these, the one whose choice agrees most often with the tablebase's (the
smallest on ties): a handful of named terms and whole weights a coach can read,
never a lookup. Two targets: ``dtm`` fits the distances themselves;
``rank`` fits them within each position (each position's mean taken off
the features and the distances), which is all a choice among one
position's moves needs. The choice the sum makes — of the moves that keep
the win, the first (python-chess's order) of least value — is then
compared with the tablebase's best moves on the same positions.
"""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import dataclass
from pathlib import Path

import chess
import numpy as np

from al0.board import Material
from al0.board.position import from_board
from al0.errors import AL0Error, TableSyntaxError
from al0.lang.compile_goals import ValueFn, compile_goal, compile_value
from al0.lang.loader import parse_table
from al0.lang.model import AdviceTable
from al0.lang.node import node_at
from al0.tablebase.table import Tablebase

TARGETS = ("dtm", "rank")

_TABLE = """\
name: fit
material: {material}
rules:
  - name: phase
    if: {pre}
    then: [a]
advice:
  a:
    better-goal: mate
    holding-goal: true
    us-moves: {{0: legal}}
    them-moves: nomove
    prefer:
      - {term}
"""
_PRE_LINE, _TERM_LINE = 5, 14
_PRE_COLUMN, _TERM_COLUMN = 9, 9
"""Where the quoted ``--pre`` and term start in :data:`_TABLE` (line, column
of the quote, from 1)."""


def _read(
    material: Material, pre: str, term: str, what: str, text: str, line: int, column: int
) -> AdviceTable:
    """The table of ``pre`` and ``term`` read as a table's are; an error is
    one line naming ``what`` ``text`` and the column in it."""
    source = _TABLE.format(material=material, pre=json.dumps(pre), term=json.dumps(term))
    try:
        return parse_table(source, "fit", Path("."))
    except AL0Error as error:
        found = re.fullmatch(r"fit:(\d+):(\d+): (.*)", str(error), re.DOTALL)
        if found is None or int(found.group(1)) != line:
            raise TableSyntaxError(f"{what} {text!r}: {error}") from None
        message = re.sub(r"^(rule 'phase' precondition|advice 'a' prefer): ", "", found.group(3))
        raise TableSyntaxError(f"{what} {text!r}:{max(1, int(found.group(2)) - column)}: {message}") from None


@dataclass
class Fit:
    """A fitted preference and how it chooses."""

    terms: tuple[str, ...]
    target: str
    positions: int
    """Sampled positions of the phase (us to move)."""
    rows: int
    """Moves that keep the win from them: the rows fitted."""
    weights: tuple[float, ...]
    """The least-squares weights, as fitted."""
    whole: tuple[int, ...]
    """The weights scaled and rounded, as ``prefer:`` states them."""
    agree: int
    """Positions where the sum's choice is one of the tablebase's best moves."""
    first_agree: int
    """The same for the first move that keeps the win (no preference)."""
    excess: int
    """Our moves to mate the sum's choices lose against the best, in all."""
    first_excess: int
    starts: tuple[str, ...] = ()
    """The sampled positions' FENs, in the sample's order."""
    errs: tuple[str, ...] = ()
    """The positions where the sum's choice is not one of the tablebase's
    best moves, as EPD lines: ``bm`` the best moves, ``c0`` the move chosen
    and how much longer its mate is, ``dm`` the moves to mate."""

    @property
    def expression(self) -> str:
        """The weighted sum, as a table writes it (terms of weight 0 left out)."""
        text = ""
        for weight, term in zip(self.whole, self.terms):
            if not weight:
                continue
            part = term if abs(weight) == 1 else f"{abs(weight)}*{term}"
            text += (
                f"{' - ' if weight < 0 else ' + '}{part}" if text else f"{'-' if weight < 0 else ''}{part}"
            )
        return text

    def yaml(self) -> str:
        """The ``prefer:`` line a piece of advice can take, with a comment
        saying what it was fitted to."""
        return f"prefer: {json.dumps(self.expression)}  # al0 fit, {self.target} over {self.rows:,} moves"


def _whole(weights: np.ndarray, largest: int) -> tuple[int, ...]:
    """``weights`` scaled so that the largest is ``largest``, rounded, and
    divided by their greatest common divisor."""
    top = float(np.abs(weights).max())
    rounded = [int(round(w * largest / top)) if top > 0 else 0 for w in weights]
    common = math.gcd(*rounded) or 1
    return tuple(w // common for w in rounded)


def _agreeing(scores: np.ndarray, distances: np.ndarray, groups: list[tuple[int, int]]) -> int:
    """In how many positions (``groups`` of rows) the first row of least
    score has the least distance."""
    return sum(
        int(
            distances[first + int(np.argmin(scores[first : first + count]))]
            == distances[first : first + count].min()
        )
        for first, count in groups
    )


def fit(
    table: Tablebase,
    terms: tuple[str, ...],
    pre: str | None = None,
    sample: int = 1000,
    seed: int = 0,
    target: str = "dtm",
    scale: int = 10,
) -> Fit:
    """Fit ``terms`` (features of the vocabulary) to ``table``'s moves to
    mate after our moves, over ``sample`` won positions (seeded with
    ``seed``) where ``pre`` holds.

    :raises TableSyntaxError: a term or ``pre`` that is not one (one line,
        its column), a term named twice, or a phase with no won position in the first 200,000
        of the sample's order.
    """
    material = table.material
    condition = pre if pre is not None else "true"
    values: list[ValueFn] = []
    seen: dict[str, int] = {}
    for number, term in enumerate(terms, 1):
        first = seen.setdefault("".join(term.split()), number)
        if first != number:
            raise TableSyntaxError(f"term {number} {term!r} repeats term {first}: a feature is fitted once")
        read = _read(material, "true", term, f"term {number}", term, _TERM_LINE, _TERM_COLUMN)
        values.append(compile_value(read.advice["a"].prefer[0], read.library))
    phase = (
        _read(material, condition, "dist(K, k)", "--pre", condition, _PRE_LINE, _PRE_COLUMN) if pre else None
    )
    holds = None if phase is None else compile_goal(phase.rules[0].precondition, phase.library)
    classes = table.positions(chess.WHITE, won=True)
    order = list(range(len(classes)))
    random.Random(seed).shuffle(order)
    rows: list[list[int]] = []
    distances: list[int] = []
    moves: list[chess.Move] = []
    starts: list[str] = []
    groups: list[tuple[int, int]] = []
    """Per position: its first row and its number of rows (its moves that keep the win, in legal order)."""
    looked = 0
    for place in order:
        if len(groups) == sample:
            break
        looked += 1
        if not groups and looked > 200_000:
            raise TableSyntaxError(
                f"--pre {condition!r} holds at no won position of the first 200,000 looked at"
            )
        board = classes[place].board()
        if holds is not None:
            root = node_at(from_board(board), 0, chess.WHITE)
            if not holds(root, root):
                continue
        first = len(rows)
        for move in list(board.legal_moves):
            board.push(move)
            distance = 0 if board.is_checkmate() else table.dtm(board, chess.WHITE)
            if distance is not None and not board.is_stalemate():
                root = node_at(from_board(board), 1, chess.WHITE)
                found = [value(root, root) for value in values]
                if None not in found:
                    rows.append([int(v) for v in found if v is not None])
                    distances.append(distance)
                    moves.append(move)
            board.pop()
        if len(rows) > first:
            groups.append((first, len(rows) - first))
            starts.append(board.fen())
    if not rows:
        where = f"--pre {condition!r} holds at" if pre else "there is"
        raise TableSyntaxError(f"{where} no won position with a move that keeps the win: nothing to fit")
    features = np.array(rows, dtype=np.float64)
    wanted = np.array(distances, dtype=np.float64)
    if target == "rank":
        for first, count in groups:
            features[first : first + count] -= features[first : first + count].mean(axis=0)
            wanted[first : first + count] -= wanted[first : first + count].mean()
        weights = np.linalg.lstsq(features, wanted, rcond=None)[0]
    else:
        with_constant = np.column_stack([features, np.ones(len(rows))])
        weights = np.linalg.lstsq(with_constant, wanted, rcond=None)[0][:-1]
    raw = np.array(rows, dtype=np.int64)
    distance_of = np.array(distances, dtype=np.int64)
    whole = max(
        (_whole(weights, largest) for largest in range(1, scale + 1)),
        key=lambda candidate: _agreeing(raw @ np.array(candidate, dtype=np.int64), distance_of, groups),
    )
    scores = raw @ np.array(whole, dtype=np.int64)
    agree = first_agree = excess = first_excess = 0
    errs = []
    for (first, count), start in zip(groups, starts):
        best = int(distance_of[first : first + count].min())
        chosen = first + int(np.argmin(scores[first : first + count]))
        agree += int(distance_of[chosen]) == best
        excess += int(distance_of[chosen]) - best
        if int(distance_of[chosen]) != best:
            board = chess.Board(start)
            errs.append(
                board.epd(
                    bm=[moves[row] for row in range(first, first + count) if distance_of[row] == best],
                    c0=f"chose {board.san(moves[chosen])}, {int(distance_of[chosen]) - best} longer",
                    dm=best + 1,
                )
            )
        first_agree += int(distance_of[first]) == best
        first_excess += int(distance_of[first]) - best
    return Fit(
        terms,
        target,
        len(groups),
        len(rows),
        tuple(float(w) for w in weights),
        whole,
        agree,
        first_agree,
        excess,
        first_excess,
        tuple(starts),
        tuple(errs),
    )


def summary(result: Fit) -> dict[str, object]:
    """The fit, for JSON."""
    return {
        "terms": list(result.terms),
        "target": result.target,
        "positions": result.positions,
        "rows": result.rows,
        "weights": list(result.weights),
        "whole": list(result.whole),
        "prefer": result.expression,
        "agree": result.agree,
        "excess": result.excess,
        "first_agree": result.first_agree,
        "first_excess": result.first_excess,
    }


def agreement_text(result: Fit) -> str:
    """The fit in a few lines: the sample, the weights, how often the sum's
    choice is the tablebase's."""
    share = 100 * result.agree / result.positions
    first_share = 100 * result.first_agree / result.positions
    fitted = ", ".join(f"{term} {weight:.3g}" for term, weight in zip(result.terms, result.weights))
    return (
        f"fitted ({result.target}) over {result.rows:,} moves that keep the win from {result.positions:,} positions: "
        f"{fitted}\n"
        f"its choice is one of the tablebase's best moves in {result.agree:,} of {result.positions:,} "
        f"({share:.1f} %), {result.excess / result.positions:.2f} moves to mate longer on average; "
        f"the first winning move's: {result.first_agree:,} ({first_share:.1f} %), "
        f"{result.first_excess / result.positions:.2f} longer"
    )
