"""Turning checked goal and move-constraint ASTs into fast Python functions.

Names were resolved when the table was loaded; compiling only binds them to
the library's functions: a goal becomes one function that calls its
predicates and short-circuits like the book's ``and``/``or`` (Python's
own, compiled from source written here; see :func:`_fused`). What library
code returns is checked at this boundary: a predicate must return a bool,
a generator must yield legal ``chess.Move`` objects of the side to move. A predicate or
generator that raises, or returns anything else, becomes a
:class:`~al0.errors.PredicateError` naming it and the FEN.

Any ``BaseException`` from library code counts as its failure (a library
that calls ``sys.exit()`` mid-search is broken, not finished), except
``KeyboardInterrupt``: a real Ctrl-C arrives as a ``KeyboardInterrupt``
raised wherever the interpreter happens to be, very often inside a
predicate, and nothing tells it apart from a library raising one itself.
So it always propagates, and the run stops the way Ctrl-C stops it.
"""

from __future__ import annotations

import dis
import inspect
import operator
import sys
import types
from typing import Callable, Iterable, NoReturn

import chess

from al0.errors import PredicateError
from al0.lang.library import Library, Node
from al0.lang.library import check as standard_check
from al0.lang.library import legal as standard_legal
from al0.lang.library import mate as standard_mate
from al0.lang.library import stalemate as standard_stalemate
from al0.lang.library import themtomove as standard_themtomove
from al0.lang.library import ustomove as standard_ustomove
from al0.lang.model import (And, Compare, Const, DepthRange, DepthTest, Feature, Goal, MoveConstraint,
                       Not, Or, Pred, Sum, leaves, predicate_names)
from al0.board.moves import play
from al0.board.position import Position, fen

GoalFn = Callable[[Node, Node], bool]
MovesFn = Callable[[Node], list[tuple[list[chess.Move], str]]]
"""The allowed moves at a node, in trying order, in lists each with the name
of the generator it comes from (to blame it if a move turns out illegal)."""

_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class _NotBool(Exception):
    """A predicate returned ``value``, which is not a bool."""

    def __init__(self, value: object):
        super().__init__(f"returned {value!r} ({type(value).__name__}), not a bool")
        self.value = value


def _not_bool(value: object) -> NoReturn:
    raise _NotBool(value)


def compile_goal(goal: Goal, library: Library) -> GoalFn:
    """A function ``(node, root) -> bool`` that evaluates ``goal``.

    :raises PredicateError: (when called) naming the predicate that raised
        or returned something other than a bool.
    """
    if isinstance(goal, (Const, DepthTest)):
        # No predicate to blame and always a bool: skip the checking wrapper
        # (a ``holding-goal: true`` is evaluated at every node).
        return _compile(goal, library)
    names = tuple(dict.fromkeys(predicate_names(goal)))
    if _nesting(goal) <= _FUSE_NESTING:
        return _fused(goal, library, names)
    fast = _compile(goal, library)

    def evaluate(node: Node, root: Node) -> bool:
        try:
            result = fast(node, root)
        except KeyboardInterrupt:
            raise  # see the module docstring: Ctrl-C always interrupts
        except BaseException as error:
            raise _blame(names, library, node, root, error) from error
        if result is True or result is False:
            return result
        raise _blame(names, library, node, root, _NotBool(result))
    return evaluate


_FUSE_NESTING = 100
"""Goals nested deeper than this (only goals built in Python: a table's are
at most 40 deep) are evaluated by a chain of closures instead of one
function: Python's parser allows at most 200 nested parentheses, and the
fused expression opens one per level and three at a predicate."""


def _nesting(goal: Goal) -> int:
    """How deeply ``goal``'s connectives nest (a chain of one kind counts
    once, as :func:`_connective` flattens it); iterative, so a goal nested
    past the recursion limit is measured too."""
    deepest = 0
    pending: list[tuple[Goal, int, type | None]] = [(goal, 1, None)]
    while pending:
        current, depth, parent = pending.pop()
        kind = type(current)
        if kind is not parent or kind is Not:
            depth += 1
        deepest = max(deepest, depth)
        if isinstance(current, Not):
            pending.append((current.operand, depth, Not))
        elif isinstance(current, (And, Or)):
            pending.extend((operand, depth, kind) for operand in current.operands)
    return deepest


