"""The native core's Python face refuses what it cannot read: every input,
not only what al0/engine/native.py writes. Malformed goal programs (a count
that wraps 32 bits, nesting past the C stack, arguments no table holds),
arguments out of range, boards whose men overlap, probes of boards without
one king a side, a clock that raises: each is a Python exception, never a
read outside the program or the tables. A seeded fuzz of the boundary
(programs, features, predicates, probes) asks the same of random input;
tests/core/test_core_sanitizers.py runs this file under AddressSanitizer
and UndefinedBehaviorSanitizer. Skipped where the core was not built."""

from __future__ import annotations

import random
from array import array

import chess
import pytest

from al0.board.position import Position, from_board
from al0.core import native
from al0.engine.compiled import compile_advice
from al0.engine.native import AND, CMP, CONST, DEPTH, NOT, OR, PRED, compile_native
from al0.engine.plan import Planner
from al0.lang.loader import load_table
from conftest import TABLES

core = native()
pytestmark = pytest.mark.skipif(core is None, reason="the native core is not running")
AREA = core.FEATURES.index("area") if core is not None else -1
"""The core's number of ``area`` (numbered as the registry orders it)."""

KRK = from_board(chess.Board("8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"))
KING, ROOK = 1 << 5 | chess.KING << 2, 1 << 5 | chess.ROOK << 2
THEIR_KING = chess.KING << 2
TRUE = [CONST, 3, 1]


def advice(better: list[int], holding: list[int] = TRUE, horizon: int = 2):
    """A piece of advice on the core: ``better`` and ``holding``, legal moves."""
    assert core is not None
    return core.Advice(better, holding, horizon, 0, -1, 0, 0, [], [], [], [])


def nested(levels: int) -> list[int]:
    """``not not … true``, ``levels`` deep."""
    program = TRUE
    for _ in range(levels):
        program = [NOT, 2 + len(program), *program]
    return program


@pytest.mark.parametrize(
    "program, message",
    [
        ([], "operation overruns"),
        ([CONST, 3], "operation overruns"),
        ([CONST, 4, 1, 0], "bad constant"),
        ([CONST, 3, 1, 0], "trailing ints"),
        ([99, 2], "unknown operation"),
        # A comparison of 715,827,883 terms: 6 + 6 * count wraps to 8 in 32 bits.
        ([CMP, 8, 0, 0, 0, 715_827_883, 0, 0], "bad comparison"),
        ([CMP, 12, 0, 64, 0, 1, 0, 1, 0, KING, THEIR_KING, -1], "bad comparison"),  # slot 64
        ([CMP, 12, 0, 0, 0, 1, 0, 1, 999, KING, THEIR_KING, -1], "bad feature"),
        ([CMP, 12, 0, 0, 0, 1, 0, 1, 0, -4, THEIR_KING, -1], "bad feature argument"),
        ([CMP, 12, 0, 0, 0, 1, 0, 1, 0, KING, 1 << 20, -1], "bad feature argument"),
        ([PRED, 5, 0, -1, -1, 0], "trailing ints"),
        ([PRED, 5, 99, -1, -1], "bad predicate"),
        ([PRED, 5, 6, -(2**31), -1], "bad predicate"),  # lost(a piece that cannot be)
        ([NOT, 6, CONST, 3, 1, 0], "not length"),
        ([NOT, 3, CONST], "bad not"),
        ([AND, 6, 2, CONST, 3, 1], "connective overruns"),
        ([AND, 7, 1, CONST, 3, 1, 0], "connective length"),
        ([OR, 3, -1], "bad connective"),
        ([DEPTH, 5, 0, 1, 0], "bad depth test"),
        (nested(1001), "nested too deep"),
    ],
)
def test_a_malformed_goal_program_is_refused(program: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=f"malformed goal program: {message}"):
        advice(program)


def test_the_deepest_program_allowed_is_read() -> None:
    made = advice(nested(1000))
    assert made.goals(KRK, KRK, True, 0) == (True, True)


@pytest.mark.parametrize("value", [2**31, -(2**31) - 1, 2**32 + 3, 2**63])
def test_an_int_outside_c_is_an_overflow_never_its_low_bits(value: int) -> None:
    """2**32 + 3 was read as 3: a program that passed its check as another."""
    with pytest.raises(OverflowError):
        advice([CONST, 3, value])


