"""Plan selection and the play loop, as docs/language.md (Semantics) defines them."""

from __future__ import annotations

import re

import chess
import pytest

from al0.board import Material
from al0.board.position import from_board
from al0.board.sampling import random_positions
from al0.engine.defenders import RandomDefender
from al0.engine.plan import Planner
from al0.engine.play import Ending, GameEnd, OurMove, TheirMove, play_game
from al0.errors import PositionError
from al0.lang.loader import load_table, parse_table
from al0.lang.specs import DefenderError
from conftest import TABLES

START = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"


def table(advice: str, rules: str, library: str = "../library/krk.py"):
    text = f"name: t\nmaterial: KRK\nlibrary: {library}\nrules: {rules}\nadvice: {advice}\n"
    return parse_table(text, "<test>", TABLES)


def play(planner: Planner, fen: str, opponent, max_moves=None) -> list:
    return list(play_game(planner, chess.Board(fen), opponent, max_moves))


# ------------------------------------------------------------ plans


def test_book_table_plans_the_books_first_move(bratko):
    plan = Planner(bratko).plan(chess.Board(START))
    assert (plan.rule, plan.advice, plan.tried) == ("else_rule", "squeeze", ())
    assert plan.tree.branches[0][0] == chess.Move.from_uci("e6e3")


def test_edge_rule_tries_mate_in_2_first(bratko):
    # B b1 on the edge, W b3 close: the edge rule applies, and its advice is
    # tried in the rule's order up to the first that is satisfiable.
    board = chess.Board("8/8/8/8/8/1K6/7R/1k6 w - - 0 1")
    plan = Planner(bratko).plan(board)
    assert plan.rule == "edge_rule"
    order = bratko.rules[0].advice
    assert plan.tried == order[: len(plan.tried)]
    assert plan.advice == order[len(plan.tried)]


FAILING = (
    "{never: {better-goal: mate, holding-goal: true, us-moves: {0: kingdiagfirst}, them-moves: nomove}, "
    "squeeze: {better-goal: newroomsmaller, holding-goal: not rooklost, us-moves: {0: rookmove}, them-moves: nomove}}"
)


def test_first_rule_whose_precondition_holds_is_taken():
    t = table(
        FAILING,
        "[{name: never_rule, if: false, then: [never]},"
        " {name: edge, if: their_king_edge, then: [never, squeeze]},"
        " {name: rest, if: true, then: [squeeze]}]",
    )
    planner = Planner(t)
    # B c2 is not on an edge: the third rule.
    assert planner.plan(chess.Board(START)).rule == "rest"
    # B a1 is: the second rule, whose first advice fails and is reported.
    plan = planner.plan(chess.Board("8/8/8/8/8/2R5/8/k3K3 w - - 0 1"))
    assert (plan.rule, plan.tried, plan.advice) == ("edge", ("never",), "squeeze")


def test_no_plan_names_the_rule_and_the_advice_tried():
    t = table(FAILING, "[{name: only, if: their_king_edge, then: [never]}]")
    planner = Planner(t)
    plan = planner.plan(chess.Board("8/8/8/8/8/2R5/8/k3K3 w - - 0 1"))
    assert plan.tree is None and plan.rule == "only" and plan.tried == ("never",)
    assert "rule only" in plan.describe_failure() and "never" in plan.describe_failure()
    no_rule = planner.plan(chess.Board(START))
    assert no_rule.rule is None and "no rule" in no_rule.describe_failure()
    events = play(planner, START, RandomDefender())
    assert events[-1].ending == Ending.NO_PLAN and len(events) == 1


def test_plans_are_cached_per_position(bratko):
    planner = Planner(bratko)
    board = chess.Board(START)
    assert planner.plan(board) is planner.plan(chess.Board(START))
    later = chess.Board(START)
    later.halfmove_clock, later.fullmove_number = 30, 50
    assert planner.plan(later) == planner.plan(board)  # the same plan, shown with its own counters
    assert Planner(bratko, cache=False).plan(board) is not Planner(bratko, cache=False).plan(board)


# ------------------------------------------------------------- play


def test_play_follows_the_tree_then_replans_when_the_reply_leaves_it():
    t = table(
        "{mate2: {better-goal: mate, holding-goal: true, us-moves: {0: legal, 2: legal},"
        " them-moves: {1: first_reply}}}",
        "[{name: r, if: true, then: [mate2]}]",
        library="../tests/data/libraries/partial.py",
    )
    planner = Planner(t)
    # The tree foresees one of three quiet replies (Kb4, Ka4, Ka2).
    fen = "8/8/4R3/8/8/k7/2K5/8 w - - 0 1"
    plan = planner.plan(chess.Board(fen))
    first, their_node = plan.tree.branches[0]
    foreseen = their_node.branches[0][0]
    board = chess.Board(fen)
    board.push(first)
    other = next(
        m for m in sorted(board.legal_moves, key=chess.Move.uci) if m != foreseen and not board.is_capture(m)
    )

    def replying(first_reply):
        """Plays ``first_reply`` at move 1, then any legal move."""
        return lambda b: first_reply if b.fullmove_number == 1 else next(iter(b.legal_moves))

    events = play(planner, fen, replying(foreseen), max_moves=2)
    assert isinstance(events[1], TheirMove) and events[1].in_tree
    assert isinstance(events[2], OurMove) and not events[2].new_plan

    events = play(planner, fen, replying(other), max_moves=2)
    assert isinstance(events[1], TheirMove) and not events[1].in_tree
    assert isinstance(events[2], OurMove) and events[2].new_plan


