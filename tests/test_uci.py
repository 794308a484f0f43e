"""``al0 uci``: an advice table as a UCI engine, driven by python-chess's own
UCI client for whole games and by single protocol lines for the rest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess
import chess.engine
import pytest

from al0 import tablebase
from al0.engine.defenders import TablebaseDefender
from al0.lang.loader import load_table
from al0.engine.plan import Planner
from al0.engine.play import OurMove, TheirMove, play_game
from al0.board.fen import read_epd
from al0.uci import UciEngine, parse_position, serve

ROOT = Path(__file__).resolve().parent.parent
KRK = str(ROOT / "advice_tables" / "krk.yaml")
NO_PLAN = str(ROOT / "tests" / "good_tables" / "krk_no_plan.yaml")
GAMES = ROOT / "tests" / "positions" / "krk_uci_games.epd"
BOOK_FEN = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
COMMAND = [sys.executable, "-m", "al0", "uci"]


def engine_for(path: str) -> UciEngine:
    table = load_table(path)
    return UciEngine(table, Planner(table))


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
    expected = [event.move for event in play_game(Planner(table), chess.Board(start), defender)
                if isinstance(event, (OurMove, TheirMove))]
    board = chess.Board(start)
    infos = []
    with chess.engine.SimpleEngine.popen_uci(COMMAND + [KRK]) as engine:
        assert engine.id["name"] == "al0 krk"
        while not board.is_game_over():
            if board.turn == chess.WHITE:
                result = engine.play(board, chess.engine.Limit(time=1.0),
                                     info=chess.engine.INFO_ALL)
                assert result.move in board.legal_moves
                infos.append(result.info)
                board.push(result.move)
            else:
                board.push(defender(board))
    assert board.is_checkmate()
    assert board.move_stack == expected
    assert all(info["string"].startswith("rule ") for info in infos)
    assert all(info["pv"][0] == move for info, move in zip(infos, board.move_stack[::2]))
    # Between plans the tree is followed, not rebuilt.
    assert any(info["string"].endswith("(following the tree)") for info in infos)


def test_engine_answers_malformed_input_and_keeps_going():
    lines = ["uci", "isready", "xyzzy", "position fen not a fen", "go",
             "position startpos moves e2e4 e7e6 d2d5", "go movetime 10",
             f"position fen {BOOK_FEN} moves e6e3 zz", "go",
             f"position fen {BOOK_FEN}", "go wtime 1000 btime 1000 winc 0 binc 0", "quit",
             "go"]  # nothing is read after quit
    run = subprocess.run(COMMAND + [KRK], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    out = run.stdout.splitlines()
    assert out[:5] == ["id name al0 krk", "id author al0",
                       "option name Budget type spin default 1000000 min 1 max 1000000000",
                       "uciok", "readyok"]
    assert "info string ignored unknown command 'xyzzy'" in out
    assert [line for line in out if line.startswith("bestmove")] == \
        ["bestmove (none)", "bestmove (none)", "bestmove (none)", "bestmove e6e3"]
    refused = [line for line in out if line.startswith("info string position refused")]
    assert "bad FEN 'not a fen'" in refused[0]
    assert "illegal move 'd2d5'" in refused[1]
    assert "bad move 'zz'" in refused[2]


def test_uci_command_with_a_broken_table_fails_before_the_protocol(tmp_path):
    missing = str(tmp_path / "missing.yaml")
    run = subprocess.run(COMMAND + [missing], input="uci\n", capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2
    assert run.stdout == ""
    assert missing in run.stderr and "Traceback" not in run.stderr


# ------------------------------------------------------ the protocol, in process

def test_handshake_and_ignored_commands():
    engine = engine_for(KRK)
    assert engine.handle("uci") == [
        "id name al0 krk", "id author al0",
        "option name Budget type spin default 1000000 min 1 max 1000000000", "uciok"]
    assert engine.handle("isready") == ["readyok"]
    for line in ("setoption name Hash value 16", "debug on", "register later", "ucinewgame", "",
                 "setoption name Budget value 5000"):
        assert engine.handle(line) == []
    # Unknown words before a known command are skipped, as the protocol asks.
    assert engine.handle("joho isready") == ["readyok"]
    assert not engine.finished
    assert engine.handle("quit") == [] and engine.finished


def test_budget_option_bounds_the_search():
    engine = engine_for(KRK)
    engine.handle("setoption name Budget value 3")
    assert engine.planner.budget == 3
    engine.handle(f"position fen {BOOK_FEN}")
    lines = engine.handle("go")
    # Three nodes are too few for a plan: the search stops and the fallback plays.
    assert lines[0] == (f"info string advice 'squeeze': node budget of 3 spent searching from "
                        f"{BOOK_FEN}: playing the tablebase move")
    assert chess.Move.from_uci(bestmove(lines)) in chess.Board(BOOK_FEN).legal_moves
    assert engine.handle("setoption name Budget value 0") == [
        "info string ignored setoption: Budget must be a whole number from 1 to 1000000000, "
        "not 0"]
    assert engine.planner.budget == 3


@pytest.mark.parametrize("value, why", [
    ("\u00b2", "must be a whole number from 1 to 1000000000, not '\u00b2'"),  # isdigit() said yes
    ("\u0663", "must be a whole number from 1 to 1000000000, not '\u0663'"),  # int() said 3
    ("9" * 5000, "is too large (at most 18 digits)"),  # over Python's int() limit
    ("1_000", "not '1_000'"), ("-5", "not '-5'"), ("0x10", "not '0x10'"),
])
def test_a_bad_budget_is_ignored_and_the_engine_goes_on(value, why):
    # A GUI sends what its user typed: the engine must answer, never die.
    engine = engine_for(KRK)
    answers: list[str] = []
    serve(engine, [f"setoption name Budget value {value}", f"position fen {BOOK_FEN}", "go",
                   "quit"], answers.append)
    assert answers[0].startswith("info string ignored setoption: Budget ") and why in answers[0]
    assert len(answers[0]) < 200
    assert engine.planner.budget == 1_000_000
    assert answers[-1].startswith("bestmove ")


def test_keeps_the_tree_while_the_gui_stays_in_it():
    engine = engine_for(KRK)
    engine.handle(f"position fen {BOOK_FEN}")
    first = engine.handle("go")
    assert first[1] == "info string rule else_rule advice squeeze (new plan)"
    assert bestmove(first) == "e6e3"
    # squeeze's tree ends after our move: the reply makes a new plan.
    second = engine.handle(f"position fen {BOOK_FEN} moves e6e3 c2c1")
    assert second == []
    assert engine.handle("go")[1].endswith("(new plan)")
    # Deep trees are followed: mate_in_2 from here.
    engine.handle("ucinewgame")
    engine.handle("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1")
    lines = engine.handle("go")
    assert "advice mate_in_2 (new plan)" in lines[1]
    ours = bestmove(lines)
    board = chess.Board("k7/8/2K5/8/8/8/8/7R w - - 0 1")
    board.push_uci(ours)
    reply = min(board.legal_moves, key=chess.Move.uci)
    # The GUI may send the position as a FEN without the moves: still followed.
    board.push(reply)
    engine.handle(f"position fen {board.fen()}")
    lines = engine.handle("go")
    assert lines[1] == "info string rule edge_rule advice mate_in_2 (following the tree)"
    board.push_uci(bestmove(lines))
    assert board.is_checkmate()


def test_a_position_the_gui_changed_gets_a_new_plan():
    engine = engine_for(KRK)
    engine.handle(f"position fen {BOOK_FEN}")
    engine.handle("go")
    engine.handle("position fen k7/8/2K5/8/8/8/8/7R w - - 0 1")
    assert engine.handle("go")[1].endswith("(new plan)")


def test_go_infinite_holds_the_move_until_stop():
    engine = engine_for(KRK)
    engine.handle(f"position fen {BOOK_FEN}")
    lines = engine.handle("go infinite")
    assert lines and not any(line.startswith("bestmove") for line in lines)
    assert engine.handle("stop") == ["bestmove e6e3"]
    assert engine.handle("stop") == []       # a stop with nothing to stop
    engine.handle("go ponder")
    assert engine.handle("ponderhit") == ["bestmove e6e3"]


@pytest.mark.parametrize("position, why, source", [
    ("startpos", "position is KQRRBBNNPPPPPPPPKQRRBBNNPPPPPPPP, the table plays KRK",
     "first legal move"),
    (f"fen 8/8/4Q3/8/3K4/8/2k5/8 w - - 0 1", "position is KQK, the table plays KRK",
     "first legal move"),
    (f"fen 8/8/4R3/8/3K4/8/2k5/8 b - - 0 1", "the table plays White, not the side to move",
     "tablebase move"),
])
def test_outside_the_table_a_legal_fallback_move(position, why, source):
    engine = engine_for(KRK)
    engine.handle(f"position {position}")
    lines = engine.handle("go")
    assert lines[0] == f"info string {why}: playing the {source}"
    board = parse_position(position.split())
    move = chess.Move.from_uci(bestmove(lines))
    assert move in board.legal_moves
    if source == "tablebase move":
        assert move == tablebase.load("KRK").best_defence(board)
    else:
        assert move == min(board.legal_moves, key=chess.Move.uci)


def test_the_table_goes_on_after_we_take_their_piece():
    """A KQKR table keeps playing once the queen has taken the rook (KQK): its
    rules say what to do then, as in al0 play."""
    engine = engine_for(str(ROOT / "tests" / "fixtures" / "kqkr_win_rook.yaml"))
    engine.handle("position fen 8/8/3k4/8/4r3/8/2Q5/3K4 w - - 0 1")
    assert engine.handle("go")[1:] == ["info string rule win_rook advice fork (new plan)", "bestmove c2e4"]
    engine.handle("position fen 8/8/3k4/8/4r3/8/2Q5/3K4 w - - 0 1 moves c2e4 d6c7")
    lines = engine.handle("go")
    assert lines[1] == "info string rule lone_king advice squeeze (new plan)"
    # Their piece back and ours gone: not the table's material.
    engine.handle("position fen 8/8/3k4/8/4r3/8/8/3K4 w - - 0 1")
    assert engine.handle("go")[0].startswith("info string position is KKR, the table plays KQKR")


def test_no_plan_falls_back_to_the_tablebase():
    engine = engine_for(NO_PLAN)
    engine.handle(f"position fen {BOOK_FEN}")
    lines = engine.handle("go")
    assert lines[0] == ("info string no plan: no rule's precondition holds: "
                        "playing the tablebase move")
    board = chess.Board(BOOK_FEN)
    assert chess.Move.from_uci(bestmove(lines)) in tablebase.load("KRK").best_moves(board)


def test_game_over_answers_no_move():
    engine = engine_for(KRK)
    engine.handle("position fen k7/2K5/8/8/8/8/8/R7 b - - 0 1")   # Black is mated
    assert engine.handle("go") == ["info string the game is over: no legal move",
                                   "bestmove (none)"]


@pytest.mark.parametrize("args, message", [
    ("", "expected 'startpos' or 'fen FEN'"),
    ("fen", "expected 'startpos' or 'fen FEN'"),
    ("fen 8/8/8/8/8/8/8/8 w - - 0 1", "illegal position"),
    ("startpos moves e2e5", "illegal move 'e2e5'"),
    ("startpos moves e2e4 nonsense", "bad move 'nonsense'"),
])
def test_parse_position_rejects(args, message):
    with pytest.raises(ValueError, match=message):
        parse_position(args.split())


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
