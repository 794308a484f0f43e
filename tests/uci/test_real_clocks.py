"""The UCI engine at real clocks: what a cut move plays and says, the score of
the line al0 plays, the tablebase's move where the table's would draw a won
game, no stale figures, and ``uciok`` before the engine's imports. A fake GUI
drives the engine in process; each search that a test cuts is held at a
step the test controls (the tablebase's loading, the plan, the short
search), so no outcome depends on the machine's speed."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from typing import Any

import chess
import pytest
from uci_gui import Gui

from al0 import tablebase
from al0.engine.plan import Planner
from al0.engine.tablebases import Tablebases
from al0.uci import UciEngine, handshake
from al0.uci.rescue import past_fifty, rescue_move, why_not
from al0.uci.short_search import ShortSearch
from al0.uci.verdict import Verdict
from conftest import TEST_TABLES

BOOK_FEN = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
verdict_of = Verdict.of
# The first legal move in UCI order (a1a2) is not one of the tablebase's (a1a5, e1e2).
FIRST_IS_BAD = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"


class Gate:
    """A step of the worker held until the test opens it."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.opened = threading.Event()

    def hold(self) -> None:
        self.reached.set()
        assert self.opened.wait(30), "the test never opened the gate"


def held_probe(monkeypatch: pytest.MonkeyPatch) -> Gate:
    """The worker's first probe of the tablebase held (the table and the
    tablebase are loaded, at ``position``): it has no move of its own yet."""
    gate = Gate()

    def probe(table: tablebase.Tablebase, board: chess.Board) -> Verdict:
        if not gate.reached.is_set():
            gate.hold()
        return verdict_of(table, board)

    monkeypatch.setattr(Verdict, "of", probe)
    return gate


def wait_until(condition: Any) -> None:
    """A guard against a hang, not a measure: the condition comes from the
    engine's own threads (a timer of 10 ms here)."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.001)


# ------------------------------------- 14, 15: a move cut before the plan is made


@pytest.mark.parametrize("cut", ["stop", "clock"])
def test_a_move_cut_before_the_tablebase_is_probed_waits_for_its_move(monkeypatch, cut):
    """``stop`` (or the clock) before the worker has probed the tablebase:
    the answer is the tablebase's move, with its score, never the first
    legal move."""
    gate = held_probe(monkeypatch)
    gui = Gui()
    gui.ask(f"position fen {FIRST_IS_BAD}")
    gui.engine.handle("go infinite" if cut == "stop" else "go movetime 1")
    search = gui.engine.search
    assert search is not None and gate.reached.wait(30)
    if cut == "stop":
        gui.engine.handle("stop")
    else:
        wait_until(search.stop.is_set)  # the clock has run out
    assert not any(line.startswith("bestmove") for line in gui.sent)
    gate.opened.set()
    search.wait()
    table = tablebase.load("KRK")
    board = chess.Board(FIRST_IS_BAD)
    assert gui.bestmoves() == [table.best_moves(board)[0].uci()] == ["a1a5"]
    assert gui.sent[-3:] == [
        "info depth 1 score mate 14 pv a1a5",
        "info string cut before the plan was made: playing the tablebase move",
        "bestmove a1a5",
    ]


def test_a_move_cut_during_the_plan_plays_the_tablebase_move_with_its_score(monkeypatch):
    gate = Gate()
    plan = Planner.plan

    def held(planner: Planner, board: chess.Board, limits: Any = None) -> Any:
        gate.hold()
        return plan(planner, board, limits)

    monkeypatch.setattr(Planner, "plan", held)
    gui = Gui()
    gui.ask(f"position fen {FIRST_IS_BAD}")
    gui.engine.handle("go infinite")
    search = gui.engine.search
    assert search is not None and gate.reached.wait(30)
    gui.engine.handle("stop")
    assert gui.sent == [
        "info depth 1 score mate 14 pv a1a5",
        "info string cut before the plan was made: playing the tablebase move",
        "bestmove a1a5",
    ]
    gate.opened.set()
    search.wait()
    assert gui.bestmoves() == ["a1a5"]  # the worker's later lines are dropped


def test_a_short_search_cut_before_its_first_depth_sends_a_score(monkeypatch):
    gate = Gate()
    deepen = ShortSearch.deepen

    def held(searcher: ShortSearch, depth: int) -> Any:
        gate.hold()
        return deepen(searcher, depth)

    monkeypatch.setattr(ShortSearch, "deepen", held)
    gui = Gui(None)
    gui.ask("position startpos")
    gui.engine.handle("go infinite")
    search = gui.engine.search
    assert search is not None and gate.reached.wait(30)
    gui.engine.handle("stop")
    assert gui.sent[-3:] == [
        "info depth 0 score cp 0 pv a2a3",
        "info string cut before a search ended: playing the first legal move",
        "bestmove a2a3",
    ]
    gate.opened.set()
    search.wait()


def test_a_new_games_position_loads_its_tablebase_before_go(monkeypatch):
    """python-chess sends ``ucinewgame`` and ``isready`` before the new
    game's first position: its material's tablebase is loaded at
    ``position``, before the clock of ``go`` runs."""
    said: list[str] = []

    def load(tablebases: Tablebases, material: str) -> None:
        said.append(material)

    monkeypatch.setattr(Tablebases, "_load", load)  # loaded (here: heard) once per material
    engine = UciEngine(said.append)
    for line in ("ucinewgame", "isready", "position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1"):
        engine.handle(line)
    assert said == ["readyok", "KQK"]


# ------------------------------------------- 16: the score of the line al0 plays


def test_every_move_of_a_game_scores_the_line_al0_plays():
    """Against the tablebase's defence: a plan that mates scores its tree's
    height, any other the tablebase's distance after the move played, and
    the info string says where the tablebase's best differs."""
    table = tablebase.load("KRK")
    gui = Gui()
    board = chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
    moves: list[str] = []
    while not board.is_game_over():
        gui.ask(f"position fen {FIRST_IS_BAD} moves {' '.join(moves)}".rstrip())
        lines = gui.ask("go")
        move = chess.Move.from_uci(lines[-1].split()[1])
        info, said = lines[-3], lines[-2]
        reported = info.split(" score mate ")[1].split()[0]
        best = table.result(board).plies
        assert best is not None
        quickest = (best + 1) // 2
        if " score from the plan, a forcing tree to mate" in said:
            assert int(reported) >= quickest
        else:
            assert f"mate {reported}" == Verdict.of(table, board).move_score(move)
        if int(reported) != quickest:
            # The note ends the score's part of the line; the advice's words follow.
            assert said.split(" — ")[0].endswith(f"(the tablebase's best: mate {quickest})")
        board.push(move)
        moves.append(move.uci())
        if not board.is_game_over():
            reply = table.best_defence(board)
            board.push(reply)
            moves.append(reply.uci())
    assert board.is_checkmate()


