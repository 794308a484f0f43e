"""What a move does to the goal of a piece of advice, computed from the goal.

The better-goal is walked as an expression: each conjunct is evaluated
after the move (with the position before it as the root, as the search
does), each feature it compares is read before and after the move, and each
predicate says what holds. The words come from :mod:`al0.teach.words` (the
vocabulary's) and the table's own ``description:`` — never from text
written for one table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import chess

from al0.board import Material
from al0.lang.compile_goals import GoalFn, compile_goal
from al0.lang.model import AdviceTable, And, Compare, Const, DepthTest, Feature, Goal, Not, Or, Pred
from al0.lang.node import Node
from al0.lang.vocabulary.binding import Binder
from al0.teach.words import change_words, measure_words, saying


@dataclass(frozen=True)
class Change:
    """A feature the goal compares, before and after the move."""

    feature: str
    """Its name in the table (an identifier: for --verbose and JSON)."""
    words: str
    """``the box their king is held in shrinks from 12 to 9 squares``."""
    before: int | None
    after: int | None
    progress: bool = False
    """Whether the goal compares it with its value before the move
    (``area < root.area``): a measure of progress, not a bound."""
    noun: str = ""
    """What it measures, in words: ``the box their king is held in``."""


@dataclass(frozen=True)
class Part:
    """One conjunct of the better-goal after the move: whether it holds,
    and in words."""

    source: str
    """The conjunct as the table writes it (an identifier: for --verbose)."""
    holds: bool
    words: str


@dataclass(frozen=True)
class Explanation:
    """What ``move`` does to the goal of the advice ``advice``."""

    advice: str
    goal: str
    """The advice in the table's words (its description; its name when it has none)."""
    changes: tuple[Change, ...]
    parts: tuple[Part, ...]
    met: bool
    """Whether the better-goal holds where it is measured."""
    moves: int = 1
    """Our moves to where it is measured: 1, right after the move; more
    along the plan's line."""

    @property
    def broken(self) -> tuple[Part, ...]:
        """The conjuncts that fail after the move."""
        return tuple(part for part in self.parts if not part.holds)

    def progress_words(self, changed_only: bool = False, every: bool = False) -> list[str]:
        """The words of the measures of progress (only those the move
        changed, with ``changed_only``; then the goal's other measures too,
        with ``every``), measures that read the same numbers said once: ``the
        box … shrinks from 35 to 32 squares, as do the room … and the
        smallest box …`` (KBBK's goal compares three such)."""
        groups: dict[tuple[int | None, int | None, str], list[Change]] = {}
        for change in sorted(self.changes, key=lambda change: not change.progress):
            if (change.progress or every) and not (changed_only and change.before == change.after):
                unit = change.words.rsplit(" ", 1)[-1]
                groups.setdefault((change.before, change.after, unit), []).append(change)
        said = []
        for first, *others in groups.values():
            nouns = [other.noun for other in others if other.noun]
            if nouns and first.noun:
                said.append(f"{first.words}, as {'does' if len(nouns) == 1 else 'do'} {' and '.join(nouns)}")
            else:
                said.append(first.words)
        return said

    def because(self) -> str:
        """One line: what the move changes of the measures the goal compares
        with the position before it (its progress), else what holds."""
        changed = self.progress_words(changed_only=True)
        kept = self.progress_words()[:1]
        said = [part.words for part in self.parts if part.holds and part.words]
        text = "; ".join(changed[:2] or kept or said[:2])
        return f"in {self.moves} moves: {text}" if self.moves > 1 and text else text


def conjuncts(goal: Goal) -> list[Goal]:
    """The parts of ``goal`` joined by ``and``, each on its own."""
    if isinstance(goal, And):
        return [c for operand in goal.operands for c in conjuncts(operand)]
    return [goal]


def _features(goal: Goal) -> list[str]:
    """The features ``goal`` compares at the node, in order, each once."""
    found: list[str] = []
    if isinstance(goal, Compare):
        for side in (goal.left, goal.right):
            for _, term in side.parts:
                if isinstance(term, Feature) and term.name not in found:
                    found.append(term.name)
    elif isinstance(goal, Not):
        found = _features(goal.operand)
    elif isinstance(goal, (And, Or)):
        for operand in goal.operands:
            found += [name for name in _features(operand) if name not in found]
    return found


def _progress(goal: Goal) -> set[str]:
    """The features ``goal`` compares with their own value at the root."""
    found: set[str] = set()
    if isinstance(goal, Compare):
        terms = [
            term for side in (goal.left, goal.right) for _, term in side.parts if isinstance(term, Feature)
        ]
        found = {term.name for term in terms if term.at_root}
    elif isinstance(goal, Not):
        found = _progress(goal.operand)
    elif isinstance(goal, (And, Or)):
        for operand in goal.operands:
            found |= _progress(operand)
    return found


def goal_text(goal: Goal) -> str:
    """A conjunct as text (for --verbose): names and operators."""
    if isinstance(goal, Pred):
        return goal.name
    if isinstance(goal, Const):
        return "true" if goal.value else "false"
    if isinstance(goal, DepthTest):
        return f"depth {goal.op} {goal.value}"
    if isinstance(goal, Not):
        return f"not {goal_text(goal.operand)}"
    if isinstance(goal, Compare):
        return f"{goal.left} {goal.op} {goal.right}"
    joiner = " and " if isinstance(goal, And) else " or "
    return "(" + joiner.join(goal_text(operand) for operand in goal.operands) + ")"