@pytest.mark.parametrize(
    "call",
    [
        lambda: core.feature(0, -4, THEIR_KING, -1, KRK, True),
        lambda: core.feature(AREA, 1 << 20, -1, -1, KRK, True),  # area(a piece 2**20)
        lambda: core.feature(AREA, 64, -1, -1, KRK, True),
        lambda: core.predicate(6, -100, -1, KRK, True),
        lambda: core.feature_column(AREA, 99, -1, -1, True, True, bytes(64), bytearray(8)),
    ],
)
def test_vocabulary_arguments_out_of_range_are_refused(call) -> None:
    with pytest.raises(ValueError, match="not pieces"):
        call()


@pytest.mark.parametrize(
    "boards, out",
    [
        (memoryview(bytearray(65))[1:], bytearray(8)),  # rows starting mid-word
        (bytes(64), memoryview(bytearray(9))[1:]),
    ],
)
def test_a_column_of_unaligned_buffers_is_refused(boards, out) -> None:
    assert core is not None
    with pytest.raises(ValueError, match="boundary"):
        core.feature_column(0, KING, THEIR_KING, -1, True, True, boards, out)


@pytest.mark.parametrize("colour", [-1, -2, -3])
def test_a_colour_where_a_king_belongs_has_no_box(colour: int) -> None:
    """``area`` of a colour constant: no king, so no squares (it indexed the
    node's boxes at -1)."""
    assert core is not None
    assert core.feature(AREA, colour, -1, -1, KRK, True) == 0


@pytest.mark.parametrize(
    "fields",
    [
        (1, 1, 1, 0, 0, 0, 0, 0),  # a man of both colours
        (1, 0, 1, 1, 0, 0, 0, 0),  # a king that is a queen
        (1, 0, 0, 0, 0, 0, 0, 0),  # a man of no kind
        (0, 0, 1, 0, 0, 0, 0, 0),  # a king of no colour
        (3, 0, 1, 0, 0, 0, 0, 3),  # a king that is a pawn
    ],
)
def test_a_board_whose_masks_do_not_partition_its_men_is_refused(fields: tuple[int, ...]) -> None:
    assert core is not None
    with pytest.raises(ValueError, match="every man once"):
        core.legal_moves((*fields, True, None))


@pytest.mark.parametrize(
    "position, message",
    [
        ((1, 2, 3, 0, 0, 0, 0), "a tuple of 8 bitboards, the turn and the en-passant square"),
        ((1, 2, 3, 0, 0, 0, 0, 0, True, 64), "None or a square"),
        (
            (1, 2, 3, 0, 0, 0, 0, 0, True, "e3"),
            "an integer is required|must be an integer|cannot be interpreted",
        ),
    ],
)
def test_a_malformed_position_tuple_is_refused(position: tuple[object, ...], message: str) -> None:
    assert core is not None
    with pytest.raises((TypeError, ValueError), match=message):
        core.legal_moves(position)


WHITE_ROOK_KEY = 1 << 2 * ((chess.ROOK - chess.PAWN) * 2 + 1)
"""probe.h's key of a position whose one man besides the kings is a White rook."""


def _prober():
    """A prober of two synthetic layouts, values all 254 (a draw): the two
    kings, and the kings with a White rook."""
    assert core is not None
    onto, triangle = [0] * 64, list(range(10)) + [-1] * 54
    layouts = [
        (0, b"\xfe" * (2 * 10 * 64), True, [-2, -1], False),
        (WHITE_ROOK_KEY, b"\xfe" * (2 * 10 * 64 * 64), True, [-2, -1, 0], False),
    ]
    return core.Prober(onto, list(range(64)) * 8, triangle, layouts)


