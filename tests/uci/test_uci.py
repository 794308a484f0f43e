"""``al0 uci``: an advice table as a UCI engine, driven by python-chess's own
UCI client for whole games and by single protocol lines for the rest."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from typing import Any

import chess
import chess.engine
import pytest
from uci_gui import KRK, Gui

from al0 import __version__, tablebase
from al0.board.fen import read_epd
from al0.engine.defenders import TablebaseDefender
from al0.engine.limits import SearchLimits
from al0.engine.plan import DEFAULT_BUDGET, Planner
from al0.engine.play import OurMove, TheirMove, play_game
from al0.engine.tablebases import Tablebases
from al0.errors import SearchBudgetExceeded
from al0.lang.loader import load_table
from al0.uci import UciEngine, parse_position, serve
from al0.uci.go import LONGEST_THINK, MARGIN, Go, parse_go
from al0.uci.protocol import LONGEST_LINE
from al0.uci.rescue import rescue_move
from al0.uci.scores import playable, table_score
from al0.uci.short_search import ShortSearch
from al0.uci.verdict import Verdict
from conftest import LIBRARIES, POSITIONS, TEST_TABLES

NO_PLAN = str(TEST_TABLES / "krk_no_plan.yaml")
DEEP = str(TEST_TABLES / "krk_deep_mate.yaml")
GAMES = POSITIONS / "krk_uci_games.epd"
BOOK_FEN = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
KRRK_MATE_IN_ONE = "6k1/8/6K1/8/8/8/R7/1R6 w - - 0 1"
COMMAND = [sys.executable, "-m", "al0", "uci"]


def bestmove(lines: list[str]) -> str:
    assert lines[-1].startswith("bestmove "), lines
    return lines[-1].split()[1]


# ------------------------------------------- whole games, python-chess's client


@pytest.mark.parametrize("start", [board.fen() for _, board in read_epd(str(GAMES))])
def test_engine_mates_the_tablebase_defender_as_al0_play_does(start):
    """The engine's game is the play loop's game, move for move: it follows
    its forcing tree between moves just as ``al0 play`` does."""
    table = load_table(KRK)
    defender = TablebaseDefender("KRK")
    expected = [
        event.move
        for event in play_game(Planner(table), chess.Board(start), defender)
        if isinstance(event, (OurMove, TheirMove))
    ]
    board = chess.Board(start)
    infos = []
    with chess.engine.SimpleEngine.popen_uci(COMMAND + [KRK]) as engine:
        assert engine.id["name"] == f"al0 {__version__}"
        while not board.is_game_over():
            if board.turn == chess.WHITE:
                result = engine.play(
                    board, chess.engine.Limit(nodes=DEFAULT_BUDGET), info=chess.engine.INFO_ALL
                )
                assert result.move in board.legal_moves
                infos.append(result.info)
                board.push(result.move)
            else:
                board.push(defender(board))
    assert board.is_checkmate()
    assert board.move_stack == expected
    assert all(info["string"].startswith("rule ") for info in infos)
    assert all(info["pv"][0] == move for info, move in zip(infos, board.move_stack[::2]))
    # Every move has a distance to mate: of the line al0 plays.
    mates = [info["score"].relative.mate() for info in infos]
    assert all("; score from the " in info["string"] for info in infos)
    assert all(mate > 0 for mate in mates) and mates[-1] == 1
    # Between plans the tree is followed, not rebuilt.
    assert any("(following the tree)" in info["string"] for info in infos)


def test_engine_answers_malformed_input_and_keeps_going():
    lines = [
        "uci",
        "isready",
        "xyzzy",
        "position fen not a fen",
        "go",
        "position startpos moves e2e4 e7e6 d2d5",
        "go movetime 10",
        f"position fen {BOOK_FEN} moves e6e3 zz",
        "go",
        f"position fen {BOOK_FEN}",
        "go wtime 10000 btime 1000 winc 0 binc 0",
    ]
    # At the end of the input the last search finishes and answers.
    run = subprocess.run(
        COMMAND + [KRK], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    out = run.stdout.splitlines()
    assert out[:7] == [
        f"id name al0 {__version__}",
        "id author al0",
        "option name Budget type spin default 1000000 min 1 max 1000000000",
        f"option name Table type string default {KRK}",
        "option name TablebaseRescue type check default true",
        "uciok",
        "readyok",
    ]
    assert "info string ignored unknown command 'xyzzy'" in out
    assert [line for line in out if line.startswith("bestmove")] == [
        "bestmove (none)",
        "bestmove (none)",
        "bestmove (none)",
        "bestmove e6e3",
    ]
    refused = [line for line in out if line.startswith("info string position refused")]
    assert "bad FEN 'not a fen'" in refused[0]
    assert "illegal move 'd2d5'" in refused[1]
    assert "bad move 'zz'" in refused[2]


@pytest.mark.parametrize(
    "line",
    [
        "position fen " + "x" * 100_000,  # quoted twice: ours and python-chess's error
        "y" * 100_000,
        "setoption name Table value " + "z" * 100_000,
        "go depth 1 nodes " + "9" * 100_000,
    ],
    ids=["fen", "unknown command", "table", "go value"],
)
def test_a_long_line_is_answered_in_lines_of_bounded_length(line):
    # Every info string once quoted the GUI's line whole: 10 MB back for 5 MB.
    answers = Gui().ask(line)
    assert answers[0].startswith("info string ")
    assert all(len(answer) <= LONGEST_LINE for answer in answers), [len(a) for a in answers]


def test_uci_command_with_a_broken_table_fails_before_the_protocol(tmp_path):
    missing = str(tmp_path / "missing.yaml")
    run = subprocess.run(COMMAND + [missing], input="uci\n", capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stdout == ""
    assert missing in run.stderr and "Traceback" not in run.stderr


# ------------------------------------------- as a GUI meets it, in a subprocess


def test_a_gui_gets_readyok_and_bestmove_at_once_during_a_long_search():
    """A table that searches for minutes (mate in nine over every legal
    move): ``isready`` and ``stop`` are answered while it thinks, ``stop``
    with a legal move (which one: the in-process tests below), and ``quit``
    ends the process without waiting for the search. The bounds are on the
    answers, generous beside the search's minutes, so a loaded machine
    passes them."""
    engine = subprocess.Popen(
        COMMAND + [DEEP],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert engine.stdin is not None and engine.stdout is not None

    def send(line: str) -> float:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        return time.monotonic()

    def answer(prefix: str) -> tuple[str, float]:
        for line in engine.stdout:  # the test's timeout guards a hang
            if line.startswith(prefix):
                return line.strip(), time.monotonic()
        raise AssertionError(f"the engine ended before {prefix!r}")

    try:
        send("uci")
        answer("uciok")
        send(f"position fen {BOOK_FEN}")
        send("go infinite")
        asked = send("isready")
        _, answered = answer("readyok")
        assert answered - asked < 5
        asked = send("stop")
        line, answered = answer("bestmove")
        assert answered - asked < 5
        assert chess.Move.from_uci(line.split()[1]) in chess.Board(BOOK_FEN).legal_moves
        # A search that never ends by itself, cut by quit.
        send("go infinite")
        asked = send("quit")
        engine.wait(timeout=30)
        assert time.monotonic() - asked < 5  # the search alone would take minutes
        assert engine.returncode == 0
    finally:
        engine.kill()
        engine.communicate()


def test_python_chess_shows_the_score_and_the_short_search_mates(tmp_path):
    """Through python-chess, with no table given (as a GUI starts an engine):
    the bundled KRK table plays KRK with the tablebase's mate score; a KRRK
    position (no table's material) gets the short search, which mates at once.
    The engine's cache is its own: a KRRK tablebase another test left on disk
    would be played instead of the search."""
    env = {**os.environ, "AL0_CACHE_DIR": str(tmp_path)}
    with chess.engine.SimpleEngine.popen_uci(COMMAND, env=env) as engine:
        assert engine.options["Table"].default == "auto"
        result = engine.play(
            chess.Board(BOOK_FEN), chess.engine.Limit(nodes=DEFAULT_BUDGET), info=chess.engine.INFO_ALL
        )
        assert result.move == chess.Move.from_uci("e6e3")
        # The table's squeeze leaves a mate in 10, the tablebase's best mates in 8.
        assert result.info["score"].relative == chess.engine.Mate(10)
        assert result.info["string"].startswith("rule else_rule advice squeeze")
        board = chess.Board(KRRK_MATE_IN_ONE)
        result = engine.play(board, chess.engine.Limit(depth=2), info=chess.engine.INFO_ALL)
        board.push(result.move)
        assert board.is_checkmate()
        assert result.info["score"].relative == chess.engine.Mate(1)
        # A fixed table says the position is not its own, in words.
        engine.configure({"Table": "krk"})
        analysis = engine.analyse(
            chess.Board(KRRK_MATE_IN_ONE), chess.engine.Limit(depth=1), info=chess.engine.INFO_ALL
        )
        assert analysis["string"] == "not a KRK position: playing a short search"
        assert analysis["score"].relative == chess.engine.Mate(1)


# ------------------------------------------------------ the protocol, in process


@pytest.mark.parametrize(
    "table, position, loads",
    [
        (KRK, f"fen {BOOK_FEN}", ["KRK"]),
        (None, f"fen {BOOK_FEN}", ["KRK"]),  # Table auto: the bundled krk plays it
        (None, "fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1", ["KQK"]),
        (None, "startpos", []),  # no table plays it: nothing to load
        (KRK, "startpos", ["KRK"]),  # the table given: its own material
    ],
)
def test_isready_loads_the_tablebase_a_first_go_would_need_before_readyok(
    monkeypatch, table, position, loads
):
    said: list[str] = []

    def load(tablebases: Tablebases, material: str) -> None:
        said.append(material)

    monkeypatch.setattr(Tablebases, "_load", load)  # loaded (here: heard) once per material
    engine = UciEngine(said.append, None if table is None else load_table(table))
    engine.handle(f"position {position}")
    engine.handle("isready")
    assert said == loads + ["readyok"]


def test_handshake_and_ignored_commands():
    gui = Gui()
    assert gui.ask("uci") == [
        f"id name al0 {__version__}",
        "id author al0",
        "option name Budget type spin default 1000000 min 1 max 1000000000",
        f"option name Table type string default {KRK}",
        "option name TablebaseRescue type check default true",
        "uciok",
    ]
    assert gui.ask("isready") == ["readyok"]
    for line in (
        "debug on",
        "register later",
        "ucinewgame",
        "",
        "setoption name Budget value 5000",
    ):
        assert gui.ask(line) == []
    # Unknown words before a known command are skipped, as the protocol asks.
    assert gui.ask("joho isready") == ["readyok"]
    assert not gui.engine.finished
    assert gui.ask("quit") == [] and gui.engine.finished


def test_nothing_is_read_after_quit():
    gui = Gui()
    serve(gui.engine, iter(["quit", f"position fen {BOOK_FEN}", "go"]))
    assert gui.sent == []


def test_budget_option_bounds_the_search():
    gui = Gui()
    gui.ask("setoption name Budget value 3")
    assert gui.engine.choice.budget == 3
    gui.ask(f"position fen {BOOK_FEN}")
    lines = gui.ask("go")
    # Three nodes are too few for a plan: the search stops and the fallback plays.
    assert lines[0] == "info depth 1 score mate 8 pv d4c4"
    assert lines[1] == (
        f"info string advice 'squeeze': node budget of 3 spent searching from "
        f"{BOOK_FEN}: playing the tablebase move"
    )
    assert chess.Move.from_uci(bestmove(lines)) in chess.Board(BOOK_FEN).legal_moves
    assert gui.ask("setoption name Budget value 0") == [
        "info string ignored setoption: Budget must be a whole number from 1 to 1000000000, not 0"
    ]
    assert gui.engine.choice.budget == 3


def test_go_nodes_bounds_the_plan_as_the_budget_does():
    gui = Gui()
    gui.ask(f"position fen {BOOK_FEN}")
    lines = gui.ask("go nodes 3")
    assert "node budget of 3 spent" in lines[1]
    assert gui.ask("go nodes 100")[1].startswith("info string rule else_rule advice squeeze")


@pytest.mark.parametrize(
    "value, why",
    [
        ("\u00b2", "must be a whole number from 1 to 1000000000, not '\u00b2'"),  # isdigit() said yes
        ("\u0663", "must be a whole number from 1 to 1000000000, not '\u0663'"),  # int() said 3
        ("9" * 5000, "is too large (at most 18 digits)"),  # over Python's int() limit
        ("1_000", "not '1_000'"),
        ("-5", "not '-5'"),
        ("0x10", "not '0x10'"),
    ],
)
def test_a_bad_budget_is_ignored_and_the_engine_goes_on(value, why):
    # A GUI sends what its user typed: the engine must answer, never die.
    gui = Gui()
    answers = gui.ask(f"setoption name Budget value {value}")
    assert answers[0].startswith("info string ignored setoption: Budget ") and why in answers[0]
    assert len(answers[0]) < 200
    assert gui.engine.choice.budget == 1_000_000
    gui.ask(f"position fen {BOOK_FEN}")
    assert gui.ask("go")[-1].startswith("bestmove ")


def test_keeps_the_tree_while_the_gui_stays_in_it():
    gui = Gui()
    gui.ask(f"position fen {BOOK_FEN}")
    first = gui.ask("go")
    assert first[0].split()[:8] == "info depth 1 score mate 10 nodes 7".split()
    assert first[0].endswith(" pv e6e3")
    # The advice in the table's words ends the line, on the one line.
    squeeze = " ".join(load_table(KRK).advice["squeeze"].description.split())
    assert squeeze and first[1] == (
        "info string rule else_rule advice squeeze (new plan); score from the "
        f"tablebase after the plan's move (the tablebase's best: mate 8) — {squeeze}"
    )
    assert bestmove(first) == "e6e3"
    # squeeze's tree ends after our move: the reply makes a new plan.
    second = gui.ask(f"position fen {BOOK_FEN} moves e6e3 c2c1")
    assert second == []
    assert "(new plan)" in gui.ask("go")[1]
    # Deep trees are followed: mate_in_2 from here.
    gui.ask("ucinewgame")
    gui.ask("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1")
    lines = gui.ask("go")
    assert "advice mate_in_2 (new plan)" in lines[1]
    assert " score mate 2 " in lines[0]
    ours = bestmove(lines)
    board = chess.Board("k7/8/2K5/8/8/8/8/7R w - - 0 1")
    board.push_uci(ours)
    reply = min(board.legal_moves, key=chess.Move.uci)
    # The GUI may send the position as a FEN without the moves: still followed.
    board.push(reply)
    gui.ask(f"position fen {board.fen()}")
    lines = gui.ask("go")
    mate_in_2 = " ".join(load_table(KRK).advice["mate_in_2"].description.split())
    assert lines[1] == (
        "info string rule edge_rule advice mate_in_2 (following the tree); "
        f"score from the plan, a forcing tree to mate — {mate_in_2}"
    )
    assert lines[0] == f"info depth 1 score mate 1 nodes 0 time 0 pv {bestmove(lines)}"
    board.push_uci(bestmove(lines))
    assert board.is_checkmate()


def test_a_position_the_gui_changed_gets_a_new_plan():
    gui = Gui()
    gui.ask(f"position fen {BOOK_FEN}")
    gui.ask("go")
    gui.ask("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1")
    assert "(new plan)" in gui.ask("go")[1]


def test_go_infinite_holds_the_move_until_stop():
    gui = Gui()
    gui.ask(f"position fen {BOOK_FEN}")
    lines = gui.ask("go infinite")
    assert lines and not any(line.startswith("bestmove") for line in lines)
    assert gui.ask("stop") == ["bestmove e6e3"]
    assert gui.ask("stop") == []  # a stop with nothing to stop
    gui.ask("go ponder")
    assert gui.ask("ponderhit") == ["bestmove e6e3"]
    # A new command stops a held search: its move goes out first.
    gui.ask("go infinite")
    assert gui.ask("position startpos") == ["bestmove e6e3"]


class HeldPlan:
    """The planner's search held at its start until the test lets it go
    (then it runs, and sees the stop flag): what the engine answers while
    a search runs, whatever the machine's speed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.started = threading.Event()
        self.release = threading.Event()
        plan = Planner.plan

        def held(planner: Planner, board: chess.Board, limits: SearchLimits | None = None):
            self.started.set()
            assert self.release.wait(30), "the test never let the search go"
            return plan(planner, board, limits)

        monkeypatch.setattr(Planner, "plan", held)


def test_stop_answers_the_best_move_known_before_the_search_ends(monkeypatch):
    """The search runs in a worker: stop answers before it has ended, with
    the tablebase's move while the deep table's search goes on."""
    held = HeldPlan(monkeypatch)
    gui = Gui(DEEP)
    gui.engine.handle(f"position fen {BOOK_FEN}")
    gui.engine.handle("go infinite")
    search = gui.engine.search
    assert search is not None
    assert held.started.wait(30)  # in the plan's search: the tablebase was probed before it
    gui.engine.handle("stop")
    assert not search.done
    assert gui.sent[-1] in {
        f"bestmove {move.uci()}" for move in tablebase.load("KRK").best_moves(chess.Board(BOOK_FEN))
    }
    held.release.set()
    search.wait()
    assert search.done and gui.sent[-1].startswith("bestmove")  # the worker said nothing after it
    assert sum(line.startswith("bestmove") for line in gui.sent) == 1


def test_the_clock_answers_for_a_search_that_would_go_on(monkeypatch):
    """``go movetime``: when the time is up the move goes out, the deep
    table's search still running (it is then told to stop)."""
    held = HeldPlan(monkeypatch)
    gui = Gui(DEEP)
    gui.engine.handle(f"position fen {BOOK_FEN}")
    gui.engine.handle("go movetime 300")
    search = gui.engine.search
    assert search is not None
    assert held.started.wait(30)
    deadline = time.monotonic() + 30  # a guard against a hang, not a measure
    while not search.answered and time.monotonic() < deadline:
        time.sleep(0.01)
    assert search.stop.is_set() and not search.done
    assert gui.sent[-1].startswith("bestmove ")
    held.release.set()
    search.wait()
    assert search.done and sum(line.startswith("bestmove") for line in gui.sent) == 1


@pytest.mark.parametrize(
    "position, why",
    [
        ("startpos", "not a KRK position: playing a short search"),
        # Five men: no tablebase (with one, its move is played: below).
        ("fen 8/8/4r3/8/3K4/8/2k5/6NR w - - 0 1", "not a KRK position: playing a short search"),
    ],
)
def test_outside_the_table_a_short_search(position, why):
    gui = Gui()
    gui.ask(f"position {position}")
    lines = gui.ask("go depth 2")
    assert lines[0] == f"info string {why}"
    assert [line.split()[2] for line in lines[1:-1]] == ["1", "2"]
    board = parse_position(position.split())
    assert chess.Move.from_uci(bestmove(lines)) in board.legal_moves


def test_a_position_no_table_plays_gets_its_tablebases_move():
    """KRK won by Black, Black to move: no bundled table plays it (``krk``
    plays White), and the KRK tablebase is on disk: its move at once,
    whatever the clock. The short search, cut before its first depth at
    1+0.01, played the first legal move (a queen hung in a won KQKR: see
    the KQKR test above)."""
    table = tablebase.load("KRK")
    gui = Gui(None)
    fen = "8/8/4r3/8/3k4/8/2K5/8 b - - 0 1"
    gui.ask(f"position fen {fen}")
    gui.ask("isready")  # the tablebase on disk is loaded now, not on the clock
    lines = gui.ask("go btime 2000")
    board = chess.Board(fen)
    assert lines[-2:] == [
        "info string no bundled table plays this position: playing the tablebase move",
        f"bestmove {rescue_move(Verdict.of(table, board), board).uci()}",
    ]
    assert chess.Move.from_uci(bestmove(lines)) in table.best_moves(board)


def test_with_table_auto_each_position_finds_its_table_by_material_and_colour():
    """KRK with Black's rook, Black to move: the KRK table plays White, so
    the tablebase plays; then KRK with White's rook: the KRK table again
    (it was forgotten for KRK until ``ucinewgame``). The KRK tablebase is
    on disk first, as in the test above: run alone (or first on its
    worker) the go found none cached and played the short search."""
    tablebase.load("KRK")
    gui = Gui(None)
    gui.ask("position fen 8/8/4r3/8/3k4/8/2K5/8 b - - 0 1")
    assert gui.ask("go")[1] == "info string no bundled table plays this position: playing the tablebase move"
    gui.ask(f"position fen {BOOK_FEN}")
    assert gui.ask("go")[1].startswith("info string rule ")


def test_with_table_auto_the_lone_king_holds_with_the_table_of_its_material():
    """KPK with the lone king to move: no table is named KKP, and
    ``kpk_hold`` (material KKP) plays it, as it plays Black."""
    gui = Gui(None)
    gui.ask("position fen 8/8/8/4k3/8/8/4P3/4K3 b - - 0 1")
    assert gui.ask("go depth 1")[1].startswith("info string rule ")


@pytest.mark.parametrize(
    "line, answer",
    [
        ("setoption name Table value kr\x00k", "info string ignored Table 'kr\\x00k': "),
        ("setoption name Budget value 1\x00", "info string ignored setoption: "),
        ("setoption name TablebaseRescue value tr\x00ue", "info string ignored setoption: "),
        ("position fen 8/8/4R3/8/3K4/8/2k5/8\x00 w - - 0 1", "info string position refused: "),
    ],
)
def test_a_nul_byte_in_a_value_is_refused_and_the_engine_answers_on(line, answer):
    gui = Gui()
    assert gui.ask(line)[0].startswith(answer)
    assert gui.ask("isready")[-1] == "readyok"  # after the tablebase's build, if it was not built


@pytest.mark.parametrize("table", [None, NO_PLAN])
def test_one_go_asks_the_tablebase_once(table, monkeypatch):
    """The floor, the rescue, the fallback and the score read one
    :class:`Verdict` (one ``go`` entered the tablebase seven times)."""
    asked: list[str] = []
    of = Verdict.of

    def counted(tablebase: Any, board: chess.Board) -> Verdict:
        asked.append(board.fen())
        return of(tablebase, board)

    monkeypatch.setattr(Verdict, "of", counted)
    for name in ("best_moves", "best_defence"):
        monkeypatch.setattr(tablebase.Tablebase, name, lambda *_: pytest.fail("asked past the verdict"))
    gui = Gui(table)
    gui.ask(f"position fen {BOOK_FEN}")
    assert gui.ask("go")[-1].startswith("bestmove ") and asked == [BOOK_FEN]


def test_a_command_that_fails_is_said_and_a_go_still_answers(monkeypatch):
    """Whatever a handler meets (here: a bug, made), the engine says so and
    reads on; a ``go`` that started no search answers no move."""

    def broken(*_: Any) -> Any:
        raise RuntimeError("made to fail")

    monkeypatch.setattr("al0.uci.protocol.parse_go", broken)
    gui = Gui()
    assert gui.ask("go") == ["info string could not handle 'go': made to fail", "bestmove (none)"]
    assert gui.ask("isready")[-1] == "readyok"


def test_their_side_of_the_table_gets_the_tablebase_move():
    gui = Gui()
    gui.ask("position fen 8/8/4R3/8/3K4/8/2k5/8 b - - 0 1")
    lines = gui.ask("go")
    assert lines[1] == ("info string the table plays White, not the side to move: playing the tablebase move")
    board = chess.Board("8/8/4R3/8/3K4/8/2k5/8 b - - 0 1")
    assert chess.Move.from_uci(bestmove(lines)) == tablebase.load("KRK").best_defence(board)
    assert lines[0] == f"info depth 1 score mate -8 pv {bestmove(lines)}"


def test_the_table_goes_on_after_we_take_their_piece():
    """A KQKR table keeps playing once the queen has taken the rook (KQK): its
    rules say what to do then, as in al0 play. KQKR is built into the run's
    cache first, so the engine loads it and has no build to tell of (and
    with no table, the tablebase plays KQKR: one build for both)."""
    tablebase.load("KQKR")
    gui = Gui(str(LIBRARIES / "kqkr_win_rook.yaml"))
    gui.ask("position fen 8/8/3k4/8/4r3/8/2Q5/3K4 w - - 0 1")
    lines = gui.ask("go")
    assert lines[1:] == [
        "info string rule win_rook advice fork (new plan); score from the tablebase",
        "bestmove c2e4",
    ]
    gui.ask("position fen 8/8/3k4/8/4r3/8/2Q5/3K4 w - - 0 1 moves c2e4 d6c7")
    lines = gui.ask("go")
    assert lines[1].startswith("info string rule lone_king advice squeeze (new plan)")
    # Their piece back and ours gone: not the table's material, but the
    # tablebase's (KRK, loaded with KQKR's captures).
    gui.ask("position fen 8/8/3k4/8/4r3/8/8/3K4 w - - 0 1")
    assert gui.ask("go")[1] == "info string not a KQKR position: playing the tablebase move"
    # With no table named (Table auto), a won KQKR on a short clock is
    # played by the bundled kqkr table or the tablebase, and keeps the win:
    # a short search cut before its first depth once hung the queen with
    # the first legal move.
    auto = Gui(None)
    auto.ask("position fen rk6/8/8/8/3Q4/8/7K/8 w - - 0 1 moves d4b6 b8c8")
    auto.ask("isready")
    lines = auto.ask("go wtime 2000")
    board = chess.Board("rk6/8/8/8/3Q4/8/7K/8 w - - 0 1")
    for move in ("d4b6", "b8c8"):
        board.push_uci(move)
    board.push_uci(bestmove(lines))
    assert tablebase.load("KQKR").result(board).winner == chess.WHITE


@pytest.mark.parametrize("promotion, reply, table", [("a7a8q", "h1h2", "kqk"), ("a7a8r", "h1g2", "krk")])
def test_the_table_hands_the_game_on_after_the_pawn_promotes(promotion, reply, table):
    """kpk_push promotes; the bundled table of the new piece (an under-
    promotion's too) plays the next move, named in the info string."""
    gui = Gui(str(TEST_TABLES / "kpk_push.yaml"))
    start = "position fen 8/P7/8/8/8/8/8/K6k w - - 0 1"
    gui.ask(start)
    lines = gui.ask("go")
    assert lines[-2].startswith("info string rule push advice promote (new plan)")
    assert lines[-1] == "bestmove a7a8q"
    gui.ask(f"{start} moves {promotion} {reply}")
    lines = gui.ask("go")
    assert lines[-2].startswith(f"info string table {table} rule ")
    board = chess.Board("8/P7/8/8/8/8/8/K6k w - - 0 1")
    board.push_uci(promotion)
    board.push_uci(reply)
    assert chess.Move.from_uci(bestmove(lines)) in board.legal_moves


def test_the_table_hands_the_game_on_after_we_take_their_piece():
    """kqkr_take knows no KQK: once the rook is taken the bundled kqk table
    plays, named, and the tree of the capture is not followed into it."""
    tablebase.load("KQKR")
    gui = Gui(str(TEST_TABLES / "kqkr_take.yaml"))
    start = "position fen 8/8/3k4/8/4r3/8/2Q5/3K4 w - - 0 1"
    gui.ask(start)
    assert gui.ask("go")[1:] == [
        "info string rule win_rook advice take (new plan); score from the tablebase — Take the rook now.",
        "bestmove c2e4",
    ]
    gui.ask(f"{start} moves c2e4 d6c7")
    lines = gui.ask("go")
    assert lines[1].startswith("info string table kqk rule drive advice squeeze_half (new plan)")
    assert lines[-1] == "bestmove e4d5"


def test_no_plan_falls_back_to_the_tablebase():
    gui = Gui(NO_PLAN)
    gui.ask(f"position fen {BOOK_FEN}")
    lines = gui.ask("go")
    assert lines[1] == ("info string no plan: no rule's precondition holds: playing the tablebase move")
    board = chess.Board(BOOK_FEN)
    assert chess.Move.from_uci(bestmove(lines)) in tablebase.load("KRK").best_moves(board)


def test_game_over_answers_no_move():
    gui = Gui()
    gui.ask("position fen k7/2K5/8/8/8/8/8/R7 b - - 0 1")  # Black is mated
    assert gui.ask("go") == ["info string the game is over: no legal move", "bestmove (none)"]


def test_the_table_option_picks_a_table_or_the_positions_own():
    gui = Gui(None)
    gui.ask("position fen 8/8/4Q3/8/3K4/8/2k5/8 w - - 0 1")
    assert " advice " in gui.ask("go")[1]  # the bundled KQK table
    assert gui.ask("setoption name Table value krk") == []
    assert gui.ask("go")[1] == "info string not a KRK position: playing the tablebase move"
    assert gui.ask("setoption name Table value nonesuch.yaml")[0].startswith(
        "info string ignored Table 'nonesuch.yaml': "
    )
    assert gui.engine.table_spec == "krk"
    gui.ask("setoption name Table value")  # empty, as some GUIs send it: auto
    assert gui.engine.table_spec == "auto"
    assert " advice " in gui.ask("go")[1]
    gui.ask("position startpos")
    assert gui.ask("go depth 1")[0] == (
        "info string no bundled table plays this position: playing a short search"
    )


def test_go_mate_searches_for_a_mate():
    gui = Gui()
    gui.ask("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1")
    lines = gui.ask("go mate 2")
    assert lines[0].startswith("info depth 3 score mate 2 ")
    assert lines[1] == "info string mate in 2 found by the mate search"
    assert gui.ask("go mate 1")[0] == "info string there is no mate in 1"


def test_go_mate_without_nodes_has_a_default_budget_and_says_when_it_is_spent(monkeypatch):
    monkeypatch.setattr("al0.uci.choice.PROOF_BUDGET", 50)
    gui = Gui()
    gui.ask("position fen 8/k7/8/2K5/8/8/4R3/8 w - - 0 1")
    lines = gui.ask("go mate 9")
    assert lines[0] == "info string no mate in 9 found: node budget of 50 spent"
    assert lines[-1].startswith("bestmove ")


@pytest.mark.parametrize(
    "args, turn, go",
    [
        ("", chess.WHITE, Go()),
        ("movetime 1000", chess.WHITE, Go(seconds=1 - MARGIN)),
        ("infinite", chess.WHITE, Go(held=True)),
        ("ponder wtime 60000 btime 60000", chess.WHITE, Go(seconds=3 - MARGIN, held=True)),
        # Our clock shared among 20 moves, plus half the increment.
        ("wtime 60000 btime 2000 winc 2000 binc 0", chess.WHITE, Go(seconds=4 - MARGIN)),
        ("wtime 60000 btime 2000 winc 2000 binc 0", chess.BLACK, Go(seconds=0.1 - MARGIN)),
        ("btime 10000 movestogo 5", chess.BLACK, Go(seconds=2 - MARGIN)),
        # Never more than half the clock.
        ("wtime 1000 winc 5000", chess.WHITE, Go(seconds=0.5 - MARGIN)),
        ("nodes 500 depth 4 mate 3", chess.WHITE, Go(nodes=500, depth=4, mate=3)),
        # A clock beyond what a timer can wait (an OverflowError in its thread).
        ("wtime 999999999999999999 movestogo 1", chess.WHITE, Go(seconds=LONGEST_THINK)),
        ("movetime 999999999999999999", chess.WHITE, Go(seconds=LONGEST_THINK)),
    ],
)
def test_parse_go(args, turn, go):
    assert parse_go(args.split(), turn) == (go, [])


@pytest.mark.parametrize(
    "args, note",
    [
        ("nodes many", "info string ignored: go nodes must be a whole number, not 'many'"),
        # int() took these: a digit of another script, underscores.
        ("nodes ٣", "info string ignored: go nodes must be a whole number, not '٣'"),
        ("depth 1_0", "info string ignored: go depth must be a whole number, not '1_0'"),
        (
            "movetime " + "9" * 30,
            "info string ignored: go movetime is too large (at most 18 digits): "
            "'999999999999999999999999'… (30 characters)",
        ),
        ("depth 0", "info string ignored go depth 0: use 1 or more"),
        ("searchmoves e2e4 d2d4 depth 2", "info string ignored searchmoves: every move is searched"),
        ("fast", "info string ignored go 'fast'"),
    ],
)
def test_parse_go_says_what_it_ignores(args, note):
    _, notes = parse_go(args.split(), chess.WHITE)
    assert notes == [note]


@pytest.mark.parametrize(
    "args, message",
    [
        ("", "expected 'startpos' or 'fen FEN'"),
        ("fen", "expected 'startpos' or 'fen FEN'"),
        ("fen 8/8/8/8/8/8/8/8 w - - 0 1", "illegal position '8/8/8/8/8/8/8/8 w - - 0 1': no white king"),
        ("startpos moves e2e5", "illegal move 'e2e5'"),
        ("startpos moves e2e4 nonsense", "bad move 'nonsense'"),
        # Pawns: what is wrong said (it was "illegal position" alone), and a
        # promotion sent without its piece told how to name it.
        (
            "fen 8/8/8/3pP3/8/8/8/K6k w - e6 0 1",
            "illegal position '8/8/8/3pP3/8/8/8/K6k w - e6 0 1': invalid ep square",
        ),
        ("fen 4P3/8/8/8/8/8/8/K6k w - - 0 1", "pawns on backrank"),
        (
            "fen 8/4P3/8/8/8/8/8/K6k w - - 0 1 moves e7e8",
            r"illegal move 'e7e8' at .* \(a promotion names its piece: e7e8q\)$",
        ),
        (
            "fen 8/4P3/8/8/8/8/8/K6k w - - 0 1 moves e7e8k",
            r"illegal move 'e7e8k' at 8/4P3/8/8/8/8/8/K6k w - - 0 1$",
        ),
        (
            "fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a3",
            r"illegal move 'a1a3' at 8/8/8/8/8/8/8/K6k w - - 0 1$",
        ),
    ],
)
def test_parse_position_rejects(args, message):
    with pytest.raises(ValueError, match=message):
        parse_position(args.split())


# ------------------------------------------------------------------ scores


def test_without_a_tablebase_the_score_is_the_trees_bound_or_the_material():
    kqk = chess.Board("k7/8/2K5/8/8/8/8/4Q3 w - - 0 1")
    plan = Planner(load_table(TEST_TABLES / "mate_in_3_kqk.yaml")).plan(kqk)
    assert plan.tree is not None
    assert table_score(kqk, plan.tree, None) == (
        f"mate {(plan.tree.height + 1) // 2}",
        "the plan, a forcing tree to mate",
    )
    book = chess.Board(BOOK_FEN)
    squeeze = Planner(load_table(KRK)).plan(book).tree
    assert squeeze is not None
    assert table_score(book, squeeze, None) == ("cp 500", "the material")
    assert table_score(book, squeeze, Verdict.of(tablebase.load("KRK"), book)) == (
        "mate 10",
        "the tablebase after the plan's move (the tablebase's best: mate 8)",
    )


# ------------------------------------------------------------ short search


def test_a_line_is_cut_where_the_games_history_makes_it_a_draw():
    """The short search knows no history: the line it reports stops at the
    threefold repetition the game's moves make (fastchess warns otherwise)."""
    board = parse_position("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1".split())
    line = tuple(chess.Move.from_uci(m) for m in ("f6g8", "g1f3", "g8f6"))
    assert playable(board, line) == list(line[:1])
    assert playable(chess.Board(), line[1:]) == list(line[1:])


def test_short_search_mates_in_one_outside_any_table():
    lines = list(ShortSearch(chess.Board(KRRK_MATE_IN_ONE)).deepen(3))
    assert len(lines) == 1  # a mate ends the deepening
    board = chess.Board(KRRK_MATE_IN_ONE)
    board.push(lines[0].pv[0])
    assert board.is_checkmate() and lines[0].mate == 1


def test_short_search_stops_on_its_budget_and_its_flag():
    with pytest.raises(SearchBudgetExceeded, match="node budget of 50"):
        list(ShortSearch(chess.Board(), max_nodes=50).deepen(3))
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchBudgetExceeded, match="stopped"):
        list(ShortSearch(chess.Board(), stop=stop).deepen(3))


