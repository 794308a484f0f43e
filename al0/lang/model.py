"""The domain model of an advice table: frozen values, checked and canonical.

The loader builds these once; the search only ever reads them. Goal and move
constraint expressions are stored both as their source text (for messages and
summaries) and as a small AST (see :mod:`al0.lang.expr`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Union

import chess

from al0.board import Material
from al0.lang.specs import DefenderSpec, PositionsSpec

if TYPE_CHECKING:
    from al0.lang.library import Library

# ---------------------------------------------------------------- goals


@dataclass(frozen=True)
class Call:
    """A name a goal or constraint uses, with its arguments as written
    (pieces, colours): ``dist(K, k)`` is ``Call("dist", ("K", "k"))``,
    ``legal`` is ``Call("legal")``. The parser makes it once; the loader
    binds it by family and arguments without reading its text again."""

    family: str
    args: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The canonical text, ``dist(K, k)``: the name the library and the
        bound vocabulary know the call by, and messages show."""
        return f"{self.family}({', '.join(self.args)})" if self.args else self.family

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Pred:
    """A predicate of the library, a function of (node, root), as called."""

    call: Call

    @property
    def name(self) -> str:
        """The call's canonical text, ``divides(R)``."""
        return self.call.text


@dataclass(frozen=True)
class Const:
    """``true`` or ``false``."""

    value: bool


@dataclass(frozen=True)
class DepthTest:
    """``depth = k``, ``depth < k``, ``depth <= k`` …: the node's ply from the root."""

    op: str
    value: int


@dataclass(frozen=True)
class Not:
    operand: Goal


@dataclass(frozen=True)
class And:
    operands: tuple[Goal, ...]


@dataclass(frozen=True)
class Or:
    operands: tuple[Goal, ...]


@dataclass(frozen=True)
class Feature:
    """A numeric feature of the library as called (``dist(K, k)``), at the
    node, or at the plan's root when ``at_root``."""

    call: Call
    at_root: bool = False

    @property
    def name(self) -> str:
        """The call's canonical text, ``dist(K, k)``."""
        return self.call.text

    def __str__(self) -> str:
        return f"root.{self.name}" if self.at_root else self.name


@dataclass(frozen=True)
class Sum:
    """Features and whole numbers added or subtracted, left to right, a
    feature perhaps times a whole number: ``3 * corner_dist(k) + dist(k, R) + 1``.
    Each part is (coefficient, term): the term's sign, times its multiple
    when it is written ``3 * feature`` (a number's coefficient is its sign)."""

    parts: tuple[tuple[int, Feature | int], ...]

    def __str__(self) -> str:
        text = ""
        for coefficient, term in self.parts:
            text += (" - " if coefficient < 0 else " + ") if text else ("-" if coefficient < 0 else "")
            text += str(term) if abs(coefficient) == 1 else f"{abs(coefficient)} * {term}"
        return text


@dataclass(frozen=True)
class Compare:
    """``left OP right`` over numeric features: ``room(k) < root.room(k)``.
    A feature of a piece no longer on the board has no value, and a
    comparison involving it is false."""

    op: str
    left: Sum
    right: Sum


Goal = Union[Pred, Const, DepthTest, Not, And, Or, Compare]


def leaves(goal: Goal) -> Iterator[Goal]:
    """The goals under ``goal``'s ``not``/``and``/``or``, left to right."""
    if isinstance(goal, Not):
        yield from leaves(goal.operand)
    elif isinstance(goal, (And, Or)):
        for operand in goal.operands:
            yield from leaves(operand)
    else:
        yield goal


def predicate_calls(goal: Goal) -> Iterator[Call]:
    """The predicates ``goal`` calls, left to right."""
    for leaf in leaves(goal):
        if isinstance(leaf, Pred):
            yield leaf.call


def feature_calls(goal: Goal) -> Iterator[Call]:
    """The features ``goal`` compares, left to right (at the node or the root)."""
    for leaf in leaves(goal):
        if isinstance(leaf, Compare):
            for side in (leaf.left, leaf.right):
                for _, term in side.parts:
                    if isinstance(term, Feature):
                        yield term.call