@pytest.mark.parametrize(
    "symmetries, layout, message",
    [
        (
            [64] + list(range(1, 64)) + list(range(64)) * 7,
            (0, b"\xfe" * 1280, True, [-2, -1], False),
            "symmetries",
        ),
        (list(range(64)) * 8, (0, b"\xfe" * 1280, True, [-2, -1, 0], False), "slots"),  # a man the key lacks
        (
            list(range(64)) * 8,
            (1 << 20, b"\xfe" * 1280, True, [-2, -1], False),
            "slots",
        ),  # past the key's ten fields
    ],
)
def test_a_prober_refuses_tables_that_would_index_outside_them(symmetries, layout, message) -> None:
    assert core is not None
    onto, triangle = [0] * 64, list(range(10)) + [-1] * 54
    with pytest.raises(ValueError, match=message):
        core.Prober(onto, symmetries, triangle, [layout])


def test_a_memo_holds_one_advices_searches() -> None:
    """Entries of one advice read by another's search (its horizon sizes
    what it reads of them): refused."""
    assert core is not None
    memo, root = core.Memo(), from_board(chess.Board("8/8/8/3k4/8/8/8/R3K3 w - - 0 1"))
    core.search(advice(TRUE, horizon=4), root, True, memo, True, 10**6, 10**6, 1e18, lambda: 0.0, None)
    with pytest.raises(ValueError, match="one advice"):
        core.search(advice(TRUE, horizon=1), root, True, memo, True, 10**6, 10**6, 1e18, lambda: 0.0, None)