def test_a_stop_flag_ends_a_forcing_tree_search():
    stop = threading.Event()
    stop.set()
    planner = Planner(load_table(DEEP))
    with pytest.raises(SearchBudgetExceeded, match="stopped searching"):
        planner.plan(chess.Board(BOOK_FEN), SearchLimits(stop=stop))


def test_python_chess_analysis_and_options():
    """Infinite analysis ends with the move at ``stop``; Budget is an option."""
    board = chess.Board(BOOK_FEN)
    with chess.engine.SimpleEngine.popen_uci(COMMAND + [KRK]) as engine:
        assert engine.options["Budget"].default == 1_000_000
        with engine.analysis(board) as analysis:
            for info in analysis:
                if "pv" in info:
                    break
        assert info["pv"] == [chess.Move.from_uci("e6e3")]
        assert analysis.wait().move == chess.Move.from_uci("e6e3")
        engine.configure({"Budget": 20_000})
        assert engine.play(board, chess.engine.Limit(nodes=10)).move == chess.Move.from_uci("e6e3")


@pytest.mark.parametrize(
    "line, answer",
    [
        (
            "setoption name Hash value 64",
            "info string ignored setoption: no option 'hash' (Budget, Table, Tab",
        ),
        ("setoption name Budgte value 5", "info string ignored setoption: no option 'budgte'"),
        ("setoption", "info string ignored setoption: no option ''"),
    ],
)
def test_an_unknown_option_is_said_to_be_ignored_not_dropped_unseen(line, answer):
    gui = Gui()
    (said,) = gui.ask(line)
    assert said.startswith(answer)
    assert gui.engine.choice.budget == DEFAULT_BUDGET


def test_castling_rights_are_the_reason_given_not_another_material():
    gui = Gui()
    gui.ask("position fen 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    lines = gui.ask("go depth 1")
    assert lines[0] == "info string no table plays a position with castling rights: playing a short search"
    assert chess.Move.from_uci(bestmove(lines)) in chess.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").legal_moves