def predicate_names(goal: Goal) -> Iterator[str]:
    """The predicate names (canonical texts) ``goal`` uses, left to right."""
    return (call.text for call in predicate_calls(goal))


def feature_names(goal: Goal) -> Iterator[str]:
    """The feature names (canonical texts) ``goal`` compares, left to right."""
    return (call.text for call in feature_calls(goal))


# ---------------------------------------------------- move constraints


@dataclass(frozen=True)
class DepthRange:
    """Depths ``lo <= depth < hi``; ``hi`` is None for no upper bound."""

    lo: int = 0
    hi: int | None = None

    def __contains__(self, depth: int) -> bool:
        return self.lo <= depth and (self.hi is None or depth < self.hi)

    def __str__(self) -> str:
        if self.hi is None:
            return f"depth >= {self.lo}" if self.lo else "any depth"
        if self.hi == self.lo + 1:
            return f"depth = {self.lo}"
        if self.lo == 0:
            return f"depth < {self.hi}"
        return f"{self.lo} <= depth < {self.hi}"


@dataclass(frozen=True)
class Alternative:
    """Moves of ``generators[0]`` (which also orders them) that every other
    generator also yields, allowed only at depths in ``depths``."""

    depths: DepthRange
    generators: tuple[Call, ...]

    def __str__(self) -> str:
        return f"{self.depths}: {' and '.join(g.text for g in self.generators)}"


@dataclass(frozen=True)
class MoveConstraint:
    """Alternatives tried in order (``C1 then C2``); outside every depth range
    no move is allowed."""

    alternatives: tuple[Alternative, ...]

    def horizon(self) -> int | None:
        """The least depth from which on no move is allowed (None: unbounded).

        ``nomove`` alternatives never allow a move, whatever their depth."""
        bound = 0
        for alt in self.alternatives:
            if alt.generators == (Call("nomove"),):
                continue
            if alt.depths.hi is None:
                return None
            bound = max(bound, alt.depths.hi)
        return bound

    def __str__(self) -> str:
        return "; ".join(str(alt) for alt in self.alternatives) or "nomove"


# ------------------------------------------------------------- tables


@dataclass(frozen=True)
class Location:
    """Where something stands in a table file (1-based line and column)."""

    path: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Advice:
    """A piece of advice: better-goal, holding-goal and move constraints."""

    name: str
    better_goal: Goal
    holding_goal: Goal
    us_moves: MoveConstraint
    them_moves: MoveConstraint
    source: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    location: Location | None = field(default=None, compare=False, hash=False)
    prefer: tuple[Sum, ...] = ()
    """``prefer: [EXPR, ...]`` (or ``minimise: EXPR``): of the forcing trees
    that satisfy the advice, play one whose worst leaf has the least value
    of these sums, compared as a tuple (the first most significant); ()
    when the advice states no preference."""
    description: str = field(default="", compare=False)
    """What the advice aims at, in a coach's words (``description:``); empty
    when the table gives none."""
    goal_locations: dict[str, Location] = field(default_factory=dict, compare=False, hash=False)
    """Where each goal's text starts, by key (``better-goal``): for warnings."""


@dataclass(frozen=True)
class Rule:
    """If ``precondition`` holds, try ``advice`` in order."""

    name: str
    precondition: Goal
    advice: tuple[str, ...]
    source: str = field(default="", compare=False)
    location: Location | None = field(default=None, compare=False, hash=False)
    description: str = field(default="", compare=False)
    """When the rule applies, in a coach's words (``description:``)."""


@dataclass(frozen=True)
class Expectations:
    """What a table claims about its play, checked by ``al0 verify``.

    Each field is None when the table makes no such claim."""

    mates_all: bool | None = None
    max_stalemates: int | None = None
    max_material_lost: int | None = None
    max_no_plan: int | None = None
    max_search_limit: int | None = None
    """Games that end where a plan's search reached its node budget or
    memory limit, at most."""
    max_moves: int | None = None
    """Most moves to mate against the worst defence."""
    mean_moves: float | None = None
    """Mean moves to mate over the mated games, at most (a claim about the
    block's own positions: checked only on a run over those)."""
    positions: PositionsSpec | None = None
    """The start positions the claims are about (``all``, ``sample:N`` or an
    EPD file relative to the table), for the pytest plugin."""
    defender: DefenderSpec | None = None
    """The defender the claims are about (one built in), for the pytest plugin."""
    max_lost: int | None = None
    """For a table that holds: drawn positions its move loses, at most."""