def test_book_table_mates_from_the_default_position(bratko):
    events = play(Planner(bratko), START, RandomDefender(0))
    end = events[-1]
    assert isinstance(end, GameEnd) and end.ending == Ending.MATE and end.result == "1-0"
    assert all(e.plan.advice for e in events if isinstance(e, OurMove))


@pytest.mark.slow
def test_book_table_mates_random_defenders_from_200_random_positions(bratko):
    planner = Planner(bratko)
    endings, longest = {}, 0
    for index, board in enumerate(random_positions(Material.parse("KRK"), 200, seed=2026)):
        events = list(play_game(planner, board, RandomDefender(index)))
        ending = events[-1].ending
        endings[ending] = endings.get(ending, 0) + 1
        longest = max(longest, sum(isinstance(e, OurMove) for e in events))
    # Every game mated: no stalemate, no rook lost, no 50-move or repetition draw.
    assert endings == {Ending.MATE: 200}
    assert longest <= 50


STALEMATE_TRAP = "k7/8/2K5/8/8/1R6/8/8 w - - 0 1"


SHUFFLE = ("h8g8", "g8h8", "h8h7", "h7h8", "g8f8", "f8g8")
"""Their king's shuffle in the corner, the first legal of these each move."""


@pytest.mark.parametrize(
    "advice, fen, opponent, ending",
    [
        # A table that wants stalemate gets it, and the game says so.
        (
            "{s: {better-goal: stalemate, holding-goal: true, us-moves: {0: legal}, them-moves: nomove}}",
            STALEMATE_TRAP,
            RandomDefender(),
            Ending.STALEMATE,
        ),
        # A table that hangs its rook to a capturing defender loses it.
        (
            "{s: {better-goal: rooklost, holding-goal: true, us-moves: {0: rookmove}, them-moves: nomove}}",
            "7K/8/3R4/8/8/8/2k5/8 w - - 0 1",
            lambda b: next((m for m in b.legal_moves if b.is_capture(m)), next(iter(b.legal_moves))),
            Ending.MATERIAL_LOST,
        ),
        # A quiet move at half-move clock 99 reaches the 50-move rule.
        (
            "{s: {better-goal: themtomove, holding-goal: true, us-moves: {0: kingdiagfirst}, them-moves: nomove}}",
            "8/8/4R3/8/3K4/8/2k5/8 w - - 99 80",
            RandomDefender(),
            Ending.FIFTY_MOVES,
        ),
        # The rook may stand only on a1, a7 and g1 (far from both kings)
        # while their king shuffles h8-g8: once no plan has a new position
        # to go to, one comes a third time.
        (
            "{s: {better-goal: 'themtomove and dist(R, k) = 7 and mdist(R, K) = 6', holding-goal: true,"
            " us-moves: {0: rookmove}, them-moves: nomove}}",
            "7k/8/8/8/3K4/8/8/R7 w - - 0 1",
            lambda b: next(m for m in map(chess.Move.from_uci, SHUFFLE) if b.is_legal(m)),
            Ending.REPETITION,
        ),
        (
            "{s: {better-goal: themtomove, holding-goal: true, us-moves: {0: rookmove}, them-moves: nomove}}",
            START,
            lambda b: None,
            Ending.QUIT,
        ),
    ],
)
def test_every_game_end_is_named(advice, fen, opponent, ending):
    planner = Planner(table(advice, "[{name: r, if: true, then: [s]}]"))
    events = play(planner, fen, opponent, max_moves=40)
    assert events[-1].ending == ending


@pytest.mark.parametrize(
    "fen, reply",
    [
        ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", chess.Move.null()),  # a pass
        ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", chess.Move.from_uci("a1a2")),  # a move of our rook
        ("4k3/8/8/8/8/8/8/3RK3 b - - 0 1", chess.Move.from_uci("e8d8")),  # into the rook's check
        ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", "e8d7"),  # not a move at all
    ],
)
def test_an_opponents_illegal_move_is_a_defender_error_naming_it(fen, reply, bratko):
    """A library opponent's illegal move was pushed and the game played on
    (a pass every turn; "Rxa2" for a move of our rook; an AssertionError of
    python-chess's SAN for a king left in check)."""
    shown = reply.uci() if isinstance(reply, chess.Move) else repr(reply)
    with pytest.raises(DefenderError, match=f"the opponent's move {re.escape(shown)} is not a legal move at"):
        list(play_game(Planner(bratko), chess.Board(fen), lambda _: reply))