# ------------------------------ 17: a won game is never drawn by the engine


def test_a_move_that_would_repeat_a_position_gives_way_to_the_tablebase():
    """The table's squeeze e6e3 from the book's position, back there after
    e6e3 c2c1 e3e6 c1c2: played again it would make the game cycle."""
    cycle = f"position fen {BOOK_FEN} moves e6e3 c2c1 e3e6 c1c2"
    gui = Gui()
    gui.ask(f"position fen {BOOK_FEN}")
    assert gui.ask("go")[-1] == "bestmove e6e3"
    gui.ask(cycle)
    lines = gui.ask("go")
    # A new plan: the remembered one comes back, so squeeze is searched again
    # without the game's positions, and has no other tree.
    assert lines == [
        "info depth 1 score mate 8 pv d4c4",
        "info string rule else_rule advice squeeze (new plan): its move e6e3 "
        "would repeat a position of the game: playing the tablebase move",
        "bestmove d4c4",
    ]
    # Switched off, the table plays its own move, whatever it leads to.
    assert gui.ask("setoption name TablebaseRescue value false") == []
    gui.ask(cycle)
    assert gui.ask("go")[-1] == "bestmove e6e3"
    assert gui.ask("setoption name TablebaseRescue value maybe") == [
        "info string ignored setoption: TablebaseRescue is true or false, not 'maybe'"
    ]
    assert gui.engine.choice.rescue is False


