"""Reading goal and move-constraint expressions into the AST of :mod:`al0.lang.model`.

Goals: predicate names with ``not`` > ``and`` > ``or`` (tightest first),
parentheses, ``true``/``false``, depth tests (``depth < 3``) and comparisons
of numeric features (``dist(K, k) <= 2``, ``room < root.room``, ``dist(K, R) >
dist(k, R) + 1``, ``3 * corner_dist(k, B) + edge_dist(k)``). A predicate,
feature or generator may take arguments, piece names (``divides(R)``); it is
then named by its canonical text.

Move constraints, the book's form: ``(depth = 0) and legal then (depth = 2)
and checkmove``. Each ``then``-separated part is a conjunction of depth guards
and generator names; it is normalised to one :class:`~al0.lang.model.Alternative`
(the intersection of its guards, its generators in order).

Names are not resolved here (the loader does that against the library); every
syntax error is an :class:`ExpressionError` carrying the 0-based offset of the
offending token, so the loader can report ``file:line:col``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from al0.errors import TableSyntaxError
from al0.integers import MAX_DIGITS
from al0.lang.model import (
    Alternative,
    And,
    Call,
    Compare,
    Const,
    DepthRange,
    DepthTest,
    Feature,
    Goal,
    MoveConstraint,
    Not,
    Or,
    Pred,
    Sum,
)

KEYWORDS = frozenset({"and", "or", "not", "then", "depth", "true", "false", "root"})
COMPARISONS = ("<=", ">=", "<", ">", "=")

MAX_NESTING = 40
"""Most parentheses and ``not``s one expression may nest. Real tables nest a
few levels; the bound keeps reading and evaluation (both recursive) far from
Python's recursion limit, so a pathological table is a located error."""

# ASCII digits only: ``\d`` and ``str.isdigit`` also accept digits (``²``,
# ``٣``) that are not what a table's author means by a number.
_TOKEN = re.compile(
    r"\s*(?:(?P<int>[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op><=|>=|==|[()<>=,.+*-]))"
)


class ExpressionError(TableSyntaxError):
    """An expression cannot be read; ``offset`` is where, in the source text."""

    def __init__(self, reason: str, source: str, offset: int):
        super().__init__(f"{reason} in {source!r}")
        self.reason = reason
        self.source = source
        self.offset = offset


@dataclass(frozen=True)
class Token:
    kind: str  # "int", "name", "op" or "end"
    text: str
    offset: int


def tokenize(source: str) -> list[Token]:
    """Split ``source`` into tokens, ending with an ``end`` token."""
    tokens, pos = [], 0
    while True:
        match = _TOKEN.match(source, pos)
        if not match:
            rest = source[pos:]
            if not rest.strip():
                tokens.append(Token("end", "", len(source.rstrip())))
                return tokens
            start = pos + len(rest) - len(rest.lstrip())
            raise ExpressionError(f"unexpected character {source[start]!r}", source, start)
        kind = match.lastgroup
        assert kind is not None  # every alternative of _TOKEN is a named group
        text = match.group(kind)
        tokens.append(Token(kind, "=" if text == "==" else text, match.start(kind)))
        pos = match.end()