def _fused(goal: Goal, library: Library, names: tuple[str, ...]) -> GoalFn:
    """``goal`` as one Python function, compiled from source: each
    predicate (and comparison) is called and its result checked to be a
    bool inline; ``and``/``or``/``not`` are Python's, short-circuiting
    alike. The goal's evaluation then costs the calls of its predicates
    alone, where a chain of closures adds a call per connective and per
    negation (the goals run at every search node). Only names this function
    makes up and the goal's depth constants reach the source."""
    namespace: dict[str, object] = {"_not_bool": _not_bool, "_blame": _blame,
                                    "_names": names, "_library": library}

    def call(function: object) -> str:
        name = f"_f{len(namespace)}"
        namespace[name] = function
        return f"(v if (v := {name}(node, root)) is True or v is False else _not_bool(v))"

    def expression(goal: Goal) -> str:
        if isinstance(goal, Pred):
            return call(library.predicates[goal.name])
        if isinstance(goal, Compare):
            return call(_compile_compare(goal, library))
        if isinstance(goal, Const):
            return "True" if goal.value else "False"
        if isinstance(goal, DepthTest):
            return f"(node.depth {_OPERATORS[goal.op]} {int(goal.value)})"
        if isinstance(goal, Not):
            return f"(not {expression(goal.operand)})"
        if isinstance(goal, (And, Or)):
            return "(" + (" and " if isinstance(goal, And) else " or ").join(
                expression(operand) for operand in _flattened(goal)) + ")"
        raise TypeError(f"not a goal: {goal!r}")

    source = (f"def goal(node, root):\n"
              f"    try:\n"
              f"        return {expression(goal)}\n"
              f"    except KeyboardInterrupt:\n"
              f"        raise\n"
              f"    except BaseException as error:\n"
              f"        raise _blame(_names, _library, node, root, error) from error\n")
    exec(compile(source, "<al0 goal>", "exec"), namespace)
    return namespace["goal"]  # type: ignore[return-value]