def test_move_limit_ends_the_game(bratko):
    events = play(Planner(bratko), START, RandomDefender(0), max_moves=2)
    assert events[-1].ending == Ending.MOVE_LIMIT
    assert sum(isinstance(e, OurMove) for e in events) == 2


# The book's keeproom has no `not stalemate` in its better-goal: from here
# 1. Kc2 keeps the room with the rook dividing, and Black has no move.
BOOK_STALEMATE = "8/8/8/8/8/8/1R6/k1K5 w - - 0 1"


def test_book_table_stalemates_where_keeproom_forgets_stalemate(bratko):
    events = play(Planner(bratko), BOOK_STALEMATE, RandomDefender(0))
    assert [(e.san, e.plan.advice) for e in events if isinstance(e, OurMove)] == [("Kc2", "keeproom")]
    assert events[-1].ending == Ending.STALEMATE


def test_project_table_mates_where_the_book_stalemates():
    from al0.lang.loader import load_table

    events = play(Planner(load_table(TABLES / "krk.yaml")), BOOK_STALEMATE, RandomDefender(0))
    assert events[-1].ending == Ending.MATE


def test_advice_already_satisfied_at_the_root_gives_no_move_and_is_passed_over():
    advice = (
        "{done: {better-goal: true, holding-goal: true, us-moves: {0: legal}, them-moves: nomove},"
        " squeeze: {better-goal: newroomsmaller, holding-goal: not rooklost,"
        " us-moves: {0: rookmove}, them-moves: nomove}}"
    )
    planner = Planner(table(advice, "[{name: r, if: true, then: [done, squeeze]}]"))
    plan = planner.plan(chess.Board(START))
    assert (plan.tried, plan.advice) == (("done",), "squeeze")
    alone = Planner(table(advice, "[{name: r, if: true, then: [done]}]"))
    assert play(alone, START, RandomDefender())[-1].ending == Ending.NO_PLAN


@pytest.mark.parametrize(
    "fen, why",
    [
        ("8/8/8/8/8/8/2k1R3/8 w - - 0 1", "not one king a side"),  # no king of ours
        ("8/8/4R3/8/3K4/8/8/8 w - - 0 1", "not one king a side"),  # no king of theirs
        ("8/8/4R3/8/3K4/8/2kk4/8 w - - 0 1", "not one king a side"),
        ("8/8/4Q3/8/3K4/8/2k5/8 w - - 0 1", "material KQK"),  # another piece of ours
        ("8/8/4R3/8/3K4/8/2k5/7r w - - 0 1", "material KRKR"),  # more of theirs than the table's
        ("8/8/8/8/3K4/8/2k5/8 w - - 0 1", "material KK"),  # ours lost
    ],
)
@pytest.mark.parametrize("core", ["native", "python"])
def test_a_board_the_table_does_not_play_is_a_position_error_naming_it(fen, why, core, monkeypatch):
    """Every entry plans through ``plan_position``: a board without a king
    (it recursed to RecursionError) or of another material (it was searched
    without a word) is refused there, naming the board, on either core."""
    monkeypatch.setenv("AL0_CORE", core)
    planner = Planner(load_table(TABLES / "krk.yaml"))
    board = chess.Board(fen)
    with pytest.raises(
        PositionError, match=f"{re.escape(board.fen())}.* has {why}, but the table krk is for KRK"
    ):
        planner.plan(board)
    with pytest.raises(PositionError, match=re.escape(board.fen())):
        planner.plan_position(from_board(board))


@pytest.mark.parametrize(
    "fen, why",
    [
        ("R5k1/8/8/8/8/8/8/4K3 w - - 0 1", "opposite check"),  # theirs in check, our move
        ("8/8/8/8/8/8/8/R3Kk2 w - - 0 1", "opposite check"),  # kings side by side
        ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", "not the table's side to move"),
        ("4k3/4R3/8/8/8/8/8/4K3 b - - 0 1", "not the table's side to move"),
    ],
)
def test_a_board_the_table_cannot_be_asked_about_is_a_position_error_naming_it(fen, why):
    """``Planner.plan`` is the library's entry for our move: an illegal
    board (it was searched, a library then blaming its own generator) or
    one of their move (its plan's tree began with their moves) is refused,
    naming it."""
    planner = Planner(load_table(TABLES / "krk.yaml"))
    with pytest.raises(PositionError, match=f"{re.escape(fen)}.*{why}"):
        planner.plan(chess.Board(fen))


def test_a_game_of_kqkr_goes_on_as_kqk_once_the_rook_is_taken():
    """Fewer of their men than the table's are played (a capture leaves them)."""
    text = (TABLES / "kqk.yaml").read_text()
    planner = Planner(parse_table(text, "kqk.yaml", TABLES))
    kqkr_text = re.sub(r"\nstart: .*", "", text.replace("material: KQK", "material: KQKR"))
    kqkr = Planner(parse_table(kqkr_text, "kqkr.yaml", TABLES))
    board = chess.Board("8/8/4Q3/8/3K4/8/2k5/8 w - - 0 1")
    assert kqkr.plan(board).tree == planner.plan(board).tree is not None
