"""Fuzzing the loader: mutated real tables and goal strings either load or
raise al0's own error located at ``file:line:col`` — never a traceback.

Derandomised with a fixed number of examples, so the suite stays fast and
deterministic; hypothesis's deadline bounds the time of each example.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from al0.errors import AL0Error
from al0.lang.expr import ExpressionError, parse_constraint, parse_goal
from al0.lang.loader import parse_table
from conftest import TABLES

SOURCES = {path.name: path.read_text(encoding="utf-8") for path in sorted(TABLES.glob("*.yaml"))}

# Pieces of text that have broken the loader before, or that its grammar
# gives meaning to: YAML syntax, operators, names, Unicode digits, Python's
# limits (integers of over 4,300 digits, deep nesting).
FRAGMENTS = [
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    "-",
    "'",
    '"',
    "\n",
    "\n  ",
    " ",
    "#",
    "&a",
    "*a",
    "!!python/object:os.system",
    "|",
    ">-",
    "0",
    "3",
    "-1",
    "²",
    "①",
    "٣",
    "\t",
    "\x00",
    " and ",
    " or ",
    " not ",
    "not " * 60,
    "(" * 60,
    "[" * 120,
    "true",
    "false",
    "depth",
    "root.",
    "<",
    "<=",
    "=",
    ">",
    "..",
    "then",
    "legal",
    "nomove",
    "moves(R)",
    "moves(Q)",
    "checks",
    "dist(K, k)",
    "room",
    "root.room",
    "divides(R)",
    "en_prise(Q)",
    "B2",
    "q",
    "9" * 5000,
    "library: x",
    "material: KQKR",
    "side: black",
    "start: 8/8/8 w",
    "x" * 300,
    "expect:",
    "mates-all: maybe",
    "max-moves: 9999999999",
    "us-moves",
    "them-moves",
]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` after a few random deletions, insertions and duplications."""
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        if kind == "insert":
            text = text[:at] + draw(st.sampled_from(FRAGMENTS)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif kind == "replace":
            text = text[:at] + draw(st.sampled_from(FRAGMENTS)) + text[at + draw(st.integers(1, 8)) :]
        else:
            span = text[at : at + draw(st.integers(1, 200))]
            text = text[:at] + span + text[at:]
    return text


tables = st.sampled_from(sorted(SOURCES)).flatmap(lambda name: mutated(SOURCES[name]))
GOALS = [
    "their_king_edge and kings_close",
    "room < root.room and not en_prise(Q) and not stalemate",
    "(rookdivides or lpatt) and (roomgt2 or not our_king_edge)",
    "ustomove and dist(K, R) > dist(k, R) + 1 or themtomove and dist(K, R) > dist(k, R)",
    "(depth = 0) and legal then (depth = 2) and checkmove",
]
goals = st.sampled_from(GOALS).flatmap(mutated)
LOCATED = re.compile(r"fuzz\.yaml:\d+:\d+: \S")
FUZZ = settings(
    max_examples=150,
    derandomize=True,
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check_table_text(text: str) -> bool:
    """Load ``text``: True when it loads, False when it raises a located
    AL0Error; anything else fails the test."""
    try:
        parse_table(text, "fuzz.yaml", TABLES)
    except AL0Error as error:
        assert LOCATED.match(str(error)), str(error)
        return False
    return True


def check_goal_text(text: str) -> bool:
    """Read ``text`` as a goal and as a constraint: parsed, or an
    ExpressionError with an offset inside it."""
    ok = True
    for parse in (parse_goal, parse_constraint):
        try:
            parse(text)
        except ExpressionError as error:
            assert 0 <= error.offset <= len(text), (text, error.offset)
            ok = False
    return ok


@FUZZ
@given(tables)
@pytest.mark.slow
def test_mutated_tables_load_or_give_a_located_error(text):
    check_table_text(text)


@FUZZ
@given(goals)
def test_mutated_goals_parse_or_give_an_offset(text):
    check_goal_text(text)