class _Reader:
    """A recursive-descent reader over one expression's tokens."""

    def __init__(self, source: str):
        self.source = source
        self.tokens = tokenize(source)
        self.index = 0
        self.nesting = 0

    def enter(self, token: Token) -> None:
        """One level deeper (a parenthesis or a ``not``), within :data:`MAX_NESTING`."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise self.fail(f"nested more than {MAX_NESTING} levels deep", token)

    def number(self, token: Token) -> int:
        """The value of an ``int`` token, at most :data:`MAX_DIGITS` digits."""
        if len(token.text) > MAX_DIGITS:
            raise self.fail(f"number too large (at most {MAX_DIGITS} digits)", token)
        return int(token.text)

    @property
    def peek(self) -> Token:
        return self.tokens[self.index]

    def take(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def accept(self, text: str) -> bool:
        if self.peek.text == text and self.peek.kind != "end":
            self.index += 1
            return True
        return False

    def fail(self, reason: str, token: Token | None = None) -> ExpressionError:
        token = token or self.peek
        return ExpressionError(reason, self.source, token.offset)

    def expect(self, text: str) -> None:
        if not self.accept(text):
            found = self.peek.text or "end of expression"
            raise self.fail(f"expected {text!r}, found {found!r}")

    def finish(self) -> None:
        if self.peek.kind != "end":
            raise self.fail(f"unexpected {self.peek.text!r}")

    def depth_test(self) -> DepthTest:
        """``depth OP k`` with the ``depth`` keyword already taken."""
        op = self.take()
        if op.text not in COMPARISONS:
            raise self.fail("expected a comparison (=, <, <=, >, >=) after 'depth'", op)
        value = self.take()
        if value.kind != "int":
            raise self.fail("expected a whole number of plies", value)
        return DepthTest(op.text, self.number(value))

    # goal := or ; or := and ('or' and)* ; and := not ('and' not)* ;
    # not := 'not' not | atom ; atom := '(' or ')' | true | false | depth … | NAME
    def goal(self) -> Goal:
        operands = [self.conjunction()]
        while self.accept("or"):
            operands.append(self.conjunction())
        return operands[0] if len(operands) == 1 else Or(tuple(operands))

    def conjunction(self) -> Goal:
        operands = [self.negation()]
        while self.accept("and"):
            operands.append(self.negation())
        return operands[0] if len(operands) == 1 else And(tuple(operands))

    def negation(self) -> Goal:
        token = self.peek
        if self.accept("not"):
            self.enter(token)
            operand = self.negation()
            self.nesting -= 1
            return Not(operand)
        return self.atom()

    def atom(self) -> Goal:
        token = self.peek
        if token.kind == "int" or token.text in ("root", "-"):
            return self.comparison(self.sum())
        self.take()
        if token.text == "(" and token.kind == "op":
            self.enter(token)
            inner = self.goal()
            self.expect(")")
            self.nesting -= 1
            return inner
        if token.kind == "name" and token.text in ("true", "false"):
            return Const(token.text == "true")
        if token.kind == "name" and token.text == "depth":
            return self.depth_test()
        if token.kind == "name" and token.text not in KEYWORDS:
            call = self.call(token)
            if self.peek.kind == "op" and self.peek.text in COMPARISONS + ("+", "-", "*"):
                return self.comparison(self.sum(Feature(call)))
            return Pred(call)
        found = token.text or "end of expression"
        raise self.fail(f"expected a predicate name, found {found!r}", token)

    def call(self, name: Token) -> Call:
        """``NAME`` or ``NAME(arg, …)`` with NAME already taken, as a
        :class:`Call`. Arguments are names (pieces, colours)."""
        if not (self.peek.text == "(" and self.peek.kind == "op"):
            return Call(name.text)
        self.take()
        args = []
        while True:
            arg = self.take()
            if arg.kind != "name" or arg.text in KEYWORDS:
                found = arg.text or "end of expression"
                raise self.fail(f"expected an argument (a piece name such as K, R, k), found {found!r}", arg)
            args.append(arg.text)
            if not self.accept(","):
                break
        self.expect(")")
        return Call(name.text, tuple(args))

    # comparison := sum OP sum ; sum := ['-'] product (('+' | '-') product)* ;
    # product := INT '*' feature | term ; term := INT | feature ;
    # feature := ['root' '.'] NAME ['(' NAME (',' NAME)* ')']
    def comparison(self, left: Sum) -> Compare:
        op = self.take()
        if op.text not in COMPARISONS:
            found = op.text or "end of expression"
            at_root = [term for _, term in left.parts if isinstance(term, Feature) and term.at_root]
            hint = (
                f" after root.{at_root[0].name} (root. reads a feature, to be compared, "
                f"e.g. root.dist(K, k) > 2; a predicate cannot be read at the root)"
                if len(left.parts) == 1 and at_root
                else ""
            )
            raise self.fail(f"expected a comparison (=, <, <=, >, >=), found {found!r}{hint}", op)
        right = self.sum()
        if all(isinstance(term, int) for _, term in left.parts + right.parts):
            raise self.fail("a comparison needs a feature (e.g. dist(K, k)), not only numbers", op)
        return Compare(op.text, left, right)

    def sum(self, first: Feature | None = None) -> Sum:
        parts: list[tuple[int, Feature | int]] = []
        if first is not None:
            parts.append((1, first))
        else:
            sign = -1 if self.accept("-") else 1
            coefficient, term = self.product()
            parts.append((sign * coefficient, term))
        while self.peek.kind == "op" and self.peek.text in ("+", "-"):
            sign = 1 if self.take().text == "+" else -1
            coefficient, term = self.product()
            parts.append((sign * coefficient, term))
        if self.peek.kind == "op" and self.peek.text == "*":
            raise self.fail("a number multiplies a feature from the left (e.g. 3 * dist(K, k))")
        return Sum(tuple(parts))

    def product(self) -> tuple[int, Feature | int]:
        """A term, or a whole number times a feature (``3 * dist(K, k)``),
        as (coefficient, term)."""
        term = self.term()
        if isinstance(term, int) and self.peek.kind == "op" and self.peek.text == "*":
            self.take()
            feature = self.term()
            if isinstance(feature, int):
                raise self.fail(
                    "expected a feature after '*' (a number multiplies a feature, e.g. 3 * dist(K, k))",
                    self.tokens[self.index - 1],
                )
            return term, feature
        return 1, term

    def term(self) -> Feature | int:
        token = self.take()
        if token.kind == "int":
            return self.number(token)
        at_root = token.text == "root" and token.kind == "name"
        if at_root:
            self.expect(".")
            token = self.take()
        if token.kind == "name" and token.text not in KEYWORDS:
            return Feature(self.call(token), at_root)
        found = token.text or "end of expression"
        raise self.fail(f"expected a number or a feature (e.g. dist(K, k)), found {found!r}", token)

    # constraint := part ('then' part)* ; part := term ('and' term)* ;
    # term := '(' part ')' | depth OP k | NAME
    def constraint(self) -> MoveConstraint:
        parts = [self.part()]
        while self.accept("then"):
            parts.append(self.part())
        return MoveConstraint(tuple(parts))

    def part(self) -> Alternative:
        start = self.peek
        guards: list[DepthTest] = []
        generators: list[Call] = []
        self.terms(guards, generators)
        while self.accept("and"):
            self.terms(guards, generators)
        if not generators:
            raise self.fail("a move constraint needs a move generator (e.g. legal)", start)
        depths = DepthRange()
        for guard in guards:
            depths = intersect(depths, guard_range(guard))
        if depths.hi is not None and depths.hi <= depths.lo:
            raise self.fail("these depth guards exclude every depth", start)
        return Alternative(depths, tuple(generators))

    def terms(self, guards: list[DepthTest], generators: list[Call]) -> None:
        token = self.take()
        if token.text == "(" and token.kind == "op":
            self.enter(token)
            self.terms(guards, generators)
            while self.accept("and"):
                self.terms(guards, generators)
            self.expect(")")
            self.nesting -= 1
        elif token.kind == "name" and token.text == "depth":
            guards.append(self.depth_test())
        elif token.kind == "name" and token.text not in KEYWORDS:
            generators.append(self.call(token))
        else:
            found = token.text or "end of expression"
            raise self.fail(f"expected a move generator or depth guard, found {found!r}", token)


def guard_range(test: DepthTest) -> DepthRange:
    """The depths a depth test admits, as a half-open range."""
    k = test.value
    return {
        "=": DepthRange(k, k + 1),
        "<": DepthRange(0, k),
        "<=": DepthRange(0, k + 1),
        ">": DepthRange(k + 1, None),
        ">=": DepthRange(k, None),
    }[test.op]


def intersect(a: DepthRange, b: DepthRange) -> DepthRange:
    """Depths in both ranges."""
    his = [hi for hi in (a.hi, b.hi) if hi is not None]
    return DepthRange(max(a.lo, b.lo), min(his) if his else None)


def parse_goal(source: str) -> Goal:
    """Read a goal expression.

    :raises ExpressionError: with the offset of the first bad token.
    """
    reader = _Reader(source)
    goal = reader.goal()
    reader.finish()
    return goal


def parse_constraint(source: str) -> MoveConstraint:
    """Read a move constraint in the book's form (``… then …``)."""
    reader = _Reader(source)
    constraint = reader.constraint()
    reader.finish()
    return constraint