@pytest.mark.parametrize(
    "fen, move, why",
    [
        (BOOK_FEN, "e6e3", None),  # slower than the tablebase's, and allowed
        (BOOK_FEN, "d4c4", None),
        ("k7/2K5/8/8/8/8/8/1R6 w - - 0 1", "b1b7", "would throw the win away"),  # stalemate
        ("8/8/8/8/8/8/2k5/K3R3 w - - 0 1", "e1d1", "would throw the win away"),  # the rook hangs
        # 15 plies to mate by the tablebase, 19 after e6e3: 85 + 15 fit in the
        # fifty-move rule's 100, 85 + 19 do not.
        (BOOK_FEN.replace(" 0 1", " 85 1"), "e6e3", "would leave the mate past the fifty-move rule"),
        (BOOK_FEN.replace(" 0 1", " 85 1"), "d4c4", None),
        # Past saving: every way is too long, the table's is as good as any.
        (BOOK_FEN.replace(" 0 1", " 90 1"), "e6e3", None),
        # Not won for the side to move: nothing to keep.
        ("8/8/4R3/8/3K4/8/2k5/8 b - - 0 1", "c2b2", None),
    ],
)
def test_why_the_tables_move_gives_way(fen, move, why):
    assert (
        why_not(
            Verdict.of(tablebase.load("KRK"), chess.Board(fen)), chess.Board(fen), chess.Move.from_uci(move)
        )
        == why
    )


@pytest.mark.parametrize(
    "move, why",
    [
        ("c8d7", "would throw the draw away"),  # kpk_hold's tree once played it: mated in 16
        ("c8c7", None),  # the only move that keeps the draw
        ("c8b8", "would throw the draw away"),
        ("c8d8", "would throw the draw away"),
    ],
)
def test_a_move_that_loses_a_draw_gives_way(move, why):
    board = chess.Board("2k5/8/8/2K5/4P3/8/8/8 b - - 4 3")
    assert why_not(Verdict.of(tablebase.load("KPK"), board), board, chess.Move.from_uci(move)) == why


def test_a_move_that_lets_their_reply_repeat_a_position_a_third_time_gives_way():
    """The book's position twice (e6e5 c2c1 e5e6 c1c2), then e6e5 c2b1: the
    rook back to e6 leads to a new position (the king on b1), from which
    b1c2 brings the book's position the third time. The positions after
    our moves all differ, and theirs still close the cycle (how KBNK drew
    one game in ten at 10+0.1 before this check)."""
    board = chess.Board(BOOK_FEN)
    for move in ("e6e5", "c2c1", "e5e6", "c1c2", "e6e5", "c2b1"):
        board.push_uci(move)
    table = tablebase.load("KRK")
    assert (
        why_not(Verdict.of(table, board), board, chess.Move.from_uci("e5e6"))
        == "would let b1c2 repeat a position a third time"
    )
    board.push_uci("e5e6")
    board.push_uci("b1c2")
    assert board.is_repetition(3)


def test_where_every_quickest_move_repeats_the_rescue_takes_a_slower_one():
    """e1e3 is the only quickest move, and it repeats: a slower win that
    repeats nothing is played (one game of KBNK in ten at 10+0.1 was drawn
    by threefold repetition where the tablebase's one quickest move
    repeated)."""
    board = chess.Board("8/8/8/8/8/8/2k5/K3R3 w - - 0 1")
    table = tablebase.load("KRK")
    assert table.best_moves(board) == [chess.Move.from_uci("e1e3")]
    for move in ("e1e3", "c2d2", "e3e1", "d2c2"):
        board.push_uci(move)
    move = rescue_move(Verdict.of(table, board), board)
    assert move != chess.Move.from_uci("e1e3")
    after = board.copy()
    after.push(move)
    assert table.result(after).winner == chess.WHITE and not after.is_repetition(2)
    # The engine says so, and scores the move it plays, not the quickest.
    gui = Gui(str(TEST_TABLES / "krk_no_plan.yaml"))  # the tablebase plays every move
    gui.ask("position fen 8/8/8/8/8/8/2k5/K3R3 w - - 0 1 moves e1e3 c2d2 e3e1 d2c2")
    lines = gui.ask("go")
    assert lines[-1] == f"bestmove {move.uci()}"
    assert lines[-3] == f"info depth 1 score {Verdict.of(table, board).move_score(move)} pv {move.uci()}"
    assert lines[-2] == (
        "info string no plan: no rule's precondition holds: playing the "
        "tablebase move (its quickest, mate 12, would repeat a position)"
    )