@pytest.mark.parametrize(
    "fen",
    ["8/8/8/8/8/8/8/K1K5 w - - 0 1", "8/8/8/8/8/8/8/k1k5 b - - 0 1", "8/8/8/8/8/8/8/K7 w - - 0 1"],
)
def test_a_probe_without_one_king_a_side_is_refused(fen: str) -> None:
    """Two White kings took the lowest square of Black's none."""
    board = chess.Board(fen)
    position = from_board(board)
    prober = _prober()
    for probe in (prober.value, prober.best_defence):
        with pytest.raises(ValueError, match="one king a side"):
            probe(position)
    assert prober.value(from_board(chess.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1"))) == 254


@pytest.mark.parametrize("clock, error", [(lambda: "noon", TypeError), (lambda: 1 / 0, ZeroDivisionError)])
def test_an_error_of_the_clock_is_raised_by_the_search_and_the_plan(clock, error) -> None:
    """The core reads the clock every few thousand nodes: a clock that
    raises, or gives no number, ends the search or the plan with that
    error (a clock that gave no number was read as -1 s, the search going
    on with the error set)."""
    assert core is not None
    table = load_table(TABLES / "kbbk.yaml")
    made = compile_native(
        table.advice["mate_in_6"], compile_advice(table.advice["mate_in_6"], table.library), table
    )
    root = from_board(chess.Board("8/8/8/3k4/8/8/8/2BBK3 w - - 0 1"))
    with pytest.raises(error):
        core.search(made.core, root, True, core.Memo(), False, 10**9, 10**9, 1e18, clock, None)
    planner = Planner(table, cache=False)
    assert planner.core is not None
    with pytest.raises(error):
        planner.core.plan(root, True, True, 10**9, 10**9, 1e9, clock, None)


# ------------------------------------------------------------------ fuzz

FUZZ_BOARDS = [
    chess.Board(fen)
    for fen in (
        "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1",
        "8/8/8/3k4/8/8/8/2BNK3 b - - 0 1",
        "rk6/8/8/8/3Q4/8/7K/8 w - - 0 1",
        "8/8/8/8/8/8/8/KQQQQQQk b - - 0 1",
        "8/8/8/8/8/8/8/K7 w - - 0 1",
    )
]


def _random_program(rng: random.Random, depth: int = 0) -> list[int]:
    """A goal program, well formed or not: the generator's choices favour
    forms the checker must read closely."""
    kind = rng.randrange(8 if depth < 6 else 3)
    if kind == 0:
        return [CONST, 3, rng.choice([0, 1, 7])]
    if kind == 1:
        return [DEPTH, 4, rng.randrange(6), rng.randrange(-2, 5)]
    if kind == 2:
        return [PRED, 5, rng.randrange(-1, 15), _argument(rng), _argument(rng)]
    if kind == 3:
        inner = _random_program(rng, depth + 1)
        return [NOT, 2 + len(inner), *inner]
    if kind in (4, 5):
        operands = [_random_program(rng, depth + 1) for _ in range(rng.randrange(4))]
        flat = [code for operand in operands for code in operand]
        return [AND if kind == 4 else OR, 3 + len(flat), len(operands), *flat]
    count = rng.randrange(4)
    terms = []
    for _ in range(count):
        terms += [
            rng.randrange(2),
            rng.randrange(-3, 4),
            rng.randrange(-1, 20),
            *(_argument(rng) for _ in range(3)),
        ]
    return [CMP, 6 + len(terms), rng.randrange(6), rng.randrange(-1, 66), rng.randrange(-9, 9), count, *terms]


def _argument(rng: random.Random) -> int:
    return rng.choice([-4, -3, -2, -1, KING, ROOK, THEIR_KING, 64, rng.randrange(64), 1 << 20])


def _mutated(rng: random.Random, program: list[int]) -> list[int]:
    """``program`` with one int changed, one cut off or one added."""
    program = list(program)
    what = rng.randrange(3)
    if what == 0 and program:
        program[rng.randrange(len(program))] = rng.choice(
            [-1, 0, 2, 3, 2**31 - 1, -(2**31), rng.randrange(99)]
        )
    elif what == 1 and program:
        del program[rng.randrange(len(program)) :]
    else:
        program.insert(rng.randrange(len(program) + 1), rng.randrange(-2, 9))
    return program


def test_a_seeded_fuzz_of_the_boundary_answers_or_refuses() -> None:
    """Random programs (and one-int mutations of them), features and
    predicates with random arguments, probes of random boards: each call
    answers or raises ValueError, and a program the checker accepts is
    evaluated on real boards (under the sanitizers: without a bad read)."""
    assert core is not None
    rng = random.Random(43)
    positions: list[Position] = [from_board(board) for board in FUZZ_BOARDS]
    accepted = 0
    for _ in range(1500):
        program = _random_program(rng)
        for candidate in (program, _mutated(rng, program)):
            try:
                made = advice(candidate, _random_program(rng))
            except ValueError:
                continue
            accepted += 1
            for position in positions:
                for depth in (0, 1):
                    made.goals(position, positions[0], rng.random() < 0.5, depth)
    assert accepted > 300  # the fuzz reaches evaluation, not only the checker
    for _ in range(2000):
        position, args = rng.choice(positions), [_argument(rng) for _ in range(3)]
        try:
            core.feature(rng.randrange(core_count("FEATURES")), *args, position, rng.random() < 0.5)
            core.predicate(rng.randrange(core_count("PREDICATES")), *args[:2], position, rng.random() < 0.5)
        except ValueError as error:
            assert "not pieces" in str(error)
    # Columns read their rows as they are (arrays al0 makes from legal
    # boards): rows of any masks must still read nothing outside them.
    rows = array("Q", (sum(1 << rng.randrange(64) for _ in range(rng.randrange(3))) for _ in range(8 * 300)))
    out, goals = array("q", bytes(8 * 300)), bytearray(300)
    for _ in range(20):
        args = [_argument(rng) for _ in range(3)]
        try:
            core.feature_column(rng.randrange(core_count("FEATURES")), *args, True, True, rows, out)
        except ValueError as error:
            assert "not pieces" in str(error)
        try:
            core.goal_column(_random_program(rng), True, 0, True, rows, goals)
        except ValueError as error:
            assert "malformed goal program" in str(error)
    prober = _prober()
    for _ in range(2000):
        bits = rng.sample(range(64), rng.randrange(1, 5))
        white = sum(1 << s for s in bits if rng.random() < 0.5)
        kings = sum(1 << s for s in bits if rng.random() < 0.7)
        rest = sum(1 << s for s in bits) & ~kings
        queens = rest if rng.random() < 0.5 else 0  # else rooks: the second layout's men
        board = Position(
            white,
            sum(1 << s for s in bits) & ~white,
            kings,
            queens,
            rest & ~queens,
            0,
            0,
            0,
            rng.random() < 0.5,
            None,
        )
        try:
            prober.value(board)
            prober.best_defence(board)
        except ValueError as error:
            assert "one king a side" in str(error)


def core_count(names: str) -> int:
    """How many features (``FEATURES``) or predicates the core has."""
    return len(getattr(core, names))