def parse_depth_spec(source: str) -> DepthRange:
    """Read the key of a by-depth constraint mapping: ``2``, ``= 2``, ``< 3``,
    ``<= 3``, ``>= 1``, ``1..4`` (inclusive) or ``any``."""
    text = source.strip()
    lead = len(source) - len(source.lstrip())  # offsets below are into ``text``
    if text == "any":
        return DepthRange()
    match = re.fullmatch(r"([0-9]+)\s*\.\.\s*([0-9]+)", text)
    if match:
        if max(len(match.group(1)), len(match.group(2))) > MAX_DIGITS:
            raise ExpressionError(f"number too large (at most {MAX_DIGITS} digits)", source, lead)
        lo, hi = int(match.group(1)), int(match.group(2))
        if hi < lo:
            raise ExpressionError("empty depth range", source, lead)
        return DepthRange(lo, hi + 1)
    if re.fullmatch(r"[0-9]+", text):
        if len(text) > MAX_DIGITS:
            raise ExpressionError(f"number too large (at most {MAX_DIGITS} digits)", source, lead)
        return DepthRange(int(text), int(text) + 1)
    try:
        # Tokenizing is inside the try too: a stray character must be
        # reported at its place in ``source``, not in the prefixed text.
        reader = _Reader("depth " + text)
        reader.take()
        test = reader.depth_test()
        reader.finish()
    except ExpressionError as error:
        raise ExpressionError(
            "bad depth guard (use k, = k, < k, <= k, >= k or a..b)",
            source,
            lead + max(0, error.offset - len("depth ")),
        ) from None
    depths = guard_range(test)
    if depths.hi is not None and depths.hi <= depths.lo:
        raise ExpressionError("this depth guard admits no depth", source, lead)
    return depths