@dataclass(frozen=True)
class Successor:
    """An entry of a table's ``successors:``: the table a game goes on with
    once a capture or a promotion leaves ``material`` (ours first)."""

    material: Material
    table: str
    """A bundled table's name, or the file's path (resolved, in the
    naming table's folder or below)."""
    where: str
    """``file:line:col`` of the entry, for what is found wrong when the
    table is loaded (at the game's first need of it)."""


@dataclass(frozen=True)
class AdviceTable:
    """A loaded, validated advice table ready for search."""

    name: str
    material: Material
    """Pieces of us then them, e.g. ``KRK``: White (us) K+R, Black K."""
    us: chess.Color
    rules: tuple[Rule, ...]
    advice: dict[str, Advice]
    library: Library
    path: str = ""
    description: str = ""
    start_fen: str | None = None
    start_location: Location | None = field(default=None, compare=False, hash=False)
    """Where ``start:`` stands in the file (``al0 check`` points at it)."""
    expect: tuple[Expectations, ...] = ()
    """The ``expect:`` blocks, each claims about one defender (or any)."""
    symmetric: bool = False
    """Plan every position in its symmetry class's canonical orientation
    (:mod:`al0.board.symmetry`), so mirror images play as mirror images."""
    successors: tuple[Successor, ...] = ()
    """The tables the game goes on with after a capture or a promotion, as
    the table names them (see :mod:`al0.engine.successors`)."""

    @property
    def holds(self) -> bool:
        """Whether the table plays the weaker side of its material (``KNKR``:
        the knight's), which cannot hope to win: it is judged by the draws
        its moves keep, not by mates."""
        return self.material.stronger_first() != self.material

    @property
    def follows_trees(self) -> bool:
        """Whether a game follows the table's forcing tree between its moves
        (AL0's way: descend into the tree on each reply, plan afresh when it
        ends), or plans afresh at each of its moves: a table that
        :attr:`holds` does. Its check proves each position's first move
        keeps the draw; a tree's later moves were chosen to reach the
        advice's goal, not to keep the draw, and following them lost many
        (a seven-ply KPK tree walked the lone king off the pawn's front)."""
        return not self.holds

    def describe_advice(self, name: str | None) -> str:
        """The advice's description, else its name (an identifier, for
        tables that give none)."""
        if name is None:
            return ""
        advice = self.advice.get(name)
        return advice.description if advice is not None and advice.description else name

    def describe_rule(self, name: str | None) -> str:
        """The rule's description, else its name."""
        rule = next((rule for rule in self.rules if rule.name == name), None)
        return rule.description if rule is not None and rule.description else (name or "")

    def predicates_used(self) -> list[str]:
        """Every predicate name the table uses, sorted."""
        goals = [rule.precondition for rule in self.rules]
        goals += [g for a in self.advice.values() for g in (a.better_goal, a.holding_goal)]
        return sorted({name for goal in goals for name in predicate_names(goal)})

    def features_used(self) -> list[str]:
        """Every numeric feature name the table compares or prefers, sorted."""
        goals = [rule.precondition for rule in self.rules]
        goals += [g for a in self.advice.values() for g in (a.better_goal, a.holding_goal)]
        goals += [Compare("=", term, term) for a in self.advice.values() for term in a.prefer]
        return sorted({name for goal in goals for name in feature_names(goal)})

    def generators_used(self) -> list[str]:
        """Every move generator name the table uses, sorted."""
        return sorted(
            {
                g.text
                for a in self.advice.values()
                for c in (a.us_moves, a.them_moves)
                for alt in c.alternatives
                for g in alt.generators
            }
        )
