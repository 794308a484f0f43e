"""What a valid table may still get wrong, found without searching.

A table that loads can be searched, but a goal may read a value that cannot
change (``dist(K, K)``, our king's distance to itself), measure our own king
where the vocabulary means theirs (``room(K)``), compare a term with itself
(``area <= area``), or a piece of advice may never be tried. ``al0 check``
prints these as warnings: the author learns why before a search shows that.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Iterator

from al0.lang.model import AdviceTable, Call, Compare, Const, Feature, Goal, Location, feature_calls, leaves
from al0.lang.vocabulary.registry import ENTRIES, KING, PIECE
from al0.lang.vocabulary.terms import material_pieces

DISTANCES = {"dist", "mdist"}
"""Distances between two pieces: from a piece to itself always 0."""
OPERATORS = {
    "<": operator.lt,
    "<=": operator.le,
    "=": operator.eq,
    ">": operator.gt,
    ">=": operator.ge,
}


@dataclass(frozen=True)
class TableWarning:
    """One thing a table probably gets wrong, where it stands."""

    location: Location | None
    message: str

    def __str__(self) -> str:
        return f"{self.location}: warning: {self.message}" if self.location else f"warning: {self.message}"


def table_warnings(table: AdviceTable) -> list[TableWarning]:
    """Every warning for ``table``: its goals first, in the file's order,
    then the advice no rule reaches."""
    found: list[TableWarning] = []
    pieces = set(material_pieces(table.material))
    for rule in table.rules:
        found += [
            TableWarning(rule.location, f"rule {rule.name!r} if: {problem}")
            for problem in goal_problems(rule.precondition, pieces, table.holds)
        ]
    for advice in table.advice.values():
        for key, goal in (("better-goal", advice.better_goal), ("holding-goal", advice.holding_goal)):
            where = advice.goal_locations.get(key, advice.location)
            if goal == Const(False):
                found.append(
                    TableWarning(where, f"advice {advice.name!r} {key} is false: the advice never holds")
                )
            found += [
                TableWarning(where, f"advice {advice.name!r} {key}: {problem}")
                for problem in goal_problems(goal, pieces, table.holds)
            ]
    found += list(_unreached(table))
    return found


def goal_problems(goal: Goal, pieces: set[str], holds: bool = False) -> Iterator[str]:
    """What is wrong with ``goal`` in itself: a feature that cannot vary or
    measures the wrong king, a comparison whose outcome is fixed
    (``pieces``: the material's piece names, for a suggestion). In a table
    that ``holds`` (the weaker side's) our own king's room and squares are
    what the defence keeps, so measuring them is no mistake."""
    seen: set[str] = set()
    for call in feature_calls(goal):
        if call.text not in seen:
            seen.add(call.text)
            yield from feature_problems(call, pieces, holds)
    for leaf in leaves(goal):
        if isinstance(leaf, Compare):
            fixed = fixed_outcome(leaf)
            if fixed is not None:
                text = f"{leaf.left} {leaf.op} {leaf.right}"
                yield (
                    f"{text} compares a term with itself: it always holds (where its pieces are on the board)"
                    if fixed
                    else f"{text} compares a term with itself: it never holds"
                )


def feature_problems(call: Call, pieces: set[str], holds: bool = False) -> Iterator[str]:
    """What is wrong with the feature ``call`` in itself (a table's goal,
    or a term of ``al0 progress``): a distance from a piece to itself, a
    piece named twice, our own king measured where the vocabulary means
    theirs; nothing for a library's own feature, whose meaning is its own."""
    entry = ENTRIES.get(call.family)
    if entry is None:
        return
    named = [arg for arg, kind in zip(call.args, entry.params) if kind in (PIECE, KING)]
    repeated = next((piece for piece in named if named.count(piece) > 1), None)
    if repeated is not None and call.family in DISTANCES:
        other = repeated.swapcase()
        meant = f": did you mean {call.family}({repeated}, {other})?" if other in pieces else ""
        yield f"{call} is the distance from {repeated} to itself, always 0{meant}"
    elif repeated is not None:
        yield f"{call} names {repeated} twice: it measures one piece against itself"
    if not holds and entry.default is not None and call.args and call.args[0][:1].isupper():
        yield (
            f"{call} measures our own king, but {call.family} is meant for theirs "
            f"({call.family} or {call.family}({entry.default}))"
        )


def fixed_outcome(comparison: Compare) -> bool | None:
    """True or False when the features on both sides cancel, so the
    comparison of what is left (numbers) is decided; None when it depends
    on the position."""
    weights: dict[Feature, int] = {}
    constant = 0
    for sign, side in ((1, comparison.left), (-1, comparison.right)):
        for coefficient, term in side.parts:
            if isinstance(term, Feature):
                weights[term] = weights.get(term, 0) + sign * coefficient
            else:
                constant += sign * coefficient * term
    if any(weights.values()):
        return None
    return bool(OPERATORS[comparison.op](constant, 0))


def _unreached(table: AdviceTable) -> Iterator[TableWarning]:
    """Rules after one that always applies, rules whose ``if:`` is false,
    and advice only they list (or none does): nothing the planner will ever try."""
    reached: set[str] = set()
    always = None
    for rule in table.rules:
        if always is not None:
            yield TableWarning(
                rule.location,
                f"rule {rule.name!r} is never reached: rule {always!r} before it always applies",
            )
            continue
        if rule.precondition == Const(False):
            yield TableWarning(rule.location, f"rule {rule.name!r} never applies: its if: is false")
            continue
        reached.update(rule.advice)
        if rule.precondition == Const(True):
            always = rule.name
    for advice in table.advice.values():
        if advice.name not in reached:
            listed = any(advice.name in rule.advice for rule in table.rules)
            why = "only rules that never apply list it" if listed else "no rule lists it"
            yield TableWarning(advice.location, f"advice {advice.name!r} is never tried: {why}")