def parse_generators(source: str) -> tuple[Call, ...]:
    """Read the value of a by-depth constraint mapping: ``legal`` or
    ``rookmove and checkmove`` (generator names joined by ``and``)."""
    reader = _Reader(source)
    names = []
    while True:
        token = reader.take()
        if token.kind != "name" or token.text in KEYWORDS:
            found = token.text or "end of expression"
            raise reader.fail(f"expected a move generator name, found {found!r}", token)
        names.append(reader.call(token))
        if not reader.accept("and"):
            break
    reader.finish()
    return tuple(names)


def parse_call(source: str) -> Call:
    """Read one call (``room(k)``, ``legal``) given on its own, as a command
    line gives a feature.

    :raises ExpressionError: with the offset of the first bad token.
    """
    reader = _Reader(source)
    token = reader.take()
    if token.kind != "name" or token.text in KEYWORDS:
        found = token.text or "end of expression"
        raise reader.fail(f"expected a name such as room(k), found {found!r}", token)
    call = reader.call(token)
    reader.finish()
    return call


def parse_sum(source: str) -> Sum:
    """Read a sum of features and whole numbers (``3 + dist(K, k) - edge_dist(k)``),
    the right-hand side of a numeric ``define:``.

    :raises ExpressionError: with the offset of the first bad token.
    """
    reader = _Reader(source)
    total = reader.sum()
    reader.finish()
    return total