STANDARD_MEASURES = ("area", "dist(K, k)")
"""What is told of a goal that compares no feature of the vocabulary (a
Python library's own predicates, such as the book's ``newroomsmaller``):
the two measures of every mating drive, their king's box and the kings'
distance, so the student still sees numbers to check on the board."""


def standard_measures(material: Material) -> dict[str, Callable[[Node], int | None]]:
    """:data:`STANDARD_MEASURES` bound to ``material``."""
    binder = Binder(material)
    measures: dict[str, Callable[[Node], int | None]] = {}
    for name in STANDARD_MEASURES:
        bound = binder.bind(name, "feature")
        if bound is not None:  # the vocabulary's own families: always bound
            measures[name] = bound
    return measures


def measured(material: Material, us: chess.Color, board: chess.Board, move: chess.Move) -> Explanation:
    """What our ``move`` at ``board`` does to the standard measures, where
    there is no table (a material practised with the tablebase alone)."""
    after = board.copy(stack=False)
    after.push(move)
    root, node = Node(board.copy(stack=False), 0, us), Node(after, 1, us)
    changes = []
    for name, feature in standard_measures(material).items():
        said = measure_words(name, after, us)
        if said is not None:
            before_value, after_value = feature(root), feature(node)
            changes.append(
                Change(
                    name,
                    change_words(*said, before_value, after_value),
                    before_value,
                    after_value,
                    True,
                    said[0],
                )
            )
    return Explanation("", "", tuple(changes), (), True)


class Explainer:
    """Explains moves against the goals of one table."""

    def __init__(self, table: AdviceTable):
        self.table = table
        self.library = table.library
        self.standard = standard_measures(table.material)
        """The standard measures, bound to the table's material."""
        self._compiled: dict[Goal, GoalFn] = {}
        """Each goal explained (a conjunct, an operand) compiled once: a
        session explains every move it judges, and compiling a goal cost
        more than a third of a hinted KBBK game."""

    def explain(
        self, advice: str, board: chess.Board, move: chess.Move, line: Sequence[chess.Move] = ()
    ) -> Explanation:
        """What our ``move`` at ``board`` (our turn, legal) does to the
        better-goal of ``advice``: measured right after it, or, given the
        ``line`` of the plan's forcing tree that starts with it (its
        longest resistance), at the line's end, where a plan of several
        moves reaches its goal. ``board`` is left as it was."""
        table, library = self.table, self.library
        goal = table.advice[advice].better_goal
        after = board.copy(stack=False)
        line = list(line) if line and line[0] == move else [move]
        for step in line:
            after.push(step)
        root = Node(board.copy(stack=False), 0, table.us)
        node = Node(after, len(line), table.us)
        changes = []
        progress = _progress(goal)
        names = _features(goal)
        features = dict(library.features)
        if not any(measure_words(name) for name in names):
            names, progress = list(self.standard), set(self.standard)
            features.update(self.standard)
        for name in names:
            feature = features.get(name)
            said = measure_words(name, after, table.us)
            if feature is None or said is None:
                continue
            noun, measure = said
            before_value, after_value = feature(root), feature(node)
            changes.append(
                Change(
                    name,
                    change_words(noun, measure, before_value, after_value),
                    before_value,
                    after_value,
                    name in progress,
                    noun,
                )
            )
        parts = []
        for conjunct in conjuncts(goal):
            if isinstance(conjunct, (Const, DepthTest)):
                continue
            holds = self._holds(conjunct, node, root)
            parts.append(Part(goal_text(conjunct), holds, self._words(conjunct, holds, node, root, after)))
        return Explanation(
            advice,
            table.describe_advice(advice),
            tuple(changes),
            tuple(parts),
            all(part.holds for part in parts),
            (len(line) + 1) // 2,
        )

    def _holds(self, goal: Goal, node: Node, root: Node) -> bool:
        """``goal`` at ``node`` (``root`` the position explained), compiled
        the first time it is asked."""
        compiled = self._compiled.get(goal)
        if compiled is None:
            compiled = self._compiled[goal] = compile_goal(goal, self.library)
        return compiled(node, root)

    def _words(self, goal: Goal, holds: bool, node: Node, root: Node, board: chess.Board) -> str:
        """A conjunct in words, as it stands after the move."""
        us = self.table.us
        if isinstance(goal, Pred):
            said = saying(goal.name, holds, board, us)
            # A library's own predicate has no words here: the table's
            # description tells it (its definition is for --verbose).
            return "" if said is None else said
        if isinstance(goal, Not):
            return self._words(goal.operand, not holds, node, root, board)
        if isinstance(goal, Compare):
            words = []
            for name in _features(goal):
                measured = measure_words(name, board, us)
                feature = self.library.features.get(name)
                if measured is None or feature is None:
                    continue
                noun, measure = measured
                words.append(change_words(noun, measure, feature(root), feature(node)))
            return "; ".join(words)
        if isinstance(goal, (And, Or)):
            inner = []
            for operand in goal.operands:
                value = self._holds(operand, node, root)
                text = self._words(operand, value, node, root, board)
                if text and value == holds:
                    inner.append(text)
            return "; ".join(dict.fromkeys(inner))
        return ""