def test_the_rescue_keeps_the_fifty_move_rule_before_it_avoids_a_repetition():
    """As above, 77 plies into the fifty-move count: e1e3 mates on the
    hundredth ply, every slower win after it, so e1e3 is played though it
    repeats (a second time: no draw yet). A KBNK game at 10+0.1 was drawn
    by the fifty-move rule when the slower move was taken."""
    board = chess.Board("8/8/8/8/8/8/2k5/K3R3 w - - 73 1")
    for move in ("e1e3", "c2d2", "e3e1", "d2c2"):
        board.push_uci(move)
    assert board.halfmove_clock + tablebase.load("KRK").result(board).plies == 100
    assert rescue_move(Verdict.of(tablebase.load("KRK"), board), board) == chess.Move.from_uci("e1e3")


@pytest.mark.parametrize(
    "fen, move, now, then, past",
    [
        # Clock 99: a king move leaves a mate 20 plies on past the rule.
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 99 80", "e1d1", 1, 20, True),
        # A pawn's move starts the count again: 20 plies on are within it.
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 99 80", "e2e4", 1, 20, False),
        # So does a capture.
        ("8/8/8/8/8/2k5/3r4/K2R4 w - - 99 80", "d1d2", 1, 20, False),
        # Where the quickest play is past the rule already, no move is blamed.
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 99 80", "e1d1", 5, 20, False),
    ],
)
def test_a_move_leaves_the_mate_past_the_fifty_move_rule_unless_it_resets_the_count(
    fen, move, now, then, past
):
    assert past_fifty(chess.Board(fen), chess.Move.from_uci(move), now, then) is past


def test_the_rescue_prefers_a_quickest_move_that_repeats_nothing():
    board = chess.Board(BOOK_FEN)
    table = tablebase.load("KRK")
    assert rescue_move(Verdict.of(table, board), board) == chess.Move.from_uci("d4c4")
    # d4c4 c2b2 c4d4 b2c2: d4c4 again would repeat; e6b6 mates as soon.
    for move in ("d4c4", "c2b2", "c4d4", "b2c2"):
        board.push_uci(move)
    assert rescue_move(Verdict.of(table, board), board) == chess.Move.from_uci("e6b6")


# ------------------------------------------------------- 18: no stale figures


def test_a_plan_from_memory_reports_no_other_searchs_nodes_and_time():
    gui = Gui()
    gui.ask(f"position fen {BOOK_FEN}")
    first = gui.ask("go")
    assert " nodes 7 " in first[0] and "(new plan)" in first[1]
    gui.ask("ucinewgame")
    gui.ask(f"position fen {BOOK_FEN}")
    again = gui.ask("go")
    assert again[0].startswith("info depth 1 score mate 10 nodes 0 time 0 pv e6e3")
    assert "(plan from memory: no search)" in again[1]
    # The mirror image is planned as the same class: from memory too.
    gui.ask("position fen 8/8/3R4/8/4K3/8/5k2/8 w - - 0 1")
    mirrored = gui.ask("go")
    assert " nodes 0 time 0 " in mirrored[0] and "(plan from memory: no search)" in mirrored[1]


def test_uciok_comes_before_the_engine_is_made():
    made: list[int] = []
    sent: list[str] = []

    def make() -> UciEngine:
        made.append(1)
        return UciEngine(sent.append, budget=5)

    handshake.serve_handshake_first(iter(["uci", "quit", "isready"]), sent.append, make, 5, "auto")
    assert made == [] and sent == handshake.identify(5, "auto", True)
    assert sent[-1] == "uciok"
    sent.clear()
    handshake.serve_handshake_first(iter(["uci", "debug on", "isready", "uci"]), sent.append, make, 5, "auto")
    assert made == [1]
    assert sent == handshake.identify(5, "auto", True) + ["readyok"] + handshake.identify(5, "auto", True)


def test_al0_uci_answers_uciok_without_the_heavy_imports():
    """The command as a GUI starts it: by ``uciok`` no tablebase, numpy,
    verify or engine module has been imported."""
    heavy = (
        "numpy",
        "yaml",
        "al0.tablebase",
        "al0.verify",
        "al0.uci.protocol",
        "al0.uci.short_search",
        "al0.cli.verify",
        "al0.cli.play",
    )
    code = (
        "import io, sys\n"
        "sys.stdin = io.StringIO('uci\\nquit\\n')\n"
        "from al0.cli import cli\n"
        "try:\n    cli(['uci'])\nexcept SystemExit:\n    pass\n"
        f"print([name for name in {heavy!r} if name in sys.modules], file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.stdout.splitlines() == handshake.identify(1_000_000, "auto", True)
    assert run.stderr.strip() == "[]"