_OPERATORS = {"=": "==", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def _blame(names: tuple[str, ...], library: Library, node: Node, root: Node,
           error: BaseException) -> PredicateError:
    """Name the predicate that raised ``error`` (or returned a non-bool).
    Predicates are pure, so re-evaluating them one by one finds it; the
    check sits on the whole goal rather than on each predicate to keep
    evaluation fast."""
    culprit, failure = "?", error
    for name in names:
        try:
            value = library.predicates[name](node, root)
        except KeyboardInterrupt:
            raise
        except BaseException as raised:
            culprit, failure = name, raised
            break
        if value is not True and value is not False:
            culprit, failure = name, _NotBool(value)
            break
    return predicate_error(f"predicate {culprit!r} {_what(failure)}", node.position)


def _what(failure: BaseException) -> str:
    """What library code did, in words: returned a non-bool, called
    ``sys.exit()``, or raised."""
    if isinstance(failure, _NotBool):
        return str(failure)
    if isinstance(failure, SystemExit):
        return f"called sys.exit({failure.code!r})"
    return f"raised {type(failure).__name__}: {failure}"


def predicate_error(detail: str, position: Position, move: chess.Move | None = None
                    ) -> PredicateError:
    """The error for library code that failed at ``position``: ``detail``,
    with ``{move}`` standing for ``move`` in UCI, then the position's FEN."""
    try:
        where = fen(position)
    except Exception:  # a message must not fail for want of a FEN
        where = repr(position)
    text = detail if move is None else detail.replace("{move}", move.uci())
    return PredicateError(f"{text} at {where}", detail, position, move)


def reads_root(goal: Goal, library: Library) -> bool:
    """Whether ``goal``'s value may depend on the search's root node.

    A goal that does not read the root has the same value at a node whatever
    the root, so every search for an advice made of such goals gives each
    (position, depth) the same outcome, and a planner may share one memo
    between them. A ``root.`` feature reads the root; so may a predicate,
    unless it is a plain Python function that never touches its second
    parameter (see :func:`_ignores_root`): anything else counts as reading it.
    """
    for leaf in leaves(goal):
        if isinstance(leaf, Pred) and not _ignores_root(library.predicates[leaf.name]):
            return True
        if isinstance(leaf, Compare) and any(
                isinstance(term, Feature) and term.at_root
                for side in (leaf.left, leaf.right) for _, term in side.parts):
            return True
    return False


def position_only(goal: Goal, library: Library) -> bool:
    """Whether ``goal``'s value at a node depends on the node's position
    alone, given the values of the features it reads at the root: it names
    no depth and only the library's :attr:`~al0.lang.library.Library.positional`
    predicates and features. The search may then keep its value per
    position (and per those root values) instead of evaluating it again."""
    for leaf in leaves(goal):
        if isinstance(leaf, DepthTest):
            return False
        if isinstance(leaf, Pred) and leaf.name not in library.positional:
            return False
        if isinstance(leaf, Compare) and any(
                isinstance(term, Feature) and term.name not in library.positional
                for side in (leaf.left, leaf.right) for _, term in side.parts):
            return False
    return True


def root_features(goal: Goal, library: Library) -> tuple[Callable[[Node], int | None], ...]:
    """The distinct feature functions ``goal`` reads at the root, in order:
    with :func:`position_only`, the goal's value at a position is fixed by
    their values at the root."""
    found: dict[Callable[[Node], int | None], None] = {}
    for leaf in leaves(goal):
        if isinstance(leaf, Compare):
            for side in (leaf.left, leaf.right):
                for _, term in side.parts:
                    if isinstance(term, Feature) and term.at_root:
                        found[library.features[term.name]] = None
    return tuple(found)


def needs_check(goal: Goal, library: Library) -> bool:
    """Whether ``goal`` can hold only where the side to move is in check:
    it is the standard ``mate`` or ``check``, a conjunction with such an
    operand, or a disjunction of such goals. The search need not evaluate
    such a goal where the side to move is not in check."""
    if isinstance(goal, Pred):
        return library.predicates.get(goal.name) in _IN_CHECK
    if isinstance(goal, And):
        return any(needs_check(operand, library) for operand in goal.operands)
    if isinstance(goal, Or):
        return all(needs_check(operand, library) for operand in goal.operands)
    return False


_IN_CHECK = (standard_mate, standard_check)
"""The standard predicates that hold only with the side to move in check."""


def leaf_side(goal: Goal, library: Library) -> bool | None:
    """Whether ``goal`` can hold only where we are to move (True), only
    where they are (False), or may hold either way (None): it is the
    standard ``ustomove`` (True), ``themtomove``, ``mate`` or ``stalemate``
    (False), a conjunction with such an operand, or a disjunction of goals
    alike. The search need not visit a node to learn it is no leaf where
    the other side is to move."""
    if isinstance(goal, Pred):
        function = library.predicates.get(goal.name)
        if function is standard_ustomove:
            return True
        return False if function in _THEM_TO_MOVE else None
    if isinstance(goal, (And, Or)):
        sides = {leaf_side(operand, library) for operand in goal.operands}
        if isinstance(goal, And):
            sides.discard(None)
        return sides.pop() if len(sides) == 1 else None
    return None


_THEM_TO_MOVE = (standard_themtomove, standard_mate, standard_stalemate)
"""The standard predicates that hold only with them to move."""


def mate_alone(better: Goal, holding: Goal, library: Library) -> bool:
    """Whether an advice's better-goal is exactly the standard ``mate`` and
    its holding-goal the constant ``true``: then a node is a leaf exactly
    when it is checkmate with them to move, every node holds, and the search
    may decide both from the position alone."""
    return (isinstance(better, Pred) and library.predicates.get(better.name) is standard_mate
            and holding == Const(True))


_INTROSPECTION = frozenset({"locals", "vars", "eval", "exec", "_getframe", "currentframe",
                            "f_locals", "signature"})
"""Names through which a function could reach its parameters other than by name."""


def _ignores_root(predicate: object) -> bool:
    """Whether ``predicate`` is a plain function ``(node, root)`` whose code
    never names its second parameter (no load, store or closure of it) nor
    reaches its own frame: then its value cannot depend on the root."""
    if type(predicate) is not types.FunctionType:
        return False
    code = predicate.__code__
    if code.co_argcount < 2 or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return False
    root = code.co_varnames[1]
    if root in code.co_cellvars or _INTROSPECTION & set(code.co_names):
        return False
    for instruction in dis.get_instructions(code):
        value = instruction.argval
        if value == root or (isinstance(value, tuple) and root in value):
            return False
    return True


def _compile(goal: Goal, library: Library) -> GoalFn:
    """The closure of one AST node. Every closure returns a bool or raises;
    a predicate's result is checked wherever an operator consumes it."""
    if isinstance(goal, Pred):
        return library.predicates[goal.name]
    if isinstance(goal, Const):
        value = goal.value
        return lambda node, root: value
    if isinstance(goal, DepthTest):
        compare, k = _COMPARE[goal.op], goal.value
        return lambda node, root: compare(node.depth, k)
    if isinstance(goal, Not):
        inner = _compile(goal.operand, library)

        def negation(node: Node, root: Node) -> bool:
            value = inner(node, root)
            if value is True:
                return False
            if value is False:
                return True
            _not_bool(value)
        return negation
    if isinstance(goal, Compare):
        return _compile_compare(goal, library)
    if isinstance(goal, (And, Or)):
        return _connective(goal, library)
    raise TypeError(f"not a goal: {goal!r}")


def _compile_compare(goal: Compare, library: Library) -> GoalFn:
    """``left OP right``; false when any feature in it has no value (a piece gone).

    The two sides become one weighted sum compared with 0, ``left - right OP
    0``, in which each distinct feature read at the node is called once
    whatever its multiple and however often it is written (``corner_dist(k,
    B)`` three times is one call, times 3), and the features read at the
    root, with the numbers, make one constant computed once per root (kept
    among the root node's facts): a node's comparison costs the calls of its
    distinct node features and nothing more."""
    compare = _COMPARE[goal.op]
    at_node, at_root, constant = _weights(goal, library)
    weighted = tuple(at_node.items())
    if not at_root:
        def evaluate(node: Node, root: Node) -> bool:
            total = constant
            for feature, times in weighted:
                value = feature(node)
                if value is None:
                    return False
                total += times * value
            return compare(total, 0)
        return evaluate
    at_root_weighted = tuple(at_root.items())

    def root_total(root: Node) -> tuple[int, ...]:
        """The root's part of the sum, in a tuple (empty: a feature has no value)."""
        total = constant
        for feature, times in at_root_weighted:
            value = feature(root)
            if value is None:
                return ()
            total += times * value
        return (total,)

    def evaluate_with_root(node: Node, root: Node) -> bool:
        known = root.facts.get(root_total)
        if known is None:
            known = root.fact(root_total)
        if not known:
            return False
        total: int = known[0]  # type: ignore[index]
        for feature, times in weighted:
            value = feature(node)
            if value is None:
                return False
            total += times * value
        return compare(total, 0)
    return evaluate_with_root


Weights = dict[Callable[[Node], "int | None"], int]


def _weights(goal: Compare, library: Library) -> tuple[Weights, Weights, int]:
    """``left - right`` of ``goal`` as the multiple of each distinct feature
    function at the node and at the root, and the sum of its numbers. Names
    bound to one function (``room`` and ``room(k)``) are one feature. A
    feature whose multiples cancel keeps its place (weight 0): it still
    makes the comparison false where it has no value."""
    at_node: Weights = {}
    at_root: Weights = {}
    constant = 0
    for side, sign in ((goal.left, 1), (goal.right, -1)):
        for coefficient, term in side.parts:
            if isinstance(term, int):
                constant += sign * coefficient * term
                continue
            weights = at_root if term.at_root else at_node
            feature = library.features[term.name]
            weights[feature] = weights.get(feature, 0) + sign * coefficient
    return at_node, at_root, constant


ValueFn = Callable[[Node, Node], "int | None"]


def compile_value(total: Sum, library: Library) -> ValueFn:
    """The value of a sum of features at (node, root), None where a feature
    has none: what ``minimise:`` compares between trees."""
    parts = [(coefficient, term if isinstance(term, int) else library.features[term.name],
              isinstance(term, Feature) and term.at_root) for coefficient, term in total.parts]

    def value(node: Node, root: Node) -> int | None:
        result = 0
        for coefficient, term, at_root in parts:
            part = term if isinstance(term, int) else term(root if at_root else node)
            if part is None:
                return None
            result += coefficient * part
        return result
    return value


def _flattened(goal: And | Or) -> list[Goal]:
    """The operands of ``goal`` with nested connectives of its kind
    flattened into it, in order."""
    kind = type(goal)
    operands: list[Goal] = []
    pending = list(reversed(goal.operands))
    while pending:
        operand = pending.pop()
        if type(operand) is kind:
            pending.extend(reversed(operand.operands))
        else:
            operands.append(operand)
    return operands


def _connective(goal: And | Or, library: Library) -> GoalFn:
    """``and``/``or`` over all operands in one loop, nested connectives of
    the same kind flattened first: a chain of 1,200 operands is one closure,
    not 1,200 nested calls (which would hit the recursion limit)."""
    kind = type(goal)
    parts = tuple(_compile(operand, library) for operand in _flattened(goal))
    if len(parts) == 2:
        # The common case, unrolled: two calls, no loop.
        first, second = parts
        if kind is And:
            def both(node: Node, root: Node) -> bool:
                value = first(node, root)
                if value is not True:
                    return False if value is False else _not_bool(value)
                value = second(node, root)
                if value is True or value is False:
                    return value
                _not_bool(value)
            return both

        def either(node: Node, root: Node) -> bool:
            value = first(node, root)
            if value is not False:
                return True if value is True else _not_bool(value)
            value = second(node, root)
            if value is True or value is False:
                return value
            _not_bool(value)
        return either
    if kind is And:
        def every(node: Node, root: Node) -> bool:
            for part in parts:
                value = part(node, root)
                if value is not True:
                    return False if value is False else _not_bool(value)
            return True
        return every

    def some(node: Node, root: Node) -> bool:
        for part in parts:
            value = part(node, root)
            if value is not False:
                return True if value is True else _not_bool(value)
        return False
    return some


def compile_constraint(constraint: MoveConstraint, library: Library) -> MovesFn:
    """A function ``node -> [(moves, generator name)]``: the allowed moves in
    trying order, one list per alternative that allows any.

    Alternatives apply in order, each only at depths in its range; a move
    already allowed by an earlier alternative is not repeated. Every item a
    generator yields is checked to be a ``chess.Move``; whether it is legal
    is checked by :func:`play_checked` when the search plays it (most moves
    of our side are never played: the search stops at the first that works).

    :raises PredicateError: (when called) naming the generator that raised
        or yielded something that is not a move.
    """
    # Each alternative as its depths (``lo <= depth < hi``), its first
    # generator with its name and the others with theirs: this runs at every
    # node that is expanded, so nothing is looked up or sliced per call.
    alternatives = tuple(
        (alt.depths.lo, sys.maxsize if alt.depths.hi is None else alt.depths.hi,
         library.generators[alt.generators[0]], alt.generators[0],
         tuple((library.generators[name], name) for name in alt.generators[1:]))
        for alt in constraint.alternatives)

    def allowed(node: Node) -> list[tuple[list[chess.Move], str]]:
        found: list[tuple[list[chess.Move], str]] = []
        depth = node.depth
        for lo, hi, first, name, others in alternatives:
            if not lo <= depth < hi:
                continue
            moves = _generate(first, name, node)
            for generator, other in others:
                admitted = set(_generate(generator, other, node))
                moves = [move for move in moves if move in admitted]
            if found:
                # Only a later alternative can repeat a move an earlier one allowed.
                seen = {move for earlier, _ in found for move in earlier}
                moves = [move for move in moves if move not in seen]
            if moves:
                found.append((moves, name))
        return found

    return allowed


def legal_alone(constraint: MoveConstraint, library: Library) -> tuple[DepthRange, ...]:
    """The depths at which the allowed moves of ``constraint`` are exactly
    the standard ``legal`` generator's (its only alternative there), as
    ranges: which alternatives apply changes only where a range starts or
    ends, so each span between those depths is decided by its first depth."""
    if library.generators.get("legal") is not standard_legal:
        return ()
    ranges = [alt.depths for alt in constraint.alternatives]
    edges = sorted({0} | {r.lo for r in ranges} | {r.hi for r in ranges if r.hi is not None})
    found = []
    for lo, hi in zip(edges, edges[1:] + [None]):
        applying = [alt for alt in constraint.alternatives if lo in alt.depths]
        if len(applying) == 1 and applying[0].generators == ("legal",):
            found.append(DepthRange(lo, hi))
    return tuple(found)


def play_checked(position: Position, move: chess.Move, generator: str) -> Position:
    """The position after ``move`` at ``position``.

    :raises PredicateError: naming ``generator`` when ``move`` is not a
        legal move of the side to move.
    """
    child = play(position, move)
    if child is None:
        _bad_move(generator, move, position)
    return child


def _generate(generator: Callable[[Node], Iterable[chess.Move]], name: str,
              node: Node) -> list[chess.Move]:
    """The moves ``generator`` yields at ``node``, as a list (the very list
    it returns, when it returns one: the search never changes it)."""
    try:
        moves = generator(node)
        if type(moves) is not list:
            moves = list(moves)
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        raise predicate_error(f"generator {name!r} {_what(error)}", node.position) from error
    if not _MOVE_TYPE.issuperset(map(type, moves)):
        _bad_move(name, next(move for move in moves if type(move) is not chess.Move),
                  node.position)
    return moves


_MOVE_TYPE = {chess.Move}


def _bad_move(culprit: str, move: object, position: Position) -> NoReturn:
    """Raise the error for a generator output that is not a legal move."""
    if type(move) is not chess.Move:
        raise predicate_error(f"generator {culprit!r} yielded {move!r} ({type(move).__name__}),"
                              " not a chess.Move,", position)
    raise predicate_error(f"generator {culprit!r} yielded {{move}}, not a legal move of the"
                          " side to move,", position, move)
